import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { inspect, parseArgs } from 'node:util';
import { createApp, listen } from './app.ts';
import { AUDIT_ACTIONS, type AuditAction, CLI_ACTOR, exportAudit, recordAudit, SYSTEM_ACTOR } from './audit/audit.service.ts';
import { BackupError, backupDatabase } from './backup/backup.ts';
import { DataFolderBusyError, holdDataFolder } from './backup/dataFolderLock.ts';
import { restoreDatabase } from './backup/restore.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { copyDataFolder } from './copyStore/copyDataFolder.ts';
import { type CopyRefusal, CopyStoreError } from './copyStore/copyStore.ts';
import { checkpointWal, MERGE_STEPS_PER_RUN, mergeKeywordIndex, optimizeDatabase } from './db/maintenance.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type Db, type OpenedDatabase, type OpenedStore, openDatabase } from './db/open.ts';
import { openPostgres } from './db/postgres.ts';
import { postgresCode, sqliteCode, storageFault } from './db/storeErrors.ts';
import { loadTrustedDocuments, type TrustedDocuments, TrustedDocumentsError } from './graphql/trustedDocuments.ts';
import { startAuditRetention } from './jobs/auditRetention.ts';
import { startAutoSummarize } from './jobs/autoSummarize.ts';
import { createLogger, type Logger } from './logger.ts';
import { runStdioBridge } from './mcp/stdio.ts';
import { purgeMemories, purgeTarget } from './memory/purge.service.ts';
import { createMetricsServer } from './metrics/metricsEndpoint.ts';
import { createServices } from './services.ts';
import { loadVectorConfig, VectorConfigError } from './vectorConfig.ts';

/** sysexits(3) codes, so scripts can tell a usage error from a busy port, an unwritable folder or a damaged database. */
const EXIT = { usage: 64, dataErr: 65, noInput: 66, unavailable: 69, software: 70, cantCreate: 73, ioErr: 74, noPerm: 77 } as const;

const HELP = `mnemo: long-term memory server for LLM gateways

Usage:
  mnemo serve [--port N] [--host H] [--data-dir DIR]   serve GraphQL at /graphql and the admin app at /admin/
  mnemo migrate [--data-dir DIR]                       apply pending database migrations and exit
  mnemo token create --name NAME [--api-key ID [--may-forget-key]] [--admin]
                                                       mint an access token (printed once); --may-forget-key lets
                                                       the bound token erase its key (forgetApiKey)
  mnemo token list [--data-dir DIR]                    list access tokens (never their secrets)
  mnemo token revoke ID [--data-dir DIR]               revoke an access token
  mnemo reindex [--force] [--data-dir DIR]             embed memories whose vector is missing or stale (all with
                                                       --force), with a progress line; joins a running job
  mnemo purge [--data-dir DIR]                         delete the memories expired or out of retention for longer
                                                       than purgeGraceDays now, with a progress line (the server
                                                       does it at start and hourly); the server may keep running
  mnemo backup FILE [--data-dir DIR]                  an online, verified copy of the whole database into FILE
                                                       (a new file), with a progress line; the server may keep running
                                                       (SQLite only: back PostgreSQL up with pg_dump)
  mnemo restore FILE [--data-dir DIR]                 replace the database by a backup, with the server stopped; the
                                                       replaced one is kept as mnemo.db.before-restore
  mnemo copy-store --from DIR --to postgres://…        copy everything in the data folder's SQLite database into an
                                                       empty PostgreSQL database, with a progress line, the server
                                                       stopped; run it again to continue an interrupted copy. Ends
                                                       with each table's counts (exit 1 if they differ). Vectors are
                                                       not copied: mnemo reindex rebuilds them into Qdrant
  mnemo mcp                                            MCP over stdio, for clients that launch a process: relays
                                                       to the running mnemo at MNEMO_URL with MNEMO_TOKEN
  mnemo audit export [--since T] [--until T] [--action A] [--actor ID] [--api-key K] [--data-dir DIR]
                                                       the audit log as JSON lines, oldest first (T: ISO 8601)
  mnemo --help

Environment (flags win):
  MNEMO_DATA_DIR     data folder holding mnemo.db (default ./data)
  MNEMO_DATABASE_URL postgres://user:password@host:port/db: keep the data in PostgreSQL instead (or --database-url);
                     any number of mnemo serve processes may share it
  MNEMO_DATABASE_POOL_SIZE  connections to PostgreSQL per process (default 10)
  MNEMO_HOST         address to listen on (default 127.0.0.1)
  MNEMO_PORT         port to listen on (default 4000)
  MNEMO_ADMIN_TOKEN  admin bearer token; when unset, the first start mints one and prints it once
  MNEMO_LOG_LEVEL    trace, debug, info (default), warn, error
  MNEMO_METRICS_PORT   serve /metrics (Prometheus) on this port of the same host, and nothing else there
  MNEMO_METRICS_TOKEN  serve /metrics on the main port to requests bearing this token (16+ characters)
  MNEMO_SHUTDOWN_TIMEOUT_MS  how long a shutdown waits for requests in flight (default 10000)
  MNEMO_BACKUP_DIR   where the backupDatabase mutation writes (default: backups/ in the data folder)
  MNEMO_URL          mnemo mcp: the running server (default http://127.0.0.1:4000)
  MNEMO_TOKEN        mnemo mcp: the access token it sends
  MNEMO_TRUSTED_DOCUMENTS  run only the operations of this manifest (a file or folder; the package ships
                     dist/trusted-documents.json with Memory Studio's and @mnemo/client's operations)
  MNEMO_TRUSTED_DOCUMENTS_ALLOW_ADMIN  true: admin tokens may still send any document

Run it as: mnemo <command>  (in a checkout, npx tsx server/main.ts <command> runs it from source)
`;

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

