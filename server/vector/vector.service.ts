import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { CachedEmbedder, type EmbeddingCacheStats } from '../embedding/cache.ts';
import { type Embedder, type EmbedderState, EmbeddingError } from '../embedding/embedder.ts';
import type { ProviderService } from '../embedding/provider.service.ts';
import { chooseEmbedding, type EmbeddingChoice } from '../embedding/resolve.ts';
import { badInput, unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { meteredEmbedder } from '../metrics/meteredEmbedder.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Settings, SettingsService } from '../settings/settings.service.ts';
import type { VectorConfig } from '../vectorConfig.ts';
import { type BatchCounter, BatchRefused, type BatchResult, counted } from './batchCount.ts';
import { type ModelTest, notTested, testEmbedder } from './modelTest.ts';
import type { QdrantService } from './qdrant.service.ts';
import { CallRecord, type RecentCalls, trackedEmbedder } from './recentCalls.ts';
import * as repo from './vector.repository.ts';
import {
  signatureKey,
  type VectorBackend,
  type VectorFilter,
  type VectorHit,
  type VectorIndex,
  type VectorSignature,
} from './vectorIndex.ts';

export interface VectorServiceDeps {
  db: Db;
  /** The services' clock: the local models' retry delay and the recent-call windows. */
  now: () => number;
  settings: SettingsService;
  providers: ProviderService;
  config: VectorConfig;
  logger: Logger;
  /**
   * The store every vector is written to: sqlite-vec on SQLite (and the fallback when Qdrant, its copy, is selected but
   * unavailable), Qdrant itself on PostgreSQL.
   */
  index: VectorIndex;
  qdrant?: QdrantService;
  /** Counts the calls to the embedding model; tools and tests may go without. */
  metrics?: Metrics;
}

/** The nearest memories, and which store answered (with the reason when it was not the selected one). */
export interface VectorSearch {
  hits: VectorHit[];
  store: VectorBackend;
  note: string | null;
}

/** Whether the vector tier can answer right now, and if not, why (shown in previews and the engine status). */
export type Readiness = { ready: true; embedder: Embedder } | { ready: false; reason: string };

export interface EmbedBatchResult extends BatchResult {
  /** The highest primary key looked at, for resumable passes in key order. */
  lastPk: number;
}

export interface EmbedPendingOptions {
  limit: number;
  afterPk?: number;
  apiKeyId?: string;
  /** Counts the batch in the transaction that marks its memories embedded (batchCount.ts). */
  count?: BatchCounter<EmbedBatchResult>;
}

export interface EmbeddingStatus {
  source: string | null;
  model: string | null;
  dimension: number | null;
  state: EmbedderState | 'none';
  reason: string;
  lastError: { kind: string; message: string } | null;
  /** How the calls to the model went lately; null without a model. */
  calls: RecentCalls | null;
  cache: EmbeddingCacheStats | null;
}

/**
 * The vector side of retrieval: which embedder is in use (re-chosen when settings or providers change),
 * the index it fills, and the background worker that embeds flagged memories. Writes never
 * wait on it: memories are stored and flagged at once, and vectors follow.
 */
export class VectorService {
  private current: {
    key: string;
    choice: EmbeddingChoice;
    embedder: Embedder | null;
    /** The same model without the cache in front: a test call through it reaches the model. */
    uncached: Embedder | null;
    calls: CallRecord;
  } | null = null;
  private resolvedFor: { settings: Settings; providers: number } | null = null;
  private preparedKey: string | null = null;
  private fellBack: { from: string; reason: string } | null = null;
  private paused = 0;

  constructor(private readonly deps: VectorServiceDeps) {}

  get index(): VectorIndex {
    return this.deps.index;
  }

  /** Vector hits below this cosine similarity are not candidates. */
  get minSimilarity(): number {
    return this.deps.config.minSimilarity;
  }

  get backfillLimit(): number {
    return this.deps.config.backfillLimit;
  }

  /** The embedder for the current settings; built anew only when the configuration changed. */
  async embedding(): Promise<{ choice: EmbeddingChoice; embedder: Embedder | null }> {
    const settings = await this.deps.settings.get();
    const providers = await this.deps.providers.revision();
    if (this.current && this.resolvedFor?.settings === settings && this.resolvedFor.providers === providers) {
      const failed = this.current.embedder?.state() === 'failed' ? this.current.embedder.lastError() : null;
      if (!failed || !this.current.choice.fallback) return this.current;
    }
    let choice = await chooseEmbedding(settings, this.deps.providers, this.deps.config);
    // The chosen model could not be loaded (the hub is out of reach): its fallback takes over, says why, and
    // stays until restart, so that a settings change does not try (and fail) the same model again.
    if (choice.fallback) {
      const failed = this.current?.key === choice.key && this.current.embedder?.state() === 'failed';
      if (failed) this.fellBack = { from: choice.key, reason: this.current!.embedder!.lastError()?.message ?? 'it failed to load' };
      if (this.fellBack?.from === choice.key) choice = choice.fallback(this.fellBack.reason);
    }
    if (this.current?.key !== choice.key) {
      const model = choice.create?.(this.deps.now, this.deps.logger) ?? null;
      const calls = new CallRecord(this.deps.now);
      const metered = model && this.deps.metrics ? meteredEmbedder(model, this.deps.metrics) : model;
      const uncached = metered && trackedEmbedder(metered, calls);
      const embedder =
        uncached && this.deps.config.cacheMax > 0
          ? new CachedEmbedder(uncached, { max: this.deps.config.cacheMax, ttlMs: this.deps.config.cacheTtlMs })
          : uncached;
      this.current = { key: choice.key, choice, embedder, uncached, calls };
      this.preparedKey = null;
      this.deps.logger.info({ source: choice.source, model: choice.model, reason: choice.reason }, 'embedding source chosen');
    } else this.current = { ...this.current, choice };
    this.resolvedFor = { settings, providers };
    return this.current;
  }

  /**
   * For the request path: never waits for a model to load. An unloaded model starts loading in the
   * background and the caller falls back to keyword search until it is ready.
   */
  async readiness(): Promise<Readiness> {
    const blocked = await this.deps.index.unavailable();
    if (blocked) return { ready: false, reason: blocked };
    const { choice, embedder } = await this.embedding();
    if (!embedder) return { ready: false, reason: choice.reason };
    if (embedder.state() !== 'ready' && embedder.state() !== 'loading') {
      // A load that needs no I/O (a remote endpoint's configuration) finishes within this turn; a model
      // that must be read from disk keeps loading in the background while the caller falls back.
      await Promise.race([this.loadInBackground(embedder), new Promise((resolve) => setImmediate(resolve))]);
      if (embedder.state() === 'failed' && choice.fallback) return this.readiness();
    }
    const state = embedder.state();
    if (state === 'ready') return { ready: true, embedder };
    const error = embedder.lastError();
    return {
      ready: false,
      reason:
        state === 'failed' && error
          ? `${choice.source} embedder failed to load: ${error.message}`
          : `${choice.source} model ${choice.model} is loading`,
    };
  }

  /** For background jobs, which may wait: loads the model (downloading it if allowed) before reporting. */
  async loadForJob(): Promise<Readiness> {
    const { choice, embedder } = await this.embedding();
    if (!embedder) return { ready: false, reason: choice.reason };
    await this.loadInBackground(embedder);
    if (embedder.state() === 'failed' && choice.fallback) return this.loadForJob();
    return this.readiness();
  }

  /**
   * Embeds a query and searches the selected store: Qdrant when chosen and healthy, else sqlite-vec. A gateway
   * retrieval first prepares the stores for the model's signature (rebuilding after a model change); a
   * preview must change nothing, so it refuses instead.
   */
  async search(embedder: Embedder, text: string, filter: VectorFilter, k: number, opts: { prepare: boolean }): Promise<VectorSearch> {
    const [vector] = await embedder.embed([text]);
    if (!vector) return { hits: [], store: this.deps.index.backend, note: null };
    if (opts.prepare) await this.ensurePrepared(embedder);
    else if (!(await this.holdsVectorsOf(embedder))) {
      throw new Error('the vector index holds vectors of another model; the next retrieve or reindex rebuilds it');
    }
    const relevant = (hits: VectorHit[]) => hits.filter((h) => h.similarity >= this.deps.config.minSimilarity);
    let note: string | null = null;
    const qdrant = await this.mirror();
    const signature = this.signatureOf(embedder);
    if (qdrant && signature) {
      try {
        if (!(await this.deps.qdrant!.ensureCollection(qdrant, signature)).fits) {
          note = `Qdrant collection does not fit the model (${this.deps.qdrant!.incompatibleReason()}); sqlite-vec answered`;
        } else if (await this.deps.qdrant!.behindFor(filter.apiKeyId)) {
          // Until the outbox reaches Qdrant, it lacks memories written (and just embedded) since the last
          // sync and still finds changed ones by their old content (and right after enabling it, it is empty
          // until the backfill ends). sqlite-vec holds them all.
          note = 'Qdrant is catching up (changes to this key are still queued for it); sqlite-vec answered';
        } else {
          return { hits: relevant(await qdrant.search(vector, filter, k)), store: 'qdrant', note: null };
        }
      } catch (error) {
        note = `Qdrant unavailable (${error instanceof Error ? error.message : String(error)}); sqlite-vec answered`;
      }
    }
    return { hits: relevant(await this.deps.index.search(vector, filter, k)), store: this.deps.index.backend, note };
  }

  /** Carries queued changes to Qdrant, when it is the selected store, into a collection that fits the model. */
  async syncRemote(limit: number, count?: BatchCounter<BatchResult>): Promise<BatchResult> {
    if (!this.deps.qdrant) return { processed: 0, failed: 0, error: null };
    const { embedder } = await this.embedding();
    return this.deps.qdrant.drain(limit, embedder ? this.signatureOf(embedder) : null, count);
  }

  /**
   * Qdrant when it is selected and copies the local index (SQLite); null when it is off, or is the index itself
   * (PostgreSQL), where there is nothing else to answer from.
   */
  private async mirror() {
    return this.deps.index.backend === 'qdrant' ? null : ((await this.deps.qdrant?.active()) ?? null);
  }

  /**
   * Readies Qdrant (when it is the store) for a backfill: the collection exists and fits the model (a forced
   * reindex recreates one that does not), and every local vector is queued. Returns the queue's length.
   */
  async prepareRemote(embedder: Embedder, opts: { recreate: boolean }): Promise<number> {
    const qdrant = this.deps.qdrant;
    const index = await this.mirror();
    const signature = this.signatureOf(embedder);
    if (!qdrant || !index || !signature) return 0;
    if (!(await qdrant.ensureCollection(index, signature, opts)).fits)
      throw new Error(qdrant.incompatibleReason() ?? 'the Qdrant collection does not fit the model');
    await qdrant.enqueueAll();
    return qdrant.pending();
  }

  /**
   * The admin's Qdrant search test: the query embedded with the current model and searched in Qdrant only,
   * always within one API key. Fails with BAD_USER_INPUT when Qdrant (configured and selected) or the model is not
   * set up to be used, and with UNAVAILABLE when Qdrant or the embedding provider cannot be reached.
   */
  async searchQdrant(query: string, filter: VectorFilter, topK: number): Promise<{ hits: VectorHit[]; latencyMs: number }> {
    const qdrant = this.deps.qdrant;
    if (!qdrant || !(await qdrant.index())) throw badInput('Qdrant is not configured');
    // Only the selected Qdrant is the engine's: readying another one's collection would create it and queue every
    // vector for it (SQLite) or flag every memory to be embedded into it (PostgreSQL), which a test must not do.
    const index = await qdrant.active();
    if (!index) throw badInput('Qdrant is configured but not enabled: enable it in the Qdrant settings to search it');
    const ready = await this.loadForJob();
    if (!ready.ready) throw badInput(ready.reason);
    const [vector] = await ready.embedder.embed([query]).catch((error: unknown) => {
      throw error instanceof EmbeddingError ? unavailable(error.message) : error;
    });
    const signature = this.signatureOf(ready.embedder);
    if (!vector || !signature) throw badInput('the embedder returned no vector');
    if (!(await qdrant.ensureCollection(index, signature)).fits)
      throw badInput(qdrant.incompatibleReason() ?? 'the collection does not fit the model');
    const started = performance.now();
    const hits = await index.search(vector, filter, topK);
    return { hits, latencyMs: performance.now() - started };
  }

  /** Changes waiting to reach Qdrant; for reindex totals. */
  async remotePending(): Promise<number> {
    return this.deps.qdrant && (await this.deps.qdrant.active()) ? this.deps.qdrant.pending() : 0;
  }

  /**
   * Embeds flagged memories in primary-key order and stores their vectors. A memory whose content
   * changed meanwhile keeps its flag (its stale vector was dropped by a trigger) and is done again.
   */
  async embedPending(opts: EmbedPendingOptions): Promise<EmbedBatchResult> {
    const rows = await repo.pendingMemories(this.deps.db, opts);
    const lastPk = rows.at(-1)?.pk ?? opts.afterPk ?? 0;
    if (rows.length === 0) return { processed: 0, failed: 0, lastPk, error: null };
    const failed = (error: string) => counted(opts.count, this.deps.db, { processed: 0, failed: rows.length, lastPk, error });
    const readiness = await this.readiness();
    if (!readiness.ready) return failed(readiness.reason);
    try {
      const done: EmbedBatchResult = { processed: rows.length, failed: 0, lastPk, error: null };
      await this.store(readiness.embedder, rows, (trx) => counted(opts.count, trx, done));
      return done;
    } catch (error) {
      if (error instanceof BatchRefused) throw error;
      this.deps.logger.warn({ err: error, count: rows.length }, 'embedding a batch of memories failed');
      return failed(error instanceof Error ? error.message : String(error));
    }
  }

  /** Lets a reindex job own the embedding work while it runs; the worker resumes afterwards. */
  pauseWorker(): () => void {
    this.paused++;
    return () => {
      this.paused--;
    };
  }

  /**
   * Embeds flagged memories in the background, batch after batch, in turns that `mayRun` allows (the process holding
   * the worker's lease, among those sharing the database); never keeps the process alive.
   */
  startWorker(mayRun: () => Promise<boolean>): () => void {
    const interval = this.deps.config.workerIntervalMs;
    if (interval <= 0) return () => {};
    let running = false;
    const timer = setInterval(() => {
      if (running || this.paused > 0) return;
      running = true;
      mayRun()
        .then(async (turn) => {
          if (!turn) return;
          await this.embedPending({ limit: this.deps.config.batchSize });
          await this.syncRemote(this.deps.config.batchSize);
        })
        .catch((err: unknown) => this.deps.logger.error({ err }, 'embedding worker failed'))
        .finally(() => {
          running = false;
        });
    }, interval);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * One real call to the embedding model in use, past the cache (loading the model first, as a job would): what
   * it answered, or why it failed. Counted in the recent calls like any other.
   */
  async testEmbedding(): Promise<ModelTest> {
    const ready = await this.loadForJob();
    const model = this.current?.uncached;
    if (!ready.ready || !model) return notTested('embedding', this.current?.choice.model ?? null, ready.ready ? 'no model' : ready.reason);
    return testEmbedder(model);
  }

  /** The embedding cache's counters as they stand, without choosing an embedder; null when none is cached. */
  cacheStats(): EmbeddingCacheStats | null {
    const embedder = this.current?.embedder;
    return embedder instanceof CachedEmbedder ? embedder.stats() : null;
  }

  async embeddingStatus(): Promise<EmbeddingStatus> {
    const { choice, embedder } = await this.embedding();
    const error = embedder?.lastError() ?? null;
    return {
      source: choice.source,
      model: choice.model,
      dimension: embedder?.dimension() ?? null,
      state: embedder?.state() ?? 'none',
      reason: choice.reason,
      lastError: error ? { kind: error.kind, message: error.message } : null,
      calls: embedder ? (this.current?.calls.snapshot() ?? null) : null,
      cache: embedder instanceof CachedEmbedder ? embedder.stats() : null,
    };
  }

  /** The signature vectors made now would have, once the model's dimension is known. */
  signatureOf(embedder: Embedder): VectorSignature | null {
    const dimension = embedder.dimension();
    return dimension === null
      ? null
      : { source: embedder.source, model: embedder.model, dimension, quantization: this.deps.config.quantization };
  }

  /** `inTransaction` runs in the transaction that clears the memories' flags. */
  private async store(embedder: Embedder, rows: MemoryRow[], inTransaction: (trx: Db) => Promise<unknown>) {
    const vectors = await embedder.embed(rows.map((r) => r.content));
    await this.ensurePrepared(embedder);
    await this.deps.index.upsert(
      rows.map((r, i) => ({
        pk: r.pk,
        apiKeyId: r.api_key_id,
        sessionId: r.session_id,
        type: r.type,
        expiresAt: r.expires_at,
        updatedAt: r.updated_at,
        archived: r.archived_by !== null,
        superseded: r.valid_to !== null,
        vector: vectors[i]!,
        content: r.content,
      })),
    );
    await repo.clearReindexFlags(
      this.deps.db,
      rows.map((r) => ({ pk: r.pk, content: r.content })),
      inTransaction,
    );
  }

  /**
   * A new signature (model, dimension or quantization) rebuilds the index and flags every memory; returns
   * whether it did. Does nothing while the dimension is unknown (a remote model before its first answer).
   */
  async ensurePrepared(embedder: Embedder, opts: { recreate?: boolean } = {}): Promise<boolean> {
    const signature = this.signatureOf(embedder);
    if (!signature) return false;
    const key = signatureKey(signature);
    if (this.preparedKey === key && !opts.recreate) return false;
    const { reset } = await this.deps.index.prepare(signature, opts);
    if (reset)
      this.deps.logger.warn({ signature: key }, 'embedding signature changed: vector index rebuilt, every memory flagged for reindex');
    this.preparedKey = key;
    return reset;
  }

  private async holdsVectorsOf(embedder: Embedder): Promise<boolean> {
    const wanted = this.signatureOf(embedder);
    const stored = await this.deps.index.signature();
    return wanted !== null && stored !== null && signatureKey(wanted) === signatureKey(stored);
  }

  private loadInBackground(embedder: Embedder): Promise<void> {
    return embedder
      .load()
      .catch((err: unknown) => this.deps.logger.warn({ err, source: embedder.source }, 'embedding model failed to load'));
  }
}

/** The operation behind testEngineModel(EMBEDDING); the service holds the model it tests. */
export function testEmbeddingModel(deps: { vectors: VectorService }): Promise<ModelTest> {
  return deps.vectors.testEmbedding();
}
