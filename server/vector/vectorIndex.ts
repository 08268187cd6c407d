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
}

export interface VectorHit {
  pk: number;
  /** Cosine similarity, 1 for identical direction. */
  similarity: number;
}

export interface VectorIndexStatus {
  backend: VectorBackend;
  signature: string | null;
  dimension: number | null;
  quantization: Quantization;
  rows: number;
  lastResetAt: Date | null;
}

/** A store of memory vectors. sqlite-vec is the embedded default; Qdrant implements the same contract. */
export interface VectorIndex {
  readonly backend: VectorBackend;
  /**
   * Makes the store hold vectors of this signature. When it held another one, its vectors are dropped and
   * `reset` is true: the caller flags every memory for reindexing.
   */
  prepare(signature: VectorSignature): Promise<{ reset: boolean }>;
  /** The signature the store holds now, or null before the first prepare. */
  signature(): Promise<VectorSignature | null>;
  upsert(items: readonly VectorItem[]): Promise<void>;
  delete(pks: readonly number[]): Promise<void>;
  search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]>;
  count(): Promise<number>;
  reset(): Promise<void>;
  status(): Promise<VectorIndexStatus>;
}
