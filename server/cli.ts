import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { inspect, parseArgs } from 'node:util';
import { createApp, listen } from './app.ts';
import { BackupError, backupDatabase } from './backup/backup.ts';
import { DataFolderBusyError, holdDataFolder } from './backup/dataFolderLock.ts';
import { restoreDatabase } from './backup/restore.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { checkpointWal, MERGE_STEPS_PER_RUN, mergeKeywordIndex, optimizeDatabase } from './db/maintenance.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type Db, openDatabase } from './db/open.ts';
import { startAutoSummarize } from './jobs/autoSummarize.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetricsServer } from './metrics/metricsEndpoint.ts';
import { createServices } from './services.ts';
import { loadVectorConfig, VectorConfigError } from './vectorConfig.ts';

/** sysexits(3) codes, so scripts can tell a usage error from a busy port or an unwritable folder. */
const EXIT = { usage: 64, dataErr: 65, unavailable: 69, cantCreate: 73, software: 70 } as const;

const HELP = `mnemo: long-term memory server for LLM gateways

Usage:
  mnemo serve [--port N] [--host H] [--data-dir DIR]   serve GraphQL at /graphql and the admin app at /admin/
  mnemo migrate [--data-dir DIR]                       apply pending database migrations and exit
  mnemo token create --name NAME [--api-key ID] [--admin]
                                                       mint an access token (printed once)
  mnemo token list [--data-dir DIR]                    list access tokens (never their secrets)
  mnemo token revoke ID [--data-dir DIR]               revoke an access token
  mnemo reindex [--force] [--data-dir DIR]             embed memories whose vector is missing or stale (all with
                                                       --force), with a progress line; joins a running job
  mnemo backup FILE [--data-dir DIR]                  an online, verified copy of the whole database into FILE
                                                       (a new file), with a progress line; the server may keep running
  mnemo restore FILE [--data-dir DIR]                 replace the database by a backup, with the server stopped; the
                                                       replaced one is kept as mnemo.db.before-restore
  mnemo --help

Environment (flags win):
  MNEMO_DATA_DIR     data folder holding mnemo.db (default ./data)
  MNEMO_HOST         address to listen on (default 127.0.0.1)
  MNEMO_PORT         port to listen on (default 4000)
  MNEMO_ADMIN_TOKEN  admin bearer token; when unset, the first start mints one and prints it once
  MNEMO_LOG_LEVEL    trace, debug, info (default), warn, error
  MNEMO_METRICS_PORT   serve /metrics (Prometheus) on this port of the same host, and nothing else there
  MNEMO_METRICS_TOKEN  serve /metrics on the main port to requests bearing this token (16+ characters)
  MNEMO_SHUTDOWN_TIMEOUT_MS  how long a shutdown waits for requests in flight (default 10000)
  MNEMO_BACKUP_DIR   where the backupDatabase mutation writes (default: backups/ in the data folder)

Run it with: npx tsx server/main.ts <command>
`;

