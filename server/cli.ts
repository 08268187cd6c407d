import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { inspect, parseArgs } from 'node:util';
import { AUDIT_ACTIONS, type AuditAction, CLI_ACTOR, exportAudit, recordAudit } from './audit/audit.service.ts';
import { backupDatabase } from './backup/backup.ts';
import { DataFolderBusyError } from './backup/dataFolderLock.ts';
import { restoreDatabase } from './backup/restore.ts';
import { HELP } from './cliHelp.ts';
import { type Config, loadConfig } from './config.ts';
import { copyDataFolder } from './copyStore/copyDataFolder.ts';
import { EXIT, exitCodeOf, UsageError } from './exitCodes.ts';
import { createLogger } from './logger.ts';
import { runStdioBridge } from './mcp/stdio.ts';
import { purgeMemories, purgeTarget } from './memory/purge.service.ts';
import { databaseName, ensureDataDir, noDatabase, openData, redactUrl } from './openData.ts';
import { type BundleProgress, writeBundle, writeBundleFile } from './portability/export/writeBundle.ts';
import { type FileImport, importFile } from './portability/importFile.ts';
import { importJob, importSummary, outcomes } from './portability/importOptions.ts';
import { serve, servicesFromEnvironment } from './serve.ts';
import { createServices } from './services.ts';
import { apiKeyIdSchema } from './validation.ts';

/**
 * What a command reads and writes besides the data folder: the process's environment, streams and signals in
 * server/main.ts, in-memory stand-ins in the tests (so they run in the test's process).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** What `mnemo mcp` reads its protocol frames from. */
  stdin?: Readable;
  /** The token, listings and the JSON log. */
  stdout: Output;
  /** Messages for the operator: errors, what was minted, the reindex progress line. */
  stderr: Output;
  /** Called when serve starts; resolves when it is asked to stop (SIGINT or SIGTERM for the process). */
  stopRequested(): Promise<void>;
}

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Runs one command line and resolves with its exit code; it never exits the process itself. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    const exit = exitCodeOf(error);
    if (exit) {
      io.stderr.write(`mnemo: ${(error as Error).message}${advice(error, exit.code)}\n`);
      return exit.code;
    }
    // The stack is for developers: shown when asked for (MNEMO_LOG_LEVEL=debug or trace).
    const debug = ['debug', 'trace'].includes(io.env.MNEMO_LOG_LEVEL ?? '');
    const detail = debug ? inspect(error) : `${(error as Error).message ?? String(error)} (MNEMO_LOG_LEVEL=debug shows the stack)`;
    io.stderr.write(`mnemo: failed: ${detail}\n`);
    return EXIT.software;
  }
}

