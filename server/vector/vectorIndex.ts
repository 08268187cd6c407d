import { createHash } from 'node:crypto';
import type { MemoryTypeValue } from '../db/schema.ts';

export type VectorBackend = 'sqlite-vec' | 'qdrant';
export type Quantization = 'none' | 'int8';

/** What produced the vectors: a change in any part makes stored vectors incomparable with new ones. */
export interface VectorSignature {
  source: string;
  model: string;
  dimension: number;
  quantization: Quantization;
}

export const signatureKey = (s: VectorSignature) => `${s.source}:${s.model}:${s.dimension}:${s.quantization}`;

/** A memory's vector and the fields every search filters on. */
export interface VectorItem {
  pk: number;
  apiKeyId: string;
  sessionId: string | null;
  type: MemoryTypeValue;
  expiresAt: number | null;
  updatedAt: number;
  archived: boolean;
  /** No longer true (validTo set): left out of every search of the current memories. */
  superseded: boolean;
  vector: Float32Array;
  /**
   * The text the vector was made from. When given, the vector is stored only while the memory still holds
   * this text: one edited during the embedding would otherwise be found by its old meaning.
   */
  content?: string;
  /** Carried by stores that keep a payload with each vector (Qdrant), for inspection and cleanup. */
  memoryId?: string;
  key?: string;
  createdAt?: number;
}

/** The same filters as every other tier, applied during the nearest-neighbour search, not after it. */
export interface VectorFilter {
  apiKeyId: string;
  /** A session sees its own memories and the key-wide ones. */
  sessionId: string | null;
  types: readonly MemoryTypeValue[] | null;
  now: number;
  retentionCutoff: number;
  /** Searching the past: superseded vectors are kept too, and each memory's validity at asOf is checked in SQL. */
  asOf?: number | null;
}

export interface VectorHit {
  pk: number;
  /** Cosine similarity, 1 for identical direction. */
  similarity: number;
  /** contentHash() of the text the vector was made from, for stores that keep it with the vector (Qdrant). */
  contentHash?: string | null;
}

/** A short fingerprint of a memory's text, kept with its vector where the store cannot drop a stale vector itself. */
export const contentHash = (content: string) => createHash('sha256').update(content).digest('base64url').slice(0, 22);

export interface VectorIndexStatus {
  backend: VectorBackend;
  signature: string | null;
  dimension: number | null;
  quantization: Quantization;
  rows: number;
  lastResetAt: Date | null;
}

/**
 * A store of memory vectors. sqlite-vec is the embedded default; Qdrant implements the same contract (as a copy fed by
 * the outbox on SQLite, as the one vector store on PostgreSQL: see services.ts).
 */
export interface VectorIndex {
  readonly backend: VectorBackend;
  /**
   * Makes the store hold vectors of this signature. When it held another one (or none), `reset` is true and every
   * memory is flagged for reindexing. `recreate` (a forced reindex) lets a store that refuses to drop vectors of
   * another model by itself (Qdrant) drop them.
   */
  prepare(signature: VectorSignature, opts?: { recreate?: boolean }): Promise<{ reset: boolean }>;
  /** Why the store cannot take or search vectors now, or null when it can. */
  unavailable(): Promise<string | null>;
  /** The store's version where it reports one (the sqlite-vec extension's); fails, saying why, when it cannot be used. */
  version(): Promise<string | null>;
  /** The signature the store holds now, or null before the first prepare. */
  signature(): Promise<VectorSignature | null>;
  upsert(items: readonly VectorItem[]): Promise<void>;
  delete(pks: readonly number[]): Promise<void>;
  search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]>;
  count(): Promise<number>;
  reset(): Promise<void>;
  status(): Promise<VectorIndexStatus>;
}
