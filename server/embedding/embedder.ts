/** The embedding sources mnemo can run; `auto` picks one of them (see resolve.ts). */
export type EmbeddingSourceName = 'remote' | 'static' | 'transformers';

/**
 * Turns texts into L2-normalised vectors of one fixed dimension. Implementations load lazily and may be
 * retried after a failed load; they never cache vectors themselves (the cache wraps them).
 */
export interface Embedder {
  readonly source: EmbeddingSourceName;
  /** The model's name as configured, e.g. "text-embedding-3-small" or "minishlab/potion-base-8M". */
  readonly model: string;
  /** Known once loaded or after the first response (remote models of unknown size); null before. */
  dimension(): number | null;
  /**
   * Loads the model (or checks the remote endpoint's configuration) without embedding anything. Concurrent
   * calls share one load; after a failure a later call tries again (a failed load is never sticky).
   */
  load(): Promise<void>;
  /** Where loading stands, so the request path can fall back instead of waiting for a model to load. */
  state(): EmbedderState;
  /** The last load or request failure, for the engine status; null when none. */
  lastError(): EmbeddingError | null;
  /** One vector per text, in order, each of length dimension() and unit L2 norm. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export type EmbedderState = 'idle' | 'loading' | 'ready' | 'failed';

export type EmbeddingErrorKind = 'no_key' | 'rate_limited' | 'timeout' | 'request_failed' | 'bad_response' | 'model_unavailable';

/** A failure of an embedding source, with a kind that callers and the engine status can act on. */
export class EmbeddingError extends Error {
  constructor(
    readonly kind: EmbeddingErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

/** The same embedder, with `observe` told of every call to embed(): how many texts, and its error (null: it succeeded). */
export function observedEmbedder(inner: Embedder, observe: (texts: number, error: unknown) => void): Embedder {
  return {
    source: inner.source,
    model: inner.model,
    dimension: () => inner.dimension(),
    load: () => inner.load(),
    state: () => inner.state(),
    lastError: () => inner.lastError(),
    embed: async (texts) => {
      try {
        const vectors = await inner.embed(texts);
        observe(texts.length, null);
        return vectors;
      } catch (error) {
        observe(texts.length, error);
        throw error;
      }
    },
  };
}

/** Scales a vector to unit length in place and returns it; a zero vector stays zero. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/**
 * The vector given to a text without a single known token (empty, whitespace, or only unknown characters).
 * model2vec returns a zero vector there, but mnemo's vector tier assumes unit vectors, so we return a fixed
 * unit vector instead of throwing (one odd memory must not fail a whole batch). All components are equal
 * rather than one axis set: token vectors of potion models are roughly centred, so this vector sits about
 * equally far from everything, where the first axis would be the model's most significant PCA direction.
 * All such texts are identical to each other, which is the honest answer: the model knows nothing about them.
 */
export function unknownTextVector(dim: number): Float32Array {
  return new Float32Array(dim).fill(1 / Math.sqrt(dim));
}
