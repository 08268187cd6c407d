import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { type Embedder, type EmbedderState, EmbeddingError } from './embedder.ts';

export interface EmbeddingCacheOptions {
  /** Most vectors kept (MEMORY_EMBEDDING_CACHE_MAX); the least recently used go first. */
  max: number;
  /** How long a vector stays valid after it was embedded (MEMORY_EMBEDDING_CACHE_TTL_MS); 0 = forever. */
  ttlMs: number;
  /** The clock the TTL is measured with, in ms; tests pass a fake one. Defaults to performance.now(). */
  now?: () => number;
}

export interface EmbeddingCacheStats {
  /** Texts answered from the cache. */
  hits: number;
  /** Texts that were not in the cache (identical ones in one call are still embedded only once). */
  misses: number;
  size: number;
  max: number;
  ttlMs: number;
}

/**
 * An Embedder that remembers vectors, so the same query or memory text is not embedded (and paid for)
 * twice. Only the texts it does not hold go to the inner embedder, in one call per embed(), each distinct
 * text once.
 *
 * Float32Arrays cannot be frozen, so the cache hands out copies: a caller that normalises or scales a
 * vector in place must not change what the next caller gets. A copy costs a few microseconds; an embedding
 * it saves costs milliseconds to a network round trip.
 */
export class CachedEmbedder implements Embedder {
  readonly source: Embedder['source'];
  readonly model: string;

  readonly #inner: Embedder;
  readonly #cache: LRUCache<string, Float32Array>;
  readonly #ttlMs: number;
  #hits = 0;
  #misses = 0;

  constructor(inner: Embedder, options: EmbeddingCacheOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`CachedEmbedder: max must be a positive integer, got ${options.max}`);
    }
    if (!Number.isInteger(options.ttlMs) || options.ttlMs < 0) {
      throw new RangeError(`CachedEmbedder: ttlMs must be a non-negative integer, got ${options.ttlMs}`);
    }
    this.#inner = inner;
    this.source = inner.source;
    this.model = inner.model;
    this.#ttlMs = options.ttlMs;
    this.#cache = new LRUCache<string, Float32Array>({
      max: options.max,
      ttl: options.ttlMs,
      // lru-cache otherwise reuses one clock reading for 1 ms; reading it per lookup is cheap next to an
      // embedding and keeps expiry exact (and testable with a fake clock).
      ttlResolution: 0,
      perf: options.now ? { now: options.now } : undefined,
    });
  }

  dimension(): number | null {
    return this.#inner.dimension();
  }

  load(): Promise<void> {
    return this.#inner.load();
  }

  state(): EmbedderState {
    return this.#inner.state();
  }

  lastError(): EmbeddingError | null {
    return this.#inner.lastError();
  }

  stats(): EmbeddingCacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#cache.size, max: this.#cache.max, ttlMs: this.#ttlMs };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = new Array(texts.length);
    /** Texts to embed, each with its digest and every position it fills. */
    const missing = new Map<string, { digest: string; positions: number[] }>();
    // Before the first vector of a model of unknown size there is nothing to find, and no key to build.
    const dimension = this.#inner.dimension();

    texts.forEach((text, position) => {
      const pending = missing.get(text);
      if (pending) {
        pending.positions.push(position);
        this.#misses++;
        return;
      }
      const digest = sha256(text);
      const cached = dimension === null ? undefined : this.#cache.get(this.#key(dimension, digest));
      if (cached) {
        vectors[position] = cached.slice();
        this.#hits++;
      } else {
        missing.set(text, { digest, positions: [position] });
        this.#misses++;
      }
    });
    if (missing.size === 0) return vectors;

    const pending = [...missing.values()];
    const embedded = await this.#inner.embed([...missing.keys()]);
    if (embedded.length !== pending.length) {
      throw new EmbeddingError('bad_response', `${this.model} returned ${embedded.length} vectors for ${pending.length} texts`);
    }
    // Keyed by the dimension known now: the first response of a remote model is what fixes it.
    const size = this.#inner.dimension() ?? embedded[0]!.length;
    pending.forEach(({ digest, positions }, i) => {
      const vector = embedded[i]!;
      this.#cache.set(this.#key(size, digest), vector.slice());
      for (const position of positions) vectors[position] = vector.slice();
    });
    return vectors;
  }

  /**
   * Source, model and dimension keep vectors of differently configured models apart; the text enters as
   * its SHA-256 so a long text does not sit in memory twice.
   */
  #key(dimension: number, digest: string): string {
    return `${this.source}|${this.model}|${dimension}|${digest}`;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
