import { createApp, listen } from './app.ts';
import { recordAudit, SYSTEM_ACTOR } from './audit/audit.service.ts';
import { holdDataFolder } from './backup/dataFolderLock.ts';
import type { CliIo } from './cli.ts';
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

/** `mnemo serve`: runs the server on the data folder until it is asked to stop, then drains and stops it. */
export async function serve(config: Config, io: CliIo): Promise<number> {
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
  // The first start creates the data folder and its database: the README's first command.
  const opened = await openData(config, { create: true });
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
  // Then the extraction model's calls that those requests started end (each within its timeout) and store their facts.
  await services.modelExtraction.idle();
  if (cut > 0) logger.warn({ cut }, 'requests still running at the shutdown deadline were cut');
  metricsServer?.close();
  // What is written from here on is bookkeeping (counts, leases, a checkpoint), the data is committed already: on a
  // full or failing disk, the shutdown says what it could not write and goes on to stop cleanly.
  const unwritten = (what: string) => (err: unknown) => {
    logger.warn(loggedFailure(err), what);
    return null;
  };
  await services.access.flush();
  // Other processes on the same database take the background duties over at once instead of when the leases expire.
  await services.leases
    .release()
    .catch(unwritten('the leases could not be released; other processes take the duties over once they expire'));
  const checkpointed = await checkpointWal(opened.db).catch(
    unwritten('the write-ahead log could not be checkpointed; the next start reads it'),
  );
  if (checkpointed === false) logger.warn('the write-ahead log could not be checkpointed in full');
  await opened.close();
  logger.info('stopped');
  return 0;
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
