import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { retentionCutoff, type SettingsService } from '../settings/settings.service.ts';
import { type BatchCounter, BatchRefused, type BatchResult, counted } from './batchCount.ts';
import type { BreakerState } from './circuitBreaker.ts';
import * as repo from './qdrant.repository.ts';
import * as mirrorFeed from './qdrantFeed.mirror.ts';
import * as primaryFeed from './qdrantFeed.primary.ts';
import { QdrantIncompatibleError, QdrantIndex, QdrantUnavailableError } from './qdrantIndex.ts';
import type { QdrantSettingsPatch, QdrantSettingsStore, QdrantSettingsView } from './qdrantSettings.ts';
import type { RecentCalls } from './recentCalls.ts';
import { signatureKey, type VectorSignature } from './vectorIndex.ts';

/** The Qdrant settings as the API shows them, with whether Qdrant is the selected vector store. */
export interface QdrantSettings extends QdrantSettingsView {
  enabled: boolean;
}

/** The connection settings to change, and whether Qdrant is the vector store. */
export type QdrantSettingsUpdate = QdrantSettingsPatch & { enabled?: boolean | null };

export interface QdrantHealth {
  ready: boolean;
  latencyMs: number;
  error: string | null;
}

export interface QdrantStatus {
  configured: boolean;
  enabled: boolean;
  url: string | null;
  collection: string | null;
  breaker: string;
  ready: boolean | null;
  latencyMs: number | null;
  error: string | null;
  compatible: boolean | null;
  incompatibleReason: string | null;
  points: number | null;
  pendingSync: number;
  /** How the calls to Qdrant went lately; null when it is not configured. */
  calls: RecentCalls | null;
}

/**
 * Qdrant as the vector store when `vectorStore` is QDRANT: the index for the current connection settings,
 * whether its collection fits the current model, and the outbox that carries every change to it. On a store that
 * keeps its own vectors (SQLite's sqlite-vec), Qdrant mirrors them and retrieval can fall back to them while Qdrant is
 * down; on one that does not (PostgreSQL), Qdrant is the only vector store (the feed modules, qdrantFeed.mirror.ts and
 * qdrantFeed.primary.ts, say what the outbox carries on each).
 */
