import { describe, expect, it } from 'vitest';
import { CachedEmbedder, type EmbeddingCacheOptions } from '../../server/embedding/cache.ts';
import { type Embedder, type EmbedderState, EmbeddingError, l2normalize } from '../../server/embedding/embedder.ts';

/**
 * An in-memory inner embedder that records every call. Like a remote model it may not know its dimension
 * until its first answer.
 */
class RecordingEmbedder implements Embedder {
  readonly source = 'remote' as const;
  readonly model = 'recording-model';
  readonly calls: string[][] = [];
  failNext: EmbeddingError | null = null;
  #dimension: number | null;

  constructor(dimension: number | null = 3) {
    this.#dimension = dimension;
  }

  dimension(): number | null {
    return this.#dimension;
  }
  async load(): Promise<void> {}
  state(): EmbedderState {
    return 'ready';
  }
  lastError(): EmbeddingError | null {
    return this.failNext;
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    if (this.failNext) throw this.failNext;
    this.#dimension = 3;
    return texts.map((text) => vectorOf(text));
  }
}

const vectorOf = (text: string) => l2normalize(Float32Array.from([text.length, text.charCodeAt(0) || 1, 7]));

/** A cache over a fresh recording embedder, with a clock the test moves by hand. */
function setup(options: Partial<EmbeddingCacheOptions> = {}, dimension: number | null = 3) {
  const inner = new RecordingEmbedder(dimension);
  // Not 0: lru-cache takes an insertion time of 0 for "no TTL", and performance.now() is never 0 either.
  const clock = { now: 1_000_000 };
  const cache = new CachedEmbedder(inner, { max: 100, ttlMs: 60_000, now: () => clock.now, ...options });
  return { inner, clock, cache };
}

describe('caching embeddings', () => {
  it('embeds a text once and answers the second request from the cache', async () => {
    const { inner, cache } = setup();
    const first = await cache.embed(['likes tea']);
    const second = await cache.embed(['likes tea']);
    expect(second).toEqual(first);
    expect(inner.calls).toEqual([['likes tea']]);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, size: 1 });
  });

  it('sends only the missing texts to the inner embedder, in one call, and keeps the order', async () => {
    const { inner, cache } = setup();
    await cache.embed(['a', 'c']);
    const vectors = await cache.embed(['a', 'bb', 'c', 'ddd']);
    expect(inner.calls).toEqual([
      ['a', 'c'],
      ['bb', 'ddd'],
    ]);
    expect(vectors).toEqual(['a', 'bb', 'c', 'ddd'].map(vectorOf));
  });

  it('embeds identical texts within one call only once', async () => {
    const { inner, cache } = setup();
    const vectors = await cache.embed(['x', 'x', 'yy', 'x']);
    expect(inner.calls).toEqual([['x', 'yy']]);
    expect(vectors).toEqual(['x', 'x', 'yy', 'x'].map(vectorOf));
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 4, size: 2 });
  });

  it('forgets a vector once its TTL has passed', async () => {
    const { inner, clock, cache } = setup({ ttlMs: 1000 });
    await cache.embed(['a']);
    clock.now += 999;
    await cache.embed(['a']);
    expect(inner.calls).toHaveLength(1);
    clock.now += 2;
    await cache.embed(['a']);
    expect(inner.calls).toEqual([['a'], ['a']]);
  });

  it('evicts the least recently used vector when full', async () => {
    const { inner, cache } = setup({ max: 2 });
    await cache.embed(['a', 'b']);
    await cache.embed(['a']);
    await cache.embed(['c']);
    await cache.embed(['a', 'b']);
    expect(inner.calls).toEqual([['a', 'b'], ['c'], ['b']]);
    expect(cache.stats().size).toBe(2);
  });

  it('hands out copies, so changing a returned vector does not change what the cache returns', async () => {
    const { cache } = setup();
    const [missed] = await cache.embed(['a']);
    missed!.fill(0);
    const [hit] = await cache.embed(['a']);
    expect(hit).toEqual(vectorOf('a'));
    hit!.fill(0);
    expect(await cache.embed(['a'])).toEqual([vectorOf('a')]);
  });

  it('gives each position of a repeated text its own vector', async () => {
    const { cache } = setup();
    const [first, second] = await cache.embed(['a', 'a']);
    expect(first).not.toBe(second);
    first!.fill(0);
    expect(second).toEqual(vectorOf('a'));
  });

  it('caches nothing when the inner embedder fails, so the next call tries again', async () => {
    const { inner, cache } = setup();
    inner.failNext = new EmbeddingError('timeout', 'too slow');
    await expect(cache.embed(['a'])).rejects.toMatchObject({ kind: 'timeout' });
    inner.failNext = null;
    await cache.embed(['a']);
    expect(inner.calls).toEqual([['a'], ['a']]);
    expect(cache.stats().size).toBe(1);
  });

  it('caches the vectors of a model whose dimension was unknown until its first answer', async () => {
    const { inner, cache } = setup({}, null);
    expect(cache.dimension()).toBeNull();
    await cache.embed(['a']);
    await cache.embed(['a']);
    expect(inner.calls).toEqual([['a']]);
    expect(cache.dimension()).toBe(3);
  });

  it('reports its size, capacity and TTL', async () => {
    const { cache } = setup({ max: 5, ttlMs: 1234 });
    await cache.embed(['a', 'b']);
    expect(cache.stats()).toEqual({ hits: 0, misses: 2, size: 2, max: 5, ttlMs: 1234 });
  });

  it('passes the model, state and last error of the inner embedder through', async () => {
    const { inner, cache } = setup();
    inner.failNext = new EmbeddingError('rate_limited', 'slow down');
    expect(cache.source).toBe('remote');
    expect(cache.model).toBe('recording-model');
    expect(cache.state()).toBe('ready');
    expect(cache.lastError()?.kind).toBe('rate_limited');
  });

  it('refuses a capacity below one', () => {
    expect(() => setup({ max: 0 })).toThrow(RangeError);
  });
});