class UsageError extends Error {}

/** Runs one command line and resolves with its exit code; it never exits the process itself. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof VectorConfigError ||
      error instanceof TrustedDocumentsError ||
      (error as { code?: string }).code === 'BAD_USER_INPUT' ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`mnemo: ${(error as Error).message}\nRun "mnemo --help" for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof DataFolderBusyError) {
      io.stderr.write(`mnemo: ${error.message}; stop it first\n`);
      return EXIT.unavailable;
    }
    if (error instanceof CopyStoreError) {
      io.stderr.write(`mnemo: ${error.message}\n`);
      return COPY_REFUSED[error.reason];
    }
    if (error instanceof BackupError) {
      io.stderr.write(`mnemo: ${error.message}\n`);
      return EXIT.dataErr;
    }
    if (error instanceof DataDirError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.cantCreate;
    }
    if (error instanceof DatabaseFileError) {
      io.stderr.write(`mnemo: ${error.message}\n`);
      return error.exitCode;
    }
    const code = (error as { code?: string }).code;
    if (code === 'UNAVAILABLE') {
      io.stderr.write(`mnemo: ${(error as Error).message}\n`);
      return EXIT.unavailable;
    }
    if (code === 'NOT_FOUND') {
      io.stderr.write(`mnemo: ${(error as Error).message}\n`);
      return 1;
    }
    // The stack is for developers: shown when asked for (MNEMO_LOG_LEVEL=debug or trace).
    const debug = ['debug', 'trace'].includes(io.env.MNEMO_LOG_LEVEL ?? '');
    const detail = debug ? inspect(error) : `${(error as Error).message ?? String(error)} (MNEMO_LOG_LEVEL=debug shows the stack)`;
    io.stderr.write(`mnemo: failed: ${detail}\n`);
    return EXIT.software;
  }
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
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    io.stdout.write(HELP);
    return values.help ? 0 : EXIT.usage;
  }
  if ((values.from !== undefined || values.to !== undefined) && command !== 'copy-store') {
    throw new UsageError('--from and --to belong to copy-store');
  }
  // copy-store's source is a data folder and its target a database URL: the same settings as every command's.
  const config = loadConfig(
    { dataDir: values.from ?? values['data-dir'], host: values.host, port: values.port, databaseUrl: values.to ?? values['database-url'] },
    io.env,
  );
  switch (command) {
    case 'serve':
      return serve(config, io);
    case 'migrate':
      return withDatabase(config, io, async () => {
        io.stdout.write(`database ${databaseName(config)} is up to date\n`);
        return 0;
      });
    case 'token':
      return tokenCommand(config, io, sub, arg, values);
    case 'reindex':
      return reindexCommand(config, io, values.force ?? false);
    case 'purge':
      return purgeCommand(config, io);
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
      return auditExportCommand(config, io, values);
    case 'copy-store':
      return copyStoreCommand(config, io);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function serve(config: Config, io: CliIo): Promise<number> {
  // Asked first: a stop that comes while start-up is still running (after the "listening" line too) stops the
  // server cleanly once it is up, instead of killing it half-way with the signal's default action.
  const stopRequested = io.stopRequested();
  const logger = createLogger(io.env.MNEMO_LOG_LEVEL ?? 'info', io.stdout);
  // Read before anything starts: a bad manifest is a usage error, not a server that refuses everything.
  const trustedDocuments = config.trustedDocuments
    ? loadTrustedDocuments(config.trustedDocuments, { adminArbitrary: config.trustedDocumentsAllowAdmin })
    : null;
  ensureDataDir(config);
  // The lock guards the SQLite file; replicas on PostgreSQL share their data by design.
  const lock = config.databaseUrl ? null : holdDataFolder(config.dataDir);
  try {
    return await serveHolding(config, io, logger, stopRequested, trustedDocuments);
  } finally {
    lock?.release();
  }
}

async function serveHolding(
  config: Config,
  io: CliIo,
  logger: Logger,
  stopRequested: Promise<void>,
  trustedDocuments: TrustedDocuments | null,
): Promise<number> {
  const opened = await openData(config);
  const services = servicesFromEnvironment(config, io, opened.db, logger);
  const firstToken = await services.tokens.ensureAdminToken();
  if (firstToken) {
    io.stdout.write(`\nNo admin token was configured, so mnemo minted one. It is shown only this once:\n\n  ${firstToken}\n\n`);
    await recordAudit(services, { actor: SYSTEM_ACTOR, action: 'TOKEN_CREATE', target: { name: 'initial admin', role: 'admin' } });
  }
  const app = createApp(services, { metricsToken: config.metricsToken, trustedDocuments });
  const metricsServer = config.metricsPort === null ? null : createMetricsServer(services.metrics);
  let port = { number: config.port, setting: '--port or MNEMO_PORT' };
  try {
    const address = await app.listen(config.port, config.host);
    let metrics: string | undefined;
    if (metricsServer) {
      port = { number: config.metricsPort!, setting: 'MNEMO_METRICS_PORT' };
      metrics = `http://${config.host}:${(await listen(metricsServer, port.number, config.host)).port}/metrics`;
    }
    logger.info(
      { url: `http://${config.host}:${address.port}/`, metrics, data: databaseName(config), trustedDocuments: trustedDocuments?.size },
      'mnemo is listening',
    );
  } catch (error) {
    await app.close();
    await opened.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.stderr.write(`mnemo: port ${port.number} on ${config.host} is already in use; pick another with ${port.setting}\n`);
      return EXIT.unavailable;
    }
    if ((error as NodeJS.ErrnoException).code === 'EACCES') {
      io.stderr.write(`mnemo: not allowed to listen on ${config.host}:${port.number}\n`);
      return EXIT.unavailable;
    }
    throw error;
  }
  const stopAutoSummarize = startAutoSummarize(services);
  const stopAuditRetention = startAuditRetention(services);
  services.leases.keep();
  // One worker among the processes on the database, and none while a reindex job (here or elsewhere) does its work.
  const stopEmbeddingWorker = services.vectors.startWorker(
    async () => (await services.leases.hold('embedding-worker')) && !(await services.reindex.runningAnywhere()),
  );
  services.purge.start();
  await services.reindex.resumeInterrupted();
  const stopWatchingJobs = services.reindex.watchForAbandoned();
  app.markReady();
  // Keeps the planner's statistics current and the keyword index merged as the tables grow.
  // openDatabase already refreshed the statistics; the index merge is what start-up still owes.
  const maintain = (run: Promise<void>) => run.catch((err: unknown) => logger.error({ err }, 'database maintenance failed'));
  await maintain(mergeKeywordIndex(opened.db, MERGE_STEPS_PER_RUN));
  const optimizer = setInterval(() => void maintain(optimizeDatabase(opened.db)), 3_600_000).unref();
  await stopRequested;
  logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
  stopAutoSummarize();
  stopAuditRetention();
  stopEmbeddingWorker();
  stopWatchingJobs();
  clearInterval(optimizer);
  // Requests in flight finish (up to the deadline) while running reindex jobs and the purge stop between batches; they
  // resume at the next start.
  const [{ cut }] = await Promise.all([app.drain(config.shutdownTimeoutMs), services.reindex.stop(), services.purge.stop()]);
  if (cut > 0) logger.warn({ cut }, 'requests still running at the shutdown deadline were cut');
  metricsServer?.close();
  await services.access.flush();
  // Other processes on the same database take the background duties over at once instead of when the leases expire.
  await services.leases.release();
  if (!(await checkpointWal(opened.db))) logger.warn('the write-ahead log could not be checkpointed in full');
  await opened.close();
  logger.info('stopped');
  return 0;
}

async function tokenCommand(
  config: Config,
  io: CliIo,
  sub: string | undefined,
  arg: string | undefined,
  values: { name?: string; 'api-key'?: string; admin?: boolean; 'may-forget-key'?: boolean },
) {
  return withDatabase(config, io, async (services) => {
    switch (sub) {
      case 'create': {
        if (!values.name) throw new UsageError('token create needs --name');
        const { token, accessToken } = await services.tokens.mint({
          name: values.name,
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
        io.stderr.write(`minted "${accessToken.name}" (${scope}), id ${accessToken.id}. The token is shown only once:\n`);
        io.stdout.write(`${token}\n`);
        return 0;
      }
      case 'list':
        for (const t of await services.tokens.list(true)) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
          io.stdout.write(`${[t.id, t.role, t.apiKeyId ?? '*', state, t.name].join('\t')}\n`);
        }
        return 0;
      case 'revoke': {
        if (!arg) throw new UsageError('token revoke needs the token id');
        const t = await services.tokens.revoke(arg);
        await recordAudit(services, {
          actor: CLI_ACTOR,
          action: 'TOKEN_REVOKE',
          apiKeyId: t.apiKeyId,
          target: { tokenId: t.id, name: t.name },
        });
        io.stdout.write(`revoked ${t.id} (${t.name})\n`);
        return 0;
      }
      default:
        throw new UsageError('token needs one of: create, list, revoke');
    }
  });
}

async function reindexCommand(config: Config, io: CliIo, force: boolean): Promise<number> {
  const opened = await openData(config);
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

async function purgeCommand(config: Config, io: CliIo): Promise<number> {
  return withDatabase(config, io, async (services) => {
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
      `purged ${deleted} memories (${outcome.expired} expired, ${outcome.outOfRetention} out of retention) in ${outcome.batches} batches, ` +
        `the longest ${outcome.longestBatchMs.toFixed(0)} ms${outcome.walEmptied ? '' : walNote(config)}\n`,
    );
    return 0;
  });
}

async function withDatabase<T>(config: Config, io: CliIo, run: (services: ReturnType<typeof createServices>) => Promise<T>) {
  const opened = await openData(config);
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
  return withDatabase(config, io, async (services) => {
    let count = 0;
    for await (const entry of exportAudit(services, query)) {
      io.stdout.write(`${JSON.stringify(entry)}\n`);
      count++;
    }
    io.stderr.write(`exported ${count} audit entries\n`);
    return 0;
  });
}

const COPY_REFUSED: Record<CopyRefusal, number> = { 'no-source': EXIT.noInput, 'other-data': EXIT.dataErr, unreachable: EXIT.unavailable };

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
  if (!existsSync(config.databaseFile)) throw new BackupError(`there is no database at ${config.databaseFile}`);
  const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const result = await backupDatabase(config.databaseFile, file, ({ bytes, totalBytes }) => {
    const line = `backup ${mib(bytes)}/${mib(totalBytes)} MiB (${totalBytes > 0 ? ((100 * bytes) / totalBytes).toFixed(0) : 100}%)`;
    io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  });
  if (io.stderr.isTTY) io.stderr.write('\n');
  // Recorded in the database that was backed up (a server may be using it; SQLite lets both write).
  await withDatabase(config, io, (services) =>
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
  // Recorded in the restored database (brought to the current schema, as the next start would), so its log says
  // when it came back and from where.
  await withDatabase(config, io, (services) =>
    recordAudit(services, { actor: CLI_ACTOR, action: 'DATABASE_RESTORE', target: { from: file, migration, previous } }),
  );
  io.stdout.write(
    `restored ${config.databaseFile} from ${file} (integrity ok, migration ${migration})` +
      (previous ? `; the database it replaced is kept as ${previous}\n` : '\n'),
  );
  return 0;
}

/** The services as a server runs them: the vector configuration and the Qdrant overrides from the environment. */
function servicesFromEnvironment(config: Config, io: CliIo, db: Db, logger: Logger) {
  return createServices({
    db,
    logger,
    adminToken: config.adminToken,
    vectorConfig: loadVectorConfig(io.env, config.dataDir),
    env: io.env,
    backupDir: config.backupDir,
    recordMetrics: config.metricsPort !== null || config.metricsToken !== null,
    leaseMs: config.leaseSeconds * 1000,
  });
}