/**
 * What a command reads and writes besides the data folder: the process's environment, streams and signals in
 * server/main.ts, in-memory stand-ins in the tests (so they run in the test's process).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
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
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`mnemo: ${(error as Error).message}\nRun "mnemo --help" for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof DataFolderBusyError) {
      io.stderr.write(`mnemo: ${error.message}; stop it first\n`);
      return EXIT.unavailable;
    }
    if (error instanceof BackupError) {
      io.stderr.write(`mnemo: ${error.message}\n`);
      return EXIT.dataErr;
    }
    if (error instanceof DataDirError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.cantCreate;
    }
    const code = (error as { code?: string }).code;
    if (code === 'UNAVAILABLE') {
      io.stderr.write(`mnemo: ${(error as Error).message}\n`);
      return EXIT.unavailable;
    }
    if (code === 'NOT_FOUND' || code === 'BAD_USER_INPUT') {
      io.stderr.write(`mnemo: ${(error as Error).message}\n`);
      return 1;
    }
    io.stderr.write(`mnemo: failed: ${inspect(error)}\n`);
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
      name: { type: 'string' },
      'api-key': { type: 'string' },
      admin: { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    io.stdout.write(HELP);
    return values.help ? 0 : EXIT.usage;
  }
  const config = loadConfig({ dataDir: values['data-dir'], host: values.host, port: values.port }, io.env);
  switch (command) {
    case 'serve':
      return serve(config, io);
    case 'migrate':
      return withDatabase(config, io, async () => {
        io.stdout.write(`database ${config.databaseFile} is up to date\n`);
        return 0;
      });
    case 'token':
      return tokenCommand(config, io, sub, arg, values);
    case 'reindex':
      return reindexCommand(config, io, values.force ?? false);
    case 'backup':
      if (!sub) throw new UsageError('backup needs the file to write');
      return backupCommand(config, io, path.resolve(sub));
    case 'restore':
      if (!sub) throw new UsageError('restore needs the backup file');
      return restoreCommand(config, io, path.resolve(sub));
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function serve(config: Config, io: CliIo): Promise<number> {
  // Asked first: a stop that comes while start-up is still running (after the "listening" line too) stops the
  // server cleanly once it is up, instead of killing it half-way with the signal's default action.
  const stopRequested = io.stopRequested();
  const logger = createLogger(io.env.MNEMO_LOG_LEVEL ?? 'info', io.stdout);
  ensureDataDir(config);
  const lock = holdDataFolder(config.dataDir);
  try {
    return await serveHolding(config, io, logger, stopRequested);
  } finally {
    lock.release();
  }
}

async function serveHolding(config: Config, io: CliIo, logger: Logger, stopRequested: Promise<void>): Promise<number> {
  const opened = await openData(config);
  const services = servicesFromEnvironment(config, io, opened.db, logger);
  const firstToken = await services.tokens.ensureAdminToken();
  if (firstToken) {
    io.stdout.write(`\nNo admin token was configured, so mnemo minted one. It is shown only this once:\n\n  ${firstToken}\n\n`);
  }
  const app = createApp(services, { metricsToken: config.metricsToken });
  const metricsServer = config.metricsPort === null ? null : createMetricsServer(services.metrics);
  let port = { number: config.port, setting: '--port or MNEMO_PORT' };
  try {
    const address = await app.listen(config.port, config.host);
    let metrics: string | undefined;
    if (metricsServer) {
      port = { number: config.metricsPort!, setting: 'MNEMO_METRICS_PORT' };
      metrics = `http://${config.host}:${(await listen(metricsServer, port.number, config.host)).port}/metrics`;
    }
    logger.info({ url: `http://${config.host}:${address.port}/`, metrics, data: config.databaseFile }, 'mnemo is listening');
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
  const stopEmbeddingWorker = services.vectors.startWorker();
  await services.reindex.resumeInterrupted();
  app.markReady();
  // Keeps the planner's statistics current and the keyword index merged as the tables grow.
  // openDatabase already refreshed the statistics; the index merge is what start-up still owes.
  const maintain = (run: Promise<void>) => run.catch((err: unknown) => logger.error({ err }, 'database maintenance failed'));
  await maintain(mergeKeywordIndex(opened.db, MERGE_STEPS_PER_RUN));
  const optimizer = setInterval(() => void maintain(optimizeDatabase(opened.db)), 3_600_000).unref();
  await stopRequested;
  logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
  stopAutoSummarize();
  stopEmbeddingWorker();
  clearInterval(optimizer);
  // Requests in flight finish (up to the deadline) while running reindex jobs stop between batches; they
  // resume at the next start.
  const [{ cut }] = await Promise.all([app.drain(config.shutdownTimeoutMs), services.reindex.stop()]);
  if (cut > 0) logger.warn({ cut }, 'requests still running at the shutdown deadline were cut');
  metricsServer?.close();
  await services.access.flush();
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
  values: { name?: string; 'api-key'?: string; admin?: boolean },
) {
  return withDatabase(config, io, async (services) => {
    switch (sub) {
      case 'create': {
        if (!values.name) throw new UsageError('token create needs --name');
        const { token, accessToken } = await services.tokens.mint({
          name: values.name,
          role: values.admin ? 'admin' : 'gateway',
          apiKeyId: values['api-key'] ?? null,
        });
        const scope =
          accessToken.role === 'admin'
            ? 'admin'
            : accessToken.apiKeyId
              ? `gateway, bound to ${accessToken.apiKeyId}`
              : 'gateway, any API key';
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

async function withDatabase(config: Config, io: CliIo, run: (services: ReturnType<typeof createServices>) => Promise<number>) {
  const opened = await openData(config);
  try {
    return await run(createServices({ db: opened.db, logger: createLogger('warn', io.stdout), adminToken: config.adminToken }));
  } finally {
    await opened.close();
  }
}

async function backupCommand(config: Config, io: CliIo, file: string): Promise<number> {
  if (!existsSync(config.databaseFile)) throw new BackupError(`there is no database at ${config.databaseFile}`);
  const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const result = await backupDatabase(config.databaseFile, file, ({ bytes, totalBytes }) => {
    const line = `backup ${mib(bytes)}/${mib(totalBytes)} MiB (${totalBytes > 0 ? ((100 * bytes) / totalBytes).toFixed(0) : 100}%)`;
    io.stderr.write(io.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  });
  if (io.stderr.isTTY) io.stderr.write('\n');
  io.stdout.write(
    `backed up ${config.databaseFile} to ${result.file} (${mib(result.bytes)} MiB, integrity ok, migration ${result.migration})\n`,
  );
  return 0;
}

function restoreCommand(config: Config, io: CliIo, file: string): number {
  ensureDataDir(config);
  const { migration, previous } = restoreDatabase({ dataDir: config.dataDir, databaseFile: config.databaseFile, from: file });
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
  });
}

/** Opens the database in the data folder (creating both) and migrates it to the latest schema. */
async function openData(config: Config) {
  ensureDataDir(config);
  const opened = openDatabase(config.databaseFile);
  await migrateToLatest(opened.db);
  return opened;
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
