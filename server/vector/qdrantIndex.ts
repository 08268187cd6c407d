import { QdrantClient } from '@qdrant/js-client-rest';
import type { MemoryTypeValue } from '../db/schema.ts';
import { describeNetworkError } from '../embedding/providerHttp.ts';
import { DomainError } from '../errors.ts';
import { outsideErrorText } from '../redact.ts';
import { CircuitBreaker } from './circuitBreaker.ts';
import type { QdrantConnection } from './qdrantSettings.ts';
import {
  contentHash,
  type Quantization,
  signatureKey,
  type VectorFilter,
  type VectorHit,
  type VectorIndex,
  type VectorIndexStatus,
  type VectorItem,
  type VectorSignature,
} from './vectorIndex.ts';

/** Qdrant payloads cannot hold "no expiry" as a comparable number other than a sentinel. */
const NEVER = Number.MAX_SAFE_INTEGER;
const NO_SESSION = '';
/** Payload fields every search filters on, indexed so those filters are cheap. */
const PAYLOAD_INDEXES = [
  { field_name: 'api_key_id', field_schema: { type: 'keyword', is_tenant: true } },
  { field_name: 'session_id', field_schema: 'keyword' },
  { field_name: 'type', field_schema: 'keyword' },
  { field_name: 'expires_at', field_schema: 'integer' },
  { field_name: 'updated_at', field_schema: 'integer' },
  { field_name: 'archived', field_schema: 'bool' },
  { field_name: 'superseded', field_schema: 'bool' },
] as const;

/** Consecutive failures after which the breaker opens, and how long it then refuses calls. */
export const BREAKER_THRESHOLD = 3;
export const BREAKER_COOLDOWN_MS = 30_000;

/**
 * Qdrant could not be reached or refused a call (network error, timeout, an error status, the breaker open).
 * Its message is Qdrant's (or a proxy's) text, redacted of the API key and anything shaped like a secret.
 */
export class QdrantUnavailableError extends DomainError {
  /** The HTTP status Qdrant answered with, when it answered. */
  readonly status: number | null;

  constructor(cause: unknown, apiKey: string | null) {
    super('UNAVAILABLE', outsideErrorText(cause, [apiKey]), { cause });
    this.name = 'QdrantUnavailableError';
    const status = (cause as { status?: unknown } | null)?.status;
    this.status = typeof status === 'number' ? status : null;
  }
}

/** The collection exists but holds vectors of another size, distance or model: never mixed with ours. */
export class QdrantIncompatibleError extends Error {
  override name = 'QdrantIncompatibleError';
}

/** What each point carries: the memory's identity and every field a search filters on. */
export interface QdrantPayload {
  memory_id: string;
  api_key_id: string;
  session_id: string;
  type: string;
  key: string;
  created_at: number;
  expires_at: number;
  updated_at: number;
  archived: boolean;
  /** No longer true (the memory's validTo is set). Points written before validity existed lack it: they are current. */
  superseded?: boolean;
  /** contentHash() of the text embedded, where the caller gave it (PostgreSQL: the vector store drops stale vectors by it). */
  content_hash?: string;
}

/** The payload fields a change of a memory without new content rewrites (the outbox's "upsert" on PostgreSQL). */
export type PointFields = Omit<VectorItem, 'vector' | 'content'>;

/** A memory row's fields as its point's payload carries them. */
export function pointFields(r: {
  pk: number;
  id: string;
  key: string;
  api_key_id: string;
  session_id: string | null;
  type: string;
  created_at: number;
  expires_at: number | null;
  updated_at: number;
  archived_by: string | null;
  valid_to: number | null;
}): PointFields {
  return {
    pk: r.pk,
    memoryId: r.id,
    key: r.key,
    apiKeyId: r.api_key_id,
    sessionId: r.session_id,
    type: r.type as MemoryTypeValue,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    updatedAt: r.updated_at,
    archived: r.archived_by !== null,
    superseded: r.valid_to !== null,
  };
}

/**
 * Vectors in a Qdrant collection, behind the same contract as sqlite-vec. Every call has the connection's
 * timeout and goes through a circuit breaker; points are keyed by the memory's integer primary key, and every
 * search is filtered by tenant, session, type, expiry, retention and archiving inside Qdrant.
 */
export class QdrantIndex implements VectorIndex {
  readonly backend = 'qdrant' as const;
  readonly breaker: CircuitBreaker;
  private readonly client: QdrantClient;
  private known: VectorSignature | null = null;

  /** `clock` is the breaker's time source (tests move it past the cooldown instead of waiting). */
  constructor(
    readonly connection: QdrantConnection,
    clock: () => number = Date.now,
  ) {
    this.breaker = new CircuitBreaker(BREAKER_THRESHOLD, BREAKER_COOLDOWN_MS, clock);
    this.client = new QdrantClient({
      url: connection.url,
      apiKey: connection.apiKey ?? undefined,
      timeout: connection.timeoutMs,
      checkCompatibility: false,
    });
  }

  async signature(): Promise<VectorSignature | null> {
    return this.known;
  }