/**
 * Opens the database in the data folder (creating both) and migrates it to the latest schema. A file that SQLite finds
 * damaged or cannot write fails with a DatabaseFileError that names it and says what to do.
 */
async function openData(config: Config): Promise<OpenedStore> {
  ensureDataDir(config);
  if (config.databaseUrl) {
    const store = openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize });
    try {
      await migrateToLatest(store.db);
      return store;
    } catch (error) {
      await store.close().catch(() => {});
      throw postgresError(config.databaseUrl, error);
    }
  }
  let opened: OpenedDatabase | undefined;
  try {
    opened = openDatabase(config.databaseFile);
    await migrateToLatest(opened.db);
    return opened;
  } catch (error) {
    await opened?.close().catch(() => {});
    throw databaseFileError(config.databaseFile, error) ?? error;
  }
}

/** What the logs and messages call the database: its file, or its PostgreSQL URL without the password. */
function databaseName(config: Config): string {
  return config.databaseUrl ? redactUrl(config.databaseUrl) : config.databaseFile;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** The database file cannot be used as it is; `exitCode` tells scripts why (sysexits). */
class DatabaseFileError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

function databaseFileError(file: string, error: unknown): DatabaseFileError | null {
  // A failed migration carries SQLite's error as its cause.
  const cause = sqliteCode(error) ? error : (error as { cause?: unknown }).cause;
  const code = sqliteCode(cause);
  if (code === null) return null;
  const said = `SQLite: ${(cause as Error).message}`;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    return new DatabaseFileError(
      EXIT.dataErr,
      `the database ${file} is damaged (${said}); mnemo changed nothing. Restore the latest backup with "mnemo restore BACKUP_FILE" ` +
        `(the damaged file is kept next to it as mnemo.db.before-restore), or salvage what is readable with "sqlite3 ${file} .recover".`,
    );
  }
  if (/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(code)) {
    return new DatabaseFileError(
      EXIT.cantCreate,
      `the database ${file} cannot be opened for writing (${said}). mnemo writes its database: let the user that runs it ` +
        'write the file, the -wal and -shm files next to it and their folder, and check that the folder is not on a read-only mount.',
    );
  }
  if (/^SQLITE_(IOERR|FULL)/.test(code)) {
    return new DatabaseFileError(
      EXIT.ioErr,
      `the database ${file} could not be read or written (${said}). Check the disk it is on (space, errors in the system log).`,
    );
  }
  return null;
}

/**
 * PostgreSQL could not be reached, refused the login or failed a migration: what it said (a refused connection says
 * nothing, its code does), with the URL less its password, and an exit code for scripts.
 */
function postgresError(url: string, error: unknown): DatabaseFileError {
  // A failed migration carries the server's error as its cause.
  const cause = postgresCode(error) || !(error as { cause?: unknown }).cause ? error : (error as { cause: unknown }).cause;
  const fault = storageFault(cause);
  const said = (cause as Error).message || fault?.message || String(cause);
  const code = postgresCode(cause);
  const exitCode = fault?.code === 'STORAGE_FULL' ? EXIT.ioErr : fault ? EXIT.unavailable : EXIT.software;
  return new DatabaseFileError(exitCode, `PostgreSQL at ${redactUrl(url)}: ${said}${code ? ` (${code})` : ''}`);
}

/** Creates the data folder if needed; fails with DataDirError when it cannot be written. */
function ensureDataDir(config: Config) {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    accessSync(config.dataDir, constants.W_OK);
  } catch (error) {
    throw new DataDirError(`mnemo: the data folder ${config.dataDir} is not writable (${(error as Error).message})`);
  }
}

class DataDirError extends Error {}
