import { createApp, listen, listenRefusal } from './app.ts';
import { recordAudit, SYSTEM_ACTOR } from './audit/audit.service.ts';
import { holdDataFolder } from './backup/dataFolderLock.ts';
import type { CliIo } from './cli.ts';
import { runWorkers } from './cluster/primary.ts';
import { reportListening, workerLabel, workerMetrics } from './cluster/worker.ts';
import type { Config } from './config.ts';
import { checkpointWal, MERGE_STEPS_PER_RUN, mergeKeywordIndex, optimizeDatabase } from './db/maintenance.ts';
import type { Db } from './db/open.ts';
import { loggedFailure } from './db/storeErrors.ts';
import { EXIT } from './exitCodes.ts';
import { loadTrustedDocuments, type TrustedDocuments } from './graphql/trustedDocuments.ts';
import { startAuditRetention } from './jobs/auditRetention.ts';
import { startAutoSummarize } from './jobs/autoSummarize.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetricsServer } from './metrics/metricsEndpoint.ts';
import { databaseName, ensureDataDir, openData } from './openData.ts';
import { createServices } from './services.ts';
import { loadVectorConfig } from './vectorConfig.ts';

/**
 * `mnemo serve`: runs the server on the data folder until it is asked to stop, then drains and stops it. With
 * MNEMO_WORKERS above 1 this process is the primary (cluster/primary.ts) and the same command runs again in each
 * worker, which serves without the data folder's lock: the primary holds it for them all.
 */
export async function serve(config: Config, io: CliIo): Promise<number> {
  // Asked first: a stop that comes while start-up is still running (after the "listening" line too) stops the
  // server cleanly once it is up, instead of killing it half-way with the signal's default action.
  const stopRequested = io.stopRequested();
  const label = workerLabel();
  const logger = createLogger(io.env.MNEMO_LOG_LEVEL ?? 'info', io.stdout);
  // Read before anything starts: a bad manifest is a usage error, not a server that refuses everything.
  const trustedDocuments = config.trustedDocuments
    ? loadTrustedDocuments(config.trustedDocuments, { adminArbitrary: config.trustedDocumentsAllowAdmin })
    : null;
  if (label !== null) return serveHolding(config, io, logger.child({ worker: Number(label) }), stopRequested, trustedDocuments);
  ensureDataDir(config);
  // The lock guards the SQLite file; replicas on PostgreSQL share their data by design.
  const lock = config.databaseUrl ? null : holdDataFolder(config.dataDir);
  try {
    if (config.workers === 1) return await serveHolding(config, io, logger, stopRequested, trustedDocuments);
    // Once, before the workers start: the migrations, and the first admin token shown once.
    const opened = await openServing(config, io, logger);
    await opened.close();
    const code = await runWorkers(config, io, logger, stopRequested);
    await checkpointAtStop(config, logger);
    logger.info('stopped');
    return code;
  } finally {
    lock?.release();
  }
}

/** Opens the database (creating it at the first start) and the services, minting the first admin token if there is none. */
async function openServing(config: Config, io: CliIo, logger: Logger) {
  // The first start creates the data folder and its database: the README's first command.
  const opened = await openData(config, { create: true });
  const services = servicesFromEnvironment(config, io, opened.db, logger);
  const firstToken = await services.tokens.ensureAdminToken();
  if (firstToken) {
    io.stdout.write(`\nNo admin token was configured, so mnemo minted one. It is shown only this once:\n\n  ${firstToken}\n\n`);
    await recordAudit(services, { actor: SYSTEM_ACTOR, action: 'TOKEN_CREATE', target: { name: 'initial admin', role: 'admin' } });
  }
  return { services, close: () => opened.close(), db: opened.db };
}

