import { REINDEX_JOB_STATES } from './db/schema.ts';
import { storeDialect } from './db/storeDialect.ts';
import { reindexFigures } from './jobs/reindex.repository.ts';
import { memoriesByState } from './memory/memory.repository.ts';
import type { Services } from './services.ts';
import { retentionCutoff } from './settings/settings.service.ts';
import { outboxBacklog } from './vector/qdrant.repository.ts';

/** Counting memories by state reads the whole table: a scrape does it at most this often. */
export const MEMORY_STATES_MAX_AGE_MS = 60_000;

const BREAKER_STATES = ['closed', 'open', 'half_open'] as const;

/**
 * The figures that live in the database and in the services, read when /metrics is scraped: memories by state,
 * database and WAL size, reindex jobs, the Qdrant breaker and outbox, the embedding cache. With several workers, the
 * figures of the database are the same in each and counted once (aggregator 'first'); each worker's own (its breaker,
 * its embedding cache) are summed.
 */
export function registerServerMetrics(services: Services) {
  const { metrics, db, now } = services;
  let states: { at: number; value: Awaited<ReturnType<typeof memoriesByState>> } | null = null;
  metrics.addGauge({
    name: 'mnemo_memories',
    aggregator: 'first',
    help: `Memories of the whole server by state; counted at most once every ${MEMORY_STATES_MAX_AGE_MS / 1000} s.`,
    labelNames: ['state'] as const,
    collect: async (gauge) => {
      const at = now();
      if (!states || at - states.at >= MEMORY_STATES_MAX_AGE_MS) {
        states = { at, value: await memoriesByState(db, at, retentionCutoff(at, await services.settings.get())) };
      }
      for (const [state, n] of Object.entries(states.value)) gauge.set({ state }, n);
    },
  });
  metrics.addGauge({
    name: 'mnemo_database_bytes',
    aggregator: 'first',
    help: "Size on disk of the database: on SQLite its file (db) and write-ahead log (wal); on PostgreSQL the database (db), whose write-ahead log is the whole cluster's.",
    labelNames: ['file'] as const,
    collect: async (gauge) => {
      for (const [file, bytes] of Object.entries(await storeDialect(db).storeSize(db))) gauge.set({ file }, bytes);
    },
  });
  const reindex = oncePerScrape(() => reindexFigures(db));
  metrics.addGauge({
    name: 'mnemo_reindex_jobs',
    aggregator: 'first',
    help: 'Reindex jobs by state.',
    labelNames: ['state'] as const,
    collect: async (gauge) => {
      const { byState } = await reindex();
      for (const state of REINDEX_JOB_STATES) gauge.set({ state }, byState.find((r) => r.status === state)?.n ?? 0);
    },
  });
  metrics.addCounter({
    name: 'mnemo_reindex_processed_total',
    aggregator: 'first',
    help: 'Memories embedded by reindex jobs, all jobs together.',
    collect: async (counter) => counter.inc((await reindex()).processed),
  });
  metrics.addCounter({
    name: 'mnemo_reindex_failed_total',
    aggregator: 'first',
    help: 'Memories reindex jobs could not embed, all jobs together.',
    collect: async (counter) => counter.inc((await reindex()).failed),
  });
  metrics.addGauge({
    name: 'mnemo_reindex_progress_ratio',
    aggregator: 'first',
    help: 'Share of the running reindex job done (processed and failed against its total); 0 when none runs.',
    collect: async (gauge) => {
      const { running } = await reindex();
      gauge.set(running && running.total > 0 ? (running.processed + running.failed) / running.total : 0);
    },
  });
  metrics.addGauge({
    name: 'mnemo_qdrant_breaker_state',
    help: "The Qdrant client's circuit breaker: 1 for its current state (with several workers, how many are in it); no series while Qdrant is not in use.",
    labelNames: ['state'] as const,
    collect: (gauge) => {
      gauge.reset();
      const current = services.qdrant.breakerState();
      if (current) for (const state of BREAKER_STATES) gauge.set({ state }, state === current ? 1 : 0);
    },
  });
  const outbox = oncePerScrape(() => outboxBacklog(db));
  metrics.addGauge({
    name: 'mnemo_qdrant_outbox_backlog',
    aggregator: 'first',
    help: 'Changes queued for Qdrant and not yet sent.',
    collect: async (gauge) => gauge.set((await outbox()).size),
  });
  metrics.addGauge({
    name: 'mnemo_qdrant_sync_lag_seconds',
    aggregator: 'first',
    help: 'Age of the oldest change queued for Qdrant; 0 when nothing is queued.',
    collect: async (gauge) => {
      const { oldest } = await outbox();
      gauge.set(oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000));
    },
  });
  metrics.addCounter({
    name: 'mnemo_embedding_cache_hits_total',
    help: 'Embeddings served from the cache (since the current model was chosen).',
    collect: (counter) => counter.inc(services.vectors.cacheStats()?.hits ?? 0),
  });
  metrics.addCounter({
    name: 'mnemo_embedding_cache_misses_total',
    help: 'Embeddings the cache did not hold (since the current model was chosen).',
    collect: (counter) => counter.inc(services.vectors.cacheStats()?.misses ?? 0),
  });
}

/**
 * One query serves every metric that reads its figures, whichever is collected first: the metrics of a scrape
 * are collected together, and the answer is forgotten once they are.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= read().finally(() => setImmediate(() => (pending = null)));
    return pending;
  };
}