  /** A connection is configured; whether Qdrant answers is health()'s and each call's to say. */
  async unavailable(): Promise<string | null> {
    return null;
  }

  async version(): Promise<string | null> {
    return null;
  }

  /** The signature the collection was created for (its metadata), read from Qdrant; null when it has none or does not exist. */
  async storedSignature(): Promise<VectorSignature | null> {
    const name = this.connection.collection;
    if (!(await this.call(() => this.client.collectionExists(name))).exists) return null;
    const info = await this.call(() => this.client.getCollection(name));
    const stored = (info.config.metadata as Record<string, unknown> | null | undefined)?.mnemo_signature;
    // source:model:dimension:quantization, where only the model may hold a colon.
    const parts = typeof stored === 'string' ? stored.split(':') : [];
    if (parts.length < 4) return null;
    const [source, ...rest] = parts;
    const quantization = rest.pop() as Quantization;
    const dimension = Number(rest.pop());
    return { source: source!, model: rest.join(':'), dimension, quantization };
  }

  /**
   * Creates the collection (cosine, the model's dimension, payload indexes) on first use, and then says
   * `reset`: it holds no vectors yet. An existing collection of another dimension, distance or model is
   * reported, never written to.
   */
  async prepare(signature: VectorSignature): Promise<{ reset: boolean }> {
    const name = this.connection.collection;
    const { exists } = await this.call(() => this.client.collectionExists(name));
    if (!exists) {
      await this.create(signature);
      return { reset: true };
    }
    const info = await this.call(() => this.client.getCollection(name));
    const vectors = info.config.params.vectors as { size?: number; distance?: string } | Record<string, unknown> | undefined;
    const size = typeof vectors?.size === 'number' ? vectors.size : null;
    const stored = (info.config.metadata as Record<string, unknown> | null | undefined)?.mnemo_signature;
    const expected = signatureKey(signature);
    if (size !== signature.dimension || vectors?.distance !== 'Cosine' || (stored !== undefined && stored !== expected)) {
      throw new QdrantIncompatibleError(
        `collection "${name}" holds ${size ?? 'unknown'}-dimensional ${String(vectors?.distance ?? 'unknown')} vectors` +
          `${typeof stored === 'string' ? ` of ${stored}` : ''}, but the embedder makes ${expected}. ` +
          `Fix: run reindex(force: true) to recreate it for the current model, or set another collection in the Qdrant settings.`,
      );
    }
    this.known = signature;
    return { reset: false };
  }

  /** Drops and recreates the collection for this signature (a forced reindex after a model change). */
  async recreate(signature: VectorSignature): Promise<void> {
    await this.call(() => this.client.deleteCollection(this.connection.collection));
    await this.create(signature);
  }

  async upsert(items: readonly VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.call(() =>
      this.client.upsert(this.connection.collection, {
        wait: true,
        points: items.map((i) => ({ id: i.pk, vector: Array.from(i.vector), payload: { ...payloadOf(i) } })),
      }),
    );
  }

  /**
   * Rewrites the payload of these memories' points, leaving their vectors as they are; a memory without a point yet is
   * passed over (selected by filter: by id, a missing point would fail the call).
   */
  async setPayloads(items: readonly PointFields[]): Promise<void> {
    for (const item of items) {
      // Without content, no content_hash: set_payload merges, so the point keeps the one of its vector.
      const payload = payloadOf(item);
      await this.call(() =>
        this.client.setPayload(this.connection.collection, {
          wait: true,
          payload: { ...payload },
          filter: { must: [{ has_id: [item.pk] }] },
        }),
      );
    }
  }

  async delete(pks: readonly number[]): Promise<void> {
    if (pks.length === 0) return;
    await this.call(() => this.client.delete(this.connection.collection, { wait: true, points: [...pks] }));
  }

  /** Removes points of expired or out-of-retention memories; returns how many there were. */
  async deleteStale(now: number, retentionCutoff: number): Promise<number> {
    const filter = {
      should: [
        { key: 'expires_at', range: { lte: now } },
        { key: 'updated_at', range: { lt: retentionCutoff } },
      ],
    };
    const { count } = await this.call(() => this.client.count(this.connection.collection, { filter, exact: true }));
    if (count > 0) await this.call(() => this.client.delete(this.connection.collection, { wait: true, filter }));
    return count;
  }

  /** Every point id, page by page, for finding orphans. */
  async *pointIds(pageSize = 1000): AsyncGenerator<number[]> {
    let offset: number | string | null | undefined;
    do {
      const page = await this.call(() =>
        this.client.scroll(this.connection.collection, {
          limit: pageSize,
          offset: offset ?? undefined,
          with_payload: false,
          with_vector: false,
        }),
      );
      yield page.points.map((p) => Number(p.id));
      offset = page.next_page_offset as number | string | null | undefined;
    } while (offset !== null && offset !== undefined);
  }