async function serveHolding(
  config: Config,
  io: CliIo,
  logger: Logger,
  stopRequested: Promise<void>,
  trustedDocuments: TrustedDocuments | null,
): Promise<number> {
  const opened = await openServing(config, io, logger);
  const { services } = opened;
  // A worker serves its share of the port; the primary says when the server listens, and serves MNEMO_METRICS_PORT
  // with every worker's figures, which a scrape on the main port reaching this worker asks it for.
  const worker = workerLabel();
  const app = createApp(services, {
    metricsToken: config.metricsToken,
    metrics: worker === null ? services.metrics : workerMetrics(services.metrics),
    trustedDocuments,
    worker,
  });
  const metricsServer = config.metricsPort === null || worker !== null ? null : createMetricsServer(services.metrics);
  let port = { number: config.port, setting: '--port or MNEMO_PORT' };
  try {
    const address = await app.listen(config.port, config.host);
    let metrics: string | undefined;
    if (metricsServer) {
      port = { number: config.metricsPort!, setting: 'MNEMO_METRICS_PORT' };
      metrics = `http://${config.host}:${(await listen(metricsServer, port.number, config.host)).port}/metrics`;
    }
    if (worker !== null) reportListening(address.port);
    else
      logger.info(
        { url: `http://${config.host}:${address.port}/`, metrics, data: databaseName(config), trustedDocuments: trustedDocuments?.size },
        'mnemo is listening',
      );
  } catch (error) {
    await app.close();
    await opened.close();
    const refusal = listenRefusal(error, config.host, port);
    if (refusal === undefined) throw error;
    io.stderr.write(refusal);
    return EXIT.unavailable;
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
  // Keeps the planner's statistics current and the keyword index merged as the tables grow, in one process of those
  // on the database. openDatabase already refreshed the statistics; the index merge is what start-up still owes.
  const maintain = (run: () => Promise<void>) =>
    services.leases.whenHeld('database-maintenance', run).catch((err: unknown) => logger.error({ err }, 'database maintenance failed'));
  await maintain(() => mergeKeywordIndex(opened.db, MERGE_STEPS_PER_RUN));
  const optimizer = setInterval(() => void maintain(() => optimizeDatabase(opened.db)), 3_600_000).unref();
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
  // Then the extraction model's calls that those requests started end (each within its timeout) and store their facts.
  await services.modelExtraction.idle();
  if (cut > 0) logger.warn({ cut }, 'requests still running at the shutdown deadline were cut');
  metricsServer?.close();
  await services.access.flush();
  // Other processes on the same database take the background duties over at once instead of when the leases expire.
  await services.leases
    .release()
    .catch(unwritten(logger, 'the leases could not be released; other processes take the duties over once they expire'));
  // Workers leave it to the primary, which checkpoints once they have all stopped (no one reads the log then).
  if (worker === null) await checkpoint(opened.db, logger);
  await opened.close();
  logger.info('stopped');
  return 0;
}

/**
 * What is written at a stop is bookkeeping (counts, leases, a checkpoint), the data is committed already: on a full or
 * failing disk, the shutdown says what it could not write and goes on to stop cleanly.
 */
const unwritten = (logger: Logger, what: string) => (err: unknown) => {
  logger.warn(loggedFailure(err), what);
  return null;
};

/** Makes the database file alone hold everything at a stop. */
async function checkpoint(db: Db, logger: Logger) {
  const checkpointed = await checkpointWal(db).catch(
    unwritten(logger, 'the write-ahead log could not be checkpointed; the next start reads it'),
  );
  if (checkpointed === false) logger.warn('the write-ahead log could not be checkpointed in full');
}

/** The primary's checkpoint, once every worker has stopped. */
async function checkpointAtStop(config: Config, logger: Logger) {
  const opened = await openData(config, { create: false });
  try {
    await checkpoint(opened.db, logger);
  } finally {
    await opened.close();
  }
}

/** The services as a server runs them: the vector configuration and the Qdrant overrides from the environment. */
export function servicesFromEnvironment(config: Config, io: CliIo, db: Db, logger: Logger) {
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