export class QdrantService {
  private readonly feed: typeof mirrorFeed | typeof primaryFeed;
  private current: { key: string; index: QdrantIndex } | null = null;
  private prepared: string | null = null;
  private incompatible: string | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      /** The services' clock: the circuit breaker's time and the cleanup's cutoffs. */
      now: () => number;
      settings: SettingsService;
      qdrant: QdrantSettingsStore;
      logger: Logger;
    },
  ) {
    this.feed = storeDialect(deps.db).keepsVectors ? mirrorFeed : primaryFeed;
  }

  async settings(): Promise<QdrantSettings> {
    return { ...(await this.deps.qdrant.view()), enabled: (await this.deps.settings.get()).vectorStore === 'QDRANT' };
  }

  /**
   * Saves the connection settings. `enabled: true` selects Qdrant as the vector store (refused, with nothing
   * saved, while no URL is set); `false` returns the choice to AUTO.
   */
  async updateSettings(patch: QdrantSettingsUpdate): Promise<QdrantSettings> {
    const { enabled, ...connection } = patch;
    await this.deps.qdrant.update(connection, { requireUrl: enabled === true });
    if (enabled != null) await this.deps.settings.update({ vectorStore: enabled ? 'QDRANT' : 'AUTO' });
    return this.settings();
  }

  /** Qdrant's own readiness probe, timed. */
  async health(): Promise<QdrantHealth> {
    const index = await this.index();
    return index ? index.health() : { ready: false, latencyMs: 0, error: 'Qdrant is not configured' };
  }

  /** The index when Qdrant is selected and configured, else null. */
  async active(): Promise<QdrantIndex | null> {
    const settings = await this.deps.settings.get();
    if (settings.vectorStore !== 'QDRANT') return null;
    return this.index();
  }

  /** The index for the configured connection (even when not selected), or null without a URL. */
  async index(): Promise<QdrantIndex | null> {
    const connection = await this.deps.qdrant.connection();
    if (!connection) return null;
    const key = JSON.stringify(connection);
    if (this.current?.key !== key) {
      this.current = { key, index: new QdrantIndex(connection, this.deps.now) };
      this.prepared = null;
      this.incompatible = null;
    }
    return this.current.index;
  }

  /**
   * Makes sure the collection fits this signature, creating it if needed (`created`). A new collection is filled (on
   * SQLite from the local vectors; on PostgreSQL every memory is flagged to be embedded into it); an incompatible one
   * is reported and left alone (unless `recreate`).
   */
  async ensureCollection(
    index: QdrantIndex,
    signature: VectorSignature,
    opts: { recreate?: boolean } = {},
  ): Promise<{ fits: boolean; created: boolean }> {
    const key = signatureKey(signature);
    if (this.prepared === key && !opts.recreate) return { fits: true, created: false };
    try {
      const { reset } = await index.prepare(signature).catch(async (error: unknown) => {
        // Recreated whenever prepare() finds it incompatible, even when this process has not seen that before:
        // on a fresh start, reindex(force: true) is the fix the status advertises.
        if (!(opts.recreate && error instanceof QdrantIncompatibleError)) throw error;
        await index.recreate(signature);
        return { reset: true };
      });
      // Only a new (empty) collection is backfilled here; an existing one is brought up to date by the outbox,
      // and completed by a reindex. Queuing every vector each time this object first prepares the collection
      // would re-upload everything on every start and every change of a connection setting (even the timeout),
      // with retrieval answered by sqlite-vec until it ended.
      if (reset) await this.feed.fillCollection(this.deps.db, this.deps.now());
      this.prepared = key;
      this.incompatible = null;
      return { fits: true, created: reset };
    } catch (error) {
      if (error instanceof QdrantIncompatibleError) {
        this.incompatible = error.message;
        this.deps.logger.error({ reason: error.message }, 'Qdrant collection does not fit the embedding model; not used');
        return { fits: false, created: false };
      }
      throw error;
    }
  }

  incompatibleReason(): string | null {
    return this.incompatible;
  }

  /** Queues every local vector (SQLite, where Qdrant copies them): a reindex's backfill. */
  async enqueueAll() {
    await repo.enqueueAllWithVectors(this.deps.db, this.deps.now());
  }

  /**
   * Carries queued changes to Qdrant. Entries stay queued when Qdrant fails, and are retried later.
   * `signature` is the current model's: nothing is written before the collection is known to fit it.
   */
  async drain(limit: number, signature: VectorSignature | null, count?: BatchCounter<BatchResult>): Promise<BatchResult> {
    const index = await this.active();
    if (!index) return { processed: 0, failed: 0, error: null };
    let batch = await repo.outboxBatch(this.deps.db, limit);
    if (batch.length === 0) return { processed: 0, failed: 0, error: null };
    const failed = (error: string | null) => counted(count, this.deps.db, { processed: 0, failed: batch.length, error });
    // The collection is checked (and created when missing) before anything is written: otherwise the worker's
    // batches fail against a collection not created yet, and after a restart go into one of another model.
    if (!signature) return failed('the embedding model is not loaded yet');
    try {
      if (!(await this.ensureCollection(index, signature)).fits) return failed(this.incompatible);
      // A collection prepared just now has queued every local vector again: read the batch anew.
      batch = await repo.outboxBatch(this.deps.db, limit);
      const done: BatchResult = { processed: batch.length, failed: 0, error: null };
      await this.feed.carryOutbox(this.deps.db, index, batch, (trx) => counted(count, trx, done));
      return done;
    } catch (error) {
      if (error instanceof BatchRefused) throw error;
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ err: error }, 'syncing to Qdrant failed; will retry');
      return failed(message);
    }
  }

  /**
   * Carries the queued changes of one key's memories now, at most `limit` (PostgreSQL, where Qdrant is the only vector
   * store: a search must not filter by the fields a change replaced, as sqlite-vec never does).
   */
  async carryPendingOf(index: QdrantIndex, apiKeyId: string, limit: number): Promise<void> {
    const batch = await repo.outboxBatchOf(this.deps.db, apiKeyId, limit);
    if (batch.length > 0) await this.feed.carryOutbox(this.deps.db, index, batch);
  }

  /** Whether Qdrant lags behind the local store for this key (changes of its memories are still queued). */
  async behindFor(apiKeyId: string): Promise<boolean> {
    return repo.hasPendingFor(this.deps.db, apiKeyId);
  }

  async pending(): Promise<number> {
    return repo.outboxSize(this.deps.db);
  }

  /**
   * Points of expired or out-of-retention memories, and points whose memory is gone: deleted, counted.
   * Fails with UNAVAILABLE when Qdrant cannot be reached.
   */
  async cleanup(): Promise<number> {
    const index = await this.index();
    if (!index) return 0;
    const now = this.deps.now();
    try {
      let deleted = await index.deleteStale(now, retentionCutoff(now, await this.deps.settings.get()));
      for await (const ids of index.pointIds()) {
        const alive = await repo.existingPks(this.deps.db, ids);
        const orphans = ids.filter((id) => !alive.has(id));
        await index.delete(orphans);
        deleted += orphans.length;
      }
      return deleted;
    } catch (error) {
      if (error instanceof QdrantUnavailableError) throw unavailable(`Qdrant cleanup failed: ${error.message}`);
      throw error;
    }
  }

  /** The circuit breaker of the Qdrant client in use, without a call to Qdrant; null when none is configured. */
  breakerState(): BreakerState | null {
    return this.current?.index.breaker.state() ?? null;
  }

  async status(): Promise<QdrantStatus> {
    const settings = await this.deps.settings.get();
    const index = await this.index();
    const pendingSync = await this.pending();
    if (!index) {
      return {
        configured: false,
        enabled: settings.vectorStore === 'QDRANT',
        url: null,
        collection: null,
        breaker: 'closed',
        ready: null,
        latencyMs: null,
        error: null,
        compatible: null,
        incompatibleReason: null,
        points: null,
        pendingSync,
        calls: null,
      };
    }
    const health = await index.health();
    let points: number | null = null;
    if (health.ready) points = await index.count().catch(() => null);
    return {
      configured: true,
      enabled: settings.vectorStore === 'QDRANT',
      url: index.connection.url,
      collection: index.connection.collection,
      breaker: index.breaker.state(),
      ready: health.ready,
      latencyMs: health.latencyMs,
      error: health.error ?? index.breaker.lastError(),
      compatible: this.incompatible ? false : this.prepared ? true : null,
      incompatibleReason: this.incompatible,
      points,
      pendingSync,
      calls: index.breaker.calls.snapshot(),
    };
  }
}

/* The Qdrant operations that resolvers and tools call; the service above also feeds and searches the index. */

export function qdrantSettings(deps: { qdrant: QdrantService }): Promise<QdrantSettings> {
  return deps.qdrant.settings();
}

export function updateQdrantSettings(deps: { qdrant: QdrantService }, patch: QdrantSettingsUpdate): Promise<QdrantSettings> {
  return deps.qdrant.updateSettings(patch);
}

export function qdrantHealth(deps: { qdrant: QdrantService }): Promise<QdrantHealth> {
  return deps.qdrant.health();
}

export function cleanupQdrant(deps: { qdrant: QdrantService }): Promise<number> {
  return deps.qdrant.cleanup();
}
