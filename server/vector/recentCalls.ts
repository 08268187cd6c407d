import { type Embedder, observedEmbedder } from '../embedding/embedder.ts';
import type { Reranker } from '../rerank/reranker.ts';

/** How calls to one outside part (the embedding model, the rerank model, Qdrant) went lately, for the engine status. */
export interface RecentCalls {
  /** The window the counts cover, ending now. */
  windowMs: number;
  calls: number;
  failures: number;
  /** The last failure, kept after later successes (its time tells whether it is still news). */
  lastError: string | null;
  lastErrorAt: Date | null;
  lastSuccessAt: Date | null;
}

/** Failures this recent colour a status card; older ones are history. */
export const RECENT_WINDOW_MS = 10 * 60_000;
const BUCKET_MS = 60_000;

/**
 * Counts the outcomes of calls in one-minute buckets over the recent window (memory stays bounded however many
 * calls a busy gateway makes), and remembers the last failure and the last success.
 */
export class CallRecord {
  private buckets: { start: number; calls: number; failures: number }[] = [];
  private lastFailure: { message: string; at: number } | null = null;
  private lastSuccess: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs the call and records how it ended; its result or error passes through unchanged. */
  async track<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.record(null);
      return result;
    } catch (error) {
      this.record(error);
      throw error;
    }
  }

  /** null: the call succeeded. */
  record(error: unknown) {
    const at = this.now();
    const start = at - (at % BUCKET_MS);
    let bucket = this.buckets.at(-1);
    if (bucket?.start !== start) {
      bucket = { start, calls: 0, failures: 0 };
      this.buckets = [...this.recentBuckets(at), bucket];
    }
    bucket.calls++;
    if (error === null) this.lastSuccess = at;
    else {
      bucket.failures++;
      this.lastFailure = { message: error instanceof Error ? error.message : String(error), at };
    }
  }

  snapshot(): RecentCalls {
    const recent = this.recentBuckets(this.now());
    return {
      windowMs: RECENT_WINDOW_MS,
      calls: recent.reduce((n, b) => n + b.calls, 0),
      failures: recent.reduce((n, b) => n + b.failures, 0),
      lastError: this.lastFailure?.message ?? null,
      lastErrorAt: this.lastFailure ? new Date(this.lastFailure.at) : null,
      lastSuccessAt: this.lastSuccess === null ? null : new Date(this.lastSuccess),
    };
  }

  private recentBuckets(now: number) {
    return this.buckets.filter((b) => b.start + BUCKET_MS > now - RECENT_WINDOW_MS);
  }
}

/** The same embedder, with every call to its model recorded (after the cache: only real calls count). */
export function trackedEmbedder(inner: Embedder, record: CallRecord): Embedder {
  return observedEmbedder(inner, (_texts, error) => record.record(error));
}

/** The same reranker, with every call recorded. */
export function trackedReranker(inner: Reranker, record: CallRecord): Reranker {
  return { model: inner.model, rerank: (query, documents, topN) => record.track(() => inner.rerank(query, documents, topN)) };
}
