import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessTokenService } from './auth/accessToken.service.ts';
import { BackupService } from './backup/backup.service.ts';
import type { Db } from './db/open.ts';
import { storeDialect } from './db/storeDialect.ts';
import { ProviderService } from './embedding/provider.service.ts';
import { ModelExtraction } from './gateway/modelExtraction.ts';
import { Leases } from './jobs/lease.ts';
import { PurgeRunner } from './jobs/purge.ts';
import { ReindexRunner } from './jobs/reindex.service.ts';
import type { Logger } from './logger.ts';
import { AccessRecorder } from './memory/accessRecorder.ts';
import { Metrics } from './metrics/metrics.ts';
import { FileImports } from './portability/fileImports.ts';
import { newInstanceId } from './processInstance.ts';
import { RerankService } from './retrieval/rerank.service.ts';
import { registerServerMetrics } from './serverMetrics.ts';
import { ConfigVersion } from './settings/configVersion.ts';
import { SettingsService } from './settings/settings.service.ts';
import { QdrantService } from './vector/qdrant.service.ts';
import { QdrantPrimaryIndex } from './vector/qdrantPrimaryIndex.ts';
import { QdrantSettingsStore } from './vector/qdrantSettings.ts';
import { SqliteVecIndex } from './vector/sqliteVecIndex.ts';
import { VectorService } from './vector/vector.service.ts';
import { loadVectorConfig, type VectorConfig } from './vectorConfig.ts';

/**
 * Everything a request may need, built once per process and shared by every request. The domain functions
 * take it as their dependencies (each declares the part it uses, e.g. MemoryDeps).
 */
export interface Services {
  db: Db;
  logger: Logger;
  /** The one clock (ms since the epoch) that every service and domain function reads; tests move their own instead of waiting. */
  now: () => number;
  settings: SettingsService;
  tokens: AccessTokenService;
  providers: ProviderService;
  vectors: VectorService;
  /** Retrieval's reranker, as the settings choose it. */
  rerank: RerankService;
  reindex: ReindexRunner;
  /** The background purge of expired and out-of-retention memories; `mnemo serve` starts it. */
  purge: PurgeRunner;
  /** Which background duties run in this process, among the processes that share the database. */
  leases: Leases;
  qdrantSettings: QdrantSettingsStore;
  qdrant: QdrantService;
  /** Access counts of gateway retrievals, written behind; flushed before anything shows them. */
  access: AccessRecorder;
  /** The process's Prometheus metrics (served at /metrics when enabled). */
  metrics: Metrics;
  /** Backups asked for over GraphQL, into the configured folder. */
  backups: BackupService;
  /** Calls to the extraction model (the extractionModel setting), bounded per process. */
  modelExtraction: ModelExtraction;
  /** Files sent to this process to import (Memory Studio's Data tab). */
  fileImports: FileImports;
}

/**
 * A vector configuration that never reaches the network, builds no model from a word-vector package (a
 * conversion of ~300 MB) and runs no background worker: the default for tools and tests. `mnemo serve` passes the one read from the environment.
 */
export function offlineVectorConfig(dataDir = path.join(tmpdir(), 'mnemo-models')): VectorConfig {
  return loadVectorConfig(
    {
      MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
      MEMORY_STATIC_PACKAGE: '',
      MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false',
      MEMORY_WORKER_INTERVAL_MS: '0',
    },
    dataDir,
  );
}

export function createServices(opts: {
  db: Db;
  logger: Logger;
  adminToken?: string | null;
  vectorConfig?: VectorConfig;
  /** For MNEMO_QDRANT_* overrides; tools and tests pass none. */
  env?: NodeJS.ProcessEnv;
  /** Where backupDatabase writes; without one it is refused. */
  backupDir?: string | null;
  /** The services' clock (Date.now by default); tests pass one and move it instead of waiting. */
  clock?: () => number;
  /** Whether request metrics are counted (default true); `mnemo serve` counts them only when /metrics is served. */
  recordMetrics?: boolean;
  /** How long a duty's lease outlives its holder's last renewal (jobs/lease.ts: LEASE_MS by default). */
  leaseMs?: number;
}): Services {
  const { db, logger } = opts;
  const now = opts.clock ?? Date.now;
  // One version check for every cache of the stored configuration in this process.
  const configVersion = new ConfigVersion({ db, now });
  const leases = new Leases({ db, now, logger }, newInstanceId(), opts.leaseMs);
  const settings = new SettingsService({ db, now, configVersion }, (name, reason) =>
    logger.warn({ setting: name, reason }, 'stored setting is invalid; using the default'),
  );
  const config = opts.vectorConfig ?? offlineVectorConfig();
  const providers = new ProviderService({ db, now, configVersion }, config.envProvider);
  const metrics = new Metrics({ recording: opts.recordMetrics ?? true });
  const qdrantSettings = new QdrantSettingsStore({ db, now, configVersion }, opts.env ?? {});
  const qdrant = new QdrantService({ db, now, settings, qdrant: qdrantSettings, logger });
  // Where vectors live. SQLite: sqlite-vec in the database file holds every vector; when Qdrant is selected it gets a
  // copy, fed by the outbox (a stored vector is queued with it, the triggers queue deletes and changes of filter fields)
  // and retrieval falls back to sqlite-vec while Qdrant is down or behind. PostgreSQL keeps no vectors (pgvector is not
  // assumed): Qdrant's collection is the index. The embedding worker and reindex write each vector to Qdrant directly,
  // with the memories locked and their outbox entries cleared in that transaction; the triggers' outbox carries the
  // rest (deletes, new content whose old vector must go, filter fields), queued in the transaction of the change and
  // drained by the same worker. A point of text that changed since is never returned (its content hash no longer
  // matches). Without Qdrant selected there is no vector index: semantic and hybrid retrieval answer from keyword
  // search, and the engine status, retrieval's fallback reason and a refused reindex say "PostgreSQL store: vectors need
  // Qdrant".
  const index = storeDialect(db).keepsVectors ? new SqliteVecIndex({ db, now }) : new QdrantPrimaryIndex({ db, qdrant });
  const vectors = new VectorService({ db, now, settings, providers, config, logger, index, qdrant, metrics });
  const access = new AccessRecorder(db, { logger });
  const purge = new PurgeRunner({ db, now, settings, logger, leases });
  const services: Services = {
    db,
    logger,
    now,
    settings,
    tokens: new AccessTokenService({ db, now, logger }, opts.adminToken ?? null),
    providers,
    vectors,
    rerank: new RerankService({ settings, providers, now, timeoutMs: config.rerankTimeoutMs }),
    reindex: new ReindexRunner({ db, now, vectors, logger, batchSize: config.batchSize }),
    purge,
    leases,
    qdrantSettings,
    qdrant,
    access,
    metrics,
    backups: new BackupService({ db, folder: opts.backupDir ?? null, now: () => new Date(now()) }),
    modelExtraction: new ModelExtraction(),
    fileImports: new FileImports({ db, logger, now, settings, access, purge }),
  };
  // Once per set of services, whatever number of HTTP apps serve them (a bench starts one per database size).
  registerServerMetrics(services);
  return services;
}
