import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessTokenService } from './auth/accessTokens.ts';
import type { Db } from './db/open.ts';
import { type EngineConfig, loadEngineConfig } from './embedding/engineConfig.ts';
import { ProviderStore } from './embedding/providers.ts';
import { ReindexRunner } from './jobs/reindex.ts';
import type { Logger } from './logger.ts';
import { AccessRecorder } from './memory/accessRecorder.ts';
import type { MemoryDeps } from './memory/memory.service.ts';
import { SettingsStore } from './settings/settings.ts';
import { QdrantSettingsStore } from './vector/qdrantSettings.ts';
import { QdrantTier } from './vector/qdrantTier.ts';
import { SqliteVecIndex } from './vector/sqliteVecIndex.ts';
import { VectorEngine } from './vector/vectorEngine.ts';

/** Everything a request may need, built once per process and shared by every request. */
export interface Services {
  db: Db;
  logger: Logger;
  settings: SettingsStore;
  tokens: AccessTokenService;
  providers: ProviderStore;
  vectors: VectorEngine;
  reindex: ReindexRunner;
  qdrantSettings: QdrantSettingsStore;
  qdrant: QdrantTier;
  memory: MemoryDeps;
}

/**
 * An engine configuration that never reaches the network, builds no model from a word-vector package (a
 * conversion of ~300 MB) and runs no background worker: the default for tools and tests. `mnemo serve` passes the one read from the environment.
 */
export function offlineEngineConfig(dataDir = path.join(tmpdir(), 'mnemo-models')): EngineConfig {
  return loadEngineConfig(
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
  engine?: EngineConfig;
  /** For MNEMO_QDRANT_* overrides; tools and tests pass none. */
  env?: NodeJS.ProcessEnv;
  /** Time source of the Qdrant circuit breaker; tests pass one to get past its cooldown without waiting. */
  clock?: () => number;
}): Services {
  const settings = new SettingsStore(opts.db, (name, reason) =>
    opts.logger.warn({ setting: name, reason }, 'stored setting is invalid; using the default'),
  );
  const config = opts.engine ?? offlineEngineConfig();
  const providers = new ProviderStore(opts.db, config.envProvider);
  const qdrantSettings = new QdrantSettingsStore(opts.db, opts.env ?? {});
  const qdrant = new QdrantTier({ db: opts.db, settings, qdrant: qdrantSettings, logger: opts.logger, clock: opts.clock });
  const vectors = new VectorEngine({
    db: opts.db,
    settings,
    providers,
    config,
    logger: opts.logger,
    index: new SqliteVecIndex(opts.db),
    qdrant,
  });
  return {
    db: opts.db,
    logger: opts.logger,
    settings,
    tokens: new AccessTokenService(opts.db, opts.adminToken ?? null),
    providers,
    vectors,
    reindex: new ReindexRunner({ db: opts.db, vectors, logger: opts.logger, batchSize: config.batchSize }),
    qdrantSettings,
    qdrant,
    memory: { db: opts.db, settings, logger: opts.logger, vectors, access: new AccessRecorder(opts.db, { logger: opts.logger }) },
  };
}