/** What the person who ran the command does next, after the message. */
function advice(error: unknown, code: number): string {
  if (code === EXIT.usage) return '\nRun "mnemo --help" for usage.';
  return error instanceof DataFolderBusyError ? '; stop it first' : '';
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      name: { type: 'string' },
      'api-key': { type: 'string' },
      admin: { type: 'boolean' },
      force: { type: 'boolean' },
      since: { type: 'string' },
      until: { type: 'string' },
      action: { type: 'string' },
      actor: { type: 'string' },
      'may-forget-key': { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      create: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'key-from': { type: 'string' },
      'session-from': { type: 'string' },
      out: { type: 'string' },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    io.stdout.write(HELP);
    return values.help ? 0 : EXIT.usage;
  }
  if (values.to !== undefined && command !== 'copy-store') throw new UsageError('--to belongs to copy-store');
  if (values.out !== undefined && command !== 'export') throw new UsageError('--out belongs to export');
  if (values.from !== undefined && !['copy-store', 'import'].includes(command))
    throw new UsageError('--from belongs to copy-store and import');
  if (values.create && !['serve', 'migrate', 'token', 'reindex', 'purge', 'audit', 'import'].includes(command)) {
    throw new UsageError(`--create does not apply to ${command}`);
  }
  const create = values.create ?? false;
  // copy-store's source is a data folder and its target a database URL: the same settings as every command's.
  const source = command === 'copy-store' ? values.from : undefined;
  const config = loadConfig(
    { dataDir: source ?? values['data-dir'], host: values.host, port: values.port, databaseUrl: values.to ?? values['database-url'] },
    io.env,
  );
  switch (command) {
    case 'serve':
      return serve(config, io);
    case 'migrate': {
      // A first migrate creates the SQLite database (before the first start is its use); saying so tells a migrate
      // run in the wrong folder from one on the database meant.
      const created = !config.databaseUrl && !existsSync(config.databaseFile);
      return withDatabase(config, io, { create: true }, async () => {
        io.stdout.write(`${created ? 'created ' : ''}database ${databaseName(config)} is up to date\n`);
        return 0;
      });
    }
    case 'token':
      return tokenCommand(config, io, create, sub, arg, values);
    case 'reindex':
      return reindexCommand(config, io, create, values.force ?? false);
    case 'purge':
      return purgeCommand(config, io, create);
    case 'backup':
      if (config.databaseUrl) throw new UsageError('backup copies the SQLite file; the data is in PostgreSQL: back it up with pg_dump');
      if (!sub) throw new UsageError('backup needs the file to write');
      return backupCommand(config, io, path.resolve(sub));
    case 'mcp':
      if (!io.stdin) throw new UsageError('mcp reads MCP messages from standard input');
      return runStdioBridge({ ...io, stdin: io.stdin }, EXIT);
    case 'restore':
      if (config.databaseUrl)
        throw new UsageError('restore puts back a SQLite file; the data is in PostgreSQL: restore a pg_dump with pg_restore');
      if (!sub) throw new UsageError('restore needs the backup file');
      return restoreCommand(config, io, path.resolve(sub));
    case 'audit':
      if (sub !== 'export') throw new UsageError('audit needs: export');
      return auditExportCommand(config, io, create, values);
    case 'copy-store':
      return copyStoreCommand(config, io);
    case 'import':
      return withDatabase(config, io, { create }, importAction(config, io, importJob(sub, values)));
    case 'export':
      return exportCommand(config, io, values);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function tokenCommand(
  config: Config,
  io: CliIo,
  create: boolean,
  sub: string | undefined,
  arg: string | undefined,
  values: { name?: string; 'api-key'?: string; admin?: boolean; 'may-forget-key'?: boolean },
) {
  // The command line is checked before the database is opened: a mistyped one is told so wherever it is run.
  return withDatabase(config, io, { create }, tokenAction(config, io, sub, arg, values));
}

type Services = ReturnType<typeof createServices>;

/** What `mnemo token SUB` does once the database is open; a usage error before that. */
function tokenAction(
  config: Config,
  io: CliIo,
  sub: string | undefined,
  arg: string | undefined,
  values: { name?: string; 'api-key'?: string; admin?: boolean; 'may-forget-key'?: boolean },
): (services: Services) => Promise<number> {
  switch (sub) {
    case 'create': {
      const name = values.name;
      if (!name) throw new UsageError('token create needs --name');
      return async (services) => {
        const { token, accessToken } = await services.tokens.mint({
          name,
          role: values.admin ? 'admin' : 'gateway',
          apiKeyId: values['api-key'] ?? null,
          mayForgetKey: values['may-forget-key'] ?? false,
        });
        const scope =
          accessToken.role === 'admin'
            ? 'admin'
            : accessToken.apiKeyId
              ? `gateway, bound to ${accessToken.apiKeyId}${accessToken.mayForgetKey ? ', may forget it' : ''}`
              : 'gateway, any API key';
        await recordAudit(services, {
          actor: CLI_ACTOR,
          action: 'TOKEN_CREATE',
          apiKeyId: accessToken.apiKeyId,
          target: { tokenId: accessToken.id, name: accessToken.name, role: accessToken.role },
        });
        io.stderr.write(
          `minted "${accessToken.name}" (${scope}), id ${accessToken.id}, in ${databaseName(config)}. The token is shown only once:\n`,
        );
        io.stdout.write(`${token}\n`);
        return 0;
      };
    }
    case 'list':
      return async (services) => {
        const tokens = await services.tokens.list(true);
        for (const t of tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
          io.stdout.write(`${[t.id, t.role, t.apiKeyId ?? '*', state, t.name].join('\t')}\n`);
        }
        // On stderr: stdout is the listing, one token a line.
        io.stderr.write(`tokens in ${databaseName(config)}: ${tokens.length}\n`);
        return 0;
      };
    case 'revoke': {
      if (!arg) throw new UsageError('token revoke needs the token id');
      return async (services) => {
        const t = await services.tokens.revoke(arg);
        await recordAudit(services, {
          actor: CLI_ACTOR,
          action: 'TOKEN_REVOKE',
          apiKeyId: t.apiKeyId,
          target: { tokenId: t.id, name: t.name },
        });
        io.stdout.write(`revoked ${t.id} (${t.name}) in ${databaseName(config)}\n`);
        return 0;
      };
    }
    default:
      throw new UsageError('token needs one of: create, list, revoke');
  }
}

async function reindexCommand(config: Config, io: CliIo, create: boolean, force: boolean): Promise<number> {
  const opened = await openData(config, { create });
  io.stderr.write(`reindexing ${databaseName(config)}\n`);
  const services = servicesFromEnvironment(config, io, opened.db, createLogger('warn', io.stdout));
  try {
    const job = await services.reindex.start(force);
    await recordAudit(services, { actor: CLI_ACTOR, action: 'REINDEX_START', target: { force, jobId: job.id } });
    const line = (j: typeof job) => {
      const done = j.processed + j.failed;
      const pct = j.total > 0 ? ((100 * done) / j.total).toFixed(1) : '100.0';
      const eta = j.etaSeconds === null ? '?' : `${Math.ceil(j.etaSeconds)}s`;
      return `reindex ${done}/${j.total} (${pct}%)  ${j.rate.toFixed(0)}/s  eta ${eta}  failed ${j.failed}  ${j.status}`;
    };
    let last = job;
    for await (const update of services.reindex.watch(job.id)) {
      last = update;
      io.stderr.write(io.stderr.isTTY ? `\r${line(update)}\x1b[K` : `${line(update)}\n`);
    }
    if (io.stderr.isTTY) io.stderr.write('\n');
    if (last.status !== 'completed') io.stderr.write(`mnemo: reindex ${last.status}${last.error ? `: ${last.error}` : ''}\n`);
    return last.status === 'completed' ? 0 : 1;
  } finally {
    await services.reindex.stop();
    await opened.close();
  }
}

/** Why the write-ahead log still holds what a purge deleted (see afterErase in db/maintenance.ts). */
const walNote = (config: Config) =>
  config.databaseUrl
    ? '; PostgreSQL keeps the deleted rows in its write-ahead log until it recycles its segments'
    : '; the write-ahead log is still read by another process and is emptied later';

async function purgeCommand(config: Config, io: CliIo, create: boolean): Promise<number> {
  return withDatabase(config, io, { create }, async (services) => {
    const started = performance.now();
    const outcome = await purgeMemories(services, {
      onProgress: ({ deleted, total }) => {
        const seconds = (performance.now() - started) / 1000;
        const line = `purge ${deleted}/${total} (${((100 * deleted) / Math.max(1, total)).toFixed(1)}%)  ${(deleted / Math.max(seconds, 0.001)).toFixed(0)}/s`;
        io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
      },
    });
    if (io.stderr.isTTY && outcome.batches > 0) io.stderr.write('\n');
    const deleted = outcome.expired + outcome.outOfRetention;
    await recordAudit(services, { actor: CLI_ACTOR, action: 'MEMORIES_PURGE', target: purgeTarget(outcome) });
    io.stdout.write(
      `purged ${deleted} memories from ${databaseName(config)} (${outcome.expired} expired, ${outcome.outOfRetention} out of retention) in ${outcome.batches} batches, ` +
        `the longest ${outcome.longestBatchMs.toFixed(0)} ms${outcome.walEmptied ? '' : walNote(config)}\n`,
    );
    return 0;
  });
}

/** What `mnemo import --from FORMAT FILE` does once the database is open: the file in batches, a progress line, a report. */
function importAction(config: Config, io: CliIo, job: FileImport): (services: Services) => Promise<number> {
  return async (services) => {
    const started = performance.now();
    const report = await importFile(services, {
      ...job,
      onProgress: (r) => {
        const seconds = (performance.now() - started) / 1000;
        const line = `import ${r.read} rows read, ${outcomes(r)}  ${(r.read / Math.max(seconds, 0.001)).toFixed(0)}/s`;
        io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
      },
    });
    if (io.stderr.isTTY && report.read > 0) io.stderr.write('\n');
    if (!job.dryRun) {
      const { imported, updated, merged, skipped } = report;
      const target = { format: job.format, rows: report.read, imported, updated, merged, skipped };
      await recordAudit(services, { actor: CLI_ACTOR, action: 'MEMORIES_IMPORT', apiKeyId: job.placement.apiKeyId, target });
    }
    io.stdout.write(importSummary(report, job, databaseName(config)));
    return 0;
  };
}

/** `mnemo export`: the bundle of one key or of every key, to a file (whole or not at all) or standard output. */
async function exportCommand(config: Config, io: CliIo, values: { 'api-key'?: string; out?: string }): Promise<number> {
  const checked = values['api-key'] === undefined ? null : apiKeyIdSchema.safeParse(values['api-key']);
  if (checked && !checked.success) throw new UsageError(checked.error.issues[0]?.message ?? '--api-key is not an API key id');
  const apiKeyId = checked?.data ?? null;
  const out = values.out === undefined ? null : path.resolve(values.out);
  return withDatabase(config, io, { create: false }, async (services) => {
    await services.access.flush();
    const onProgress = (p: BundleProgress) => {
      const line = `export ${p.done} of ${p.total} lines`;
      io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
    };
    const opts = { apiKeyId, now: services.now(), onProgress };
    const header = out === null ? await writeBundle(services.db, opts, io.stdout) : await writeBundleFile(services.db, opts, out);
    if (io.stderr.isTTY) io.stderr.write('\n');
    await recordAudit(services, { actor: CLI_ACTOR, action: 'MEMORIES_EXPORT', apiKeyId, target: { ...header.counts } });
    const { memories, versions, tombstones } = header.counts;
    io.stderr.write(
      `exported ${memories} memories (${versions} versions) and ${tombstones} tombstones of ${apiKeyId === null ? 'every key' : `key ${apiKeyId}`} ` +
        `from ${databaseName(config)} to ${out ?? 'standard output'}, checksum ${header.checksum}\n`,
    );
    return 0;
  });
}

async function withDatabase<T>(config: Config, io: CliIo, options: { create: boolean }, run: (services: Services) => Promise<T>) {
  const opened = await openData(config, options);
  try {
    // Warnings to stderr: stdout carries what the command prints (a token, a listing, JSON lines).
    return await run(createServices({ db: opened.db, logger: createLogger('warn', io.stderr), adminToken: config.adminToken }));
  } finally {
    await opened.close();
  }
}

async function auditExportCommand(
  config: Config,
  io: CliIo,
  create: boolean,
  values: { since?: string; until?: string; action?: string; actor?: string; 'api-key'?: string },
): Promise<number> {
  const when = (flag: string, value: string | undefined) => {
    if (value === undefined) return null;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) throw new UsageError(`--${flag} must be a date such as 2026-12-01T00:00:00Z`);
    return date;
  };
  const action = values.action?.toUpperCase();
  if (action !== undefined && !AUDIT_ACTIONS.includes(action as AuditAction)) {
    throw new UsageError(`--action must be one of ${AUDIT_ACTIONS.join(', ')}`);
  }
  const query = {
    since: when('since', values.since),
    until: when('until', values.until),
    action: action as AuditAction | undefined,
    actor: values.actor,
    apiKeyId: values['api-key'],
  };
  return withDatabase(config, io, { create }, async (services) => {
    let count = 0;
    for await (const entry of exportAudit(services, query)) {
      io.stdout.write(`${JSON.stringify(entry)}\n`);
      count++;
    }
    io.stderr.write(`exported ${count} audit entries from ${databaseName(config)}\n`);
    return 0;
  });
}

async function copyStoreCommand(config: Config, io: CliIo): Promise<number> {
  if (!config.databaseUrl) throw new UsageError('copy-store needs --to postgres://… (or MNEMO_DATABASE_URL)');
  const target = redactUrl(config.databaseUrl);
  io.stderr.write(`copying ${config.databaseFile} to ${target}\n`);
  const started = performance.now();
  let progressShown = false;
  const outcome = await copyDataFolder({
    dataDir: config.dataDir,
    databaseFile: config.databaseFile,
    targetUrl: config.databaseUrl,
    onProgress: (p) => {
      const seconds = (performance.now() - started) / 1000;
      const pct = (done: number, all: number) => ((100 * done) / Math.max(1, all)).toFixed(1);
      const line =
        `copy-store ${p.table} ${p.copied}/${p.total} (${pct(p.copied, p.total)}%)  ` +
        `all ${p.copiedAll}/${p.totalAll} (${pct(p.copiedAll, p.totalAll)}%)`;
      io.stderr.write(io.stderr.isTTY ? `\r${line}  ${(p.copiedAll / Math.max(seconds, 0.001)).toFixed(0)}/s\x1b[K` : `${line}\n`);
      progressShown = true;
    },
  });
  if (io.stderr.isTTY && progressShown) io.stderr.write('\n');
  const width = Math.max(...outcome.counts.map((c) => c.table.length));
  io.stdout.write(`${'table'.padEnd(width)}  ${'source'.padStart(10)}  ${'target'.padStart(10)}\n`);
  for (const c of outcome.counts) {
    const mark = c.source === c.target ? '' : '  DIFFERS';
    io.stdout.write(`${c.table.padEnd(width)}  ${String(c.source).padStart(10)}  ${String(c.target).padStart(10)}${mark}\n`);
  }
  const how = outcome.resumed ? `continued the copy begun ${new Date(outcome.startedAt).toISOString()}: ` : '';
  if (!outcome.complete) {
    io.stderr.write(
      `mnemo: ${how}${outcome.copied} rows copied, but the counts marked DIFFERS do not match: the source changed since the copy began, ` +
        'or the target was written to. Copy into an empty database again.\n',
    );
    return 1;
  }
  io.stdout.write(
    `${how}copied ${config.databaseFile} to ${target} (${outcome.copied} rows in this run); every count matches.\n` +
      `Vectors are not copied: the ${outcome.memoriesToReindex} memories are flagged for reindexing. With Qdrant configured, ` +
      'run "mnemo reindex" against the PostgreSQL database (or start a reindex in the admin app) to embed them into Qdrant; ' +
      'until then retrieval there is keyword-only.\n',
  );
  return 0;
}

async function backupCommand(config: Config, io: CliIo, file: string): Promise<number> {
  // Nothing to copy, and nothing to create: a backup of a new, empty database is not what was asked for.
  if (!existsSync(config.databaseFile)) throw noDatabase(config.databaseFile, { creatable: false });
  const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const result = await backupDatabase(config.databaseFile, file, ({ bytes, totalBytes }) => {
    const line = `backup ${mib(bytes)}/${mib(totalBytes)} MiB (${totalBytes > 0 ? ((100 * bytes) / totalBytes).toFixed(0) : 100}%)`;
    io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  });
  if (io.stderr.isTTY) io.stderr.write('\n');
  // Recorded in the database that was backed up (a server may be using it; SQLite lets both write).
  await withDatabase(config, io, { create: false }, (services) =>
    recordAudit(services, {
      actor: CLI_ACTOR,
      action: 'DATABASE_BACKUP',
      target: { file: result.file, bytes: result.bytes, migration: result.migration },
    }),
  );
  io.stdout.write(
    `backed up ${config.databaseFile} to ${result.file} (${mib(result.bytes)} MiB, integrity ok, migration ${result.migration})\n`,
  );
  return 0;
}

async function restoreCommand(config: Config, io: CliIo, file: string): Promise<number> {
  ensureDataDir(config);
  const { migration, previous } = restoreDatabase({ dataDir: config.dataDir, databaseFile: config.databaseFile, from: file });
  // Recorded in the restored database (in place now, brought to the current schema as the next start would), so its
  // log says when it came back and from where.
  await withDatabase(config, io, { create: false }, (services) =>
    recordAudit(services, { actor: CLI_ACTOR, action: 'DATABASE_RESTORE', target: { from: file, migration, previous } }),
  );
  io.stdout.write(
    `restored ${config.databaseFile} from ${file} (integrity ok, migration ${migration})` +
      (previous ? `; the database it replaced is kept as ${previous}\n` : '\n'),
  );
  return 0;
}