  async search(vector: Float32Array, f: VectorFilter, k: number): Promise<VectorHit[]> {
    const must: Record<string, unknown>[] = [
      { key: 'api_key_id', match: { value: f.apiKeyId } },
      { key: 'archived', match: { value: false } },
      { key: 'expires_at', range: { gt: f.now } },
      { key: 'updated_at', range: { gte: f.retentionCutoff } },
    ];
    if (f.types && f.types.length > 0) must.push({ key: 'type', match: { any: [...f.types] } });
    if (f.sessionId !== null) must.push({ key: 'session_id', match: { any: [NO_SESSION, f.sessionId] } });
    // must_not, not must: a point without the field (written before validity existed) is current. The past (asOf)
    // takes superseded points too, and SQL checks each memory's validity then.
    const mustNot = f.asOf == null ? [{ key: 'superseded', match: { value: true } }] : [];
    const quantized = this.connection.quantization !== 'none';
    const result = await this.call(() =>
      this.client.query(this.connection.collection, {
        query: Array.from(vector),
        filter: { must, must_not: mustNot },
        limit: Math.max(1, Math.trunc(k)),
        with_payload: ['content_hash'],
        // Quantized vectors find candidates fast; rescoring them with the originals keeps the ranking right.
        ...(quantized ? { params: { quantization: { rescore: true, oversampling: 2 } } } : {}),
      }),
    );
    return result.points.map((p) => {
      const hash = p.payload?.content_hash;
      return { pk: Number(p.id), similarity: p.score, contentHash: typeof hash === 'string' ? hash : null };
    });
  }

  async count(): Promise<number> {
    const { exists } = await this.call(() => this.client.collectionExists(this.connection.collection));
    if (!exists) return 0;
    return (await this.call(() => this.client.count(this.connection.collection, { exact: true }))).count;
  }

  async reset(): Promise<void> {
    await this.call(() => this.client.deleteCollection(this.connection.collection));
    this.known = null;
  }

  async status(): Promise<VectorIndexStatus> {
    return {
      backend: this.backend,
      signature: this.known ? signatureKey(this.known) : null,
      dimension: this.known?.dimension ?? null,
      quantization: this.connection.quantization === 'binary' ? 'none' : this.connection.quantization,
      rows: await this.count(),
      lastResetAt: null,
    };
  }

  /** Qdrant's own readiness probe (/readyz), timed; it bypasses the breaker so a recovery is noticed. */
  async health(): Promise<{ ready: boolean; latencyMs: number; error: string | null }> {
    const started = performance.now();
    try {
      const res = await fetch(new URL('/readyz', this.connection.url), {
        headers: this.connection.apiKey ? { 'api-key': this.connection.apiKey } : {},
        signal: AbortSignal.timeout(this.connection.timeoutMs),
      });
      const body = await res.text();
      const error = res.ok ? null : outsideErrorText(`HTTP ${res.status}: ${body}`, [this.connection.apiKey]);
      return { ready: res.ok, latencyMs: performance.now() - started, error };
    } catch (error) {
      return {
        ready: false,
        latencyMs: performance.now() - started,
        error: outsideErrorText(describeNetworkError(error), [this.connection.apiKey]),
      };
    }
  }

  private async create(signature: VectorSignature) {
    const name = this.connection.collection;
    const quantization =
      this.connection.quantization === 'int8'
        ? { scalar: { type: 'int8' as const, quantile: 0.99, always_ram: true } }
        : this.connection.quantization === 'binary'
          ? { binary: { always_ram: true } }
          : undefined;
    // Through the generated API rather than client.createCollection(), which passes on only the fields it
    // names and drops `metadata`: without the model signature there, a collection made for another model of
    // the same dimension would pass as compatible.
    await this.call(() =>
      this.client.api().createCollection({
        collection_name: name,
        vectors: { size: signature.dimension, distance: 'Cosine' },
        ...(quantization ? { quantization_config: quantization } : {}),
        metadata: { mnemo_signature: signatureKey(signature) },
      }),
    );
    for (const index of PAYLOAD_INDEXES) {
      await this.call(() =>
        this.client.createPayloadIndex(name, { wait: true, field_name: index.field_name, field_schema: index.field_schema as never }),
      );
    }
    this.known = signature;
  }

  /** Through the breaker; a failure becomes a QdrantUnavailableError inside it, so the breaker keeps only redacted text. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    const unavailable = (error: unknown) =>
      error instanceof QdrantUnavailableError ? error : new QdrantUnavailableError(error, this.connection.apiKey);
    try {
      return await this.breaker.run(() =>
        run().catch((error: unknown) => {
          throw unavailable(error);
        }),
      );
    } catch (error) {
      throw unavailable(error);
    }
  }
}

function payloadOf(i: PointFields & { content?: string }): QdrantPayload {
  return {
    memory_id: i.memoryId ?? '',
    api_key_id: i.apiKeyId,
    session_id: i.sessionId ?? NO_SESSION,
    type: i.type,
    key: i.key ?? '',
    created_at: i.createdAt ?? i.updatedAt,
    expires_at: i.expiresAt ?? NEVER,
    updated_at: i.updatedAt,
    archived: i.archived,
    superseded: i.superseded,
    ...(i.content === undefined ? {} : { content_hash: contentHash(i.content) }),
  };
}
