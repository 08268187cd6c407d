/** Latency summaries: nearest-rank percentiles over raw samples (milliseconds). */

export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array: the smallest sample with at least p% at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    n: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

export interface SampleOptions {
  /** Timed calls to aim for, per function. */
  iterations: number;
  /** Untimed calls of each function first (JIT, statement and page caches, sockets); stops early after warmupMs. */
  warmup: number;
  warmupMs?: number;
  /** Stops once this much time per function has been spent, even before `iterations` (at least 10 calls each). */
  maxMs?: number;
}

/**
 * Round `round`'s order of variants, with their indexes: as given, and every other round reversed. Variants that run
 * alike one after the other share what the first warms (the pages and rows read, the code just run), so the one that
 * always went second read 2–12% faster (in-process EXACT and keyword retrieves, the same code as both variants); reversed
 * every other round, each goes second as often.
 */
export function inTurns<T>(variants: readonly T[], round: number): [number, T][] {
  const order = [...variants.entries()];
  return round % 2 === 0 ? order : order.reverse();
}

/** Per-call milliseconds of fn, called one at a time. */
export async function sampleLatency(fn: () => Promise<unknown>, o: SampleOptions): Promise<number[]> {
  return (await sampleInterleaved([fn], o))[0]!;
}

/**
 * Per-call milliseconds of each function, calling them in turn, one at a time, every other round in the other order
 * (a, b, c, then c, b, a: `inTurns`). Comparing variants this way is fair on a busy or throttled machine: a slow spell
 * hits every variant alike instead of whichever happened to run during it.
 */
export async function sampleInterleaved(fns: readonly (() => Promise<unknown>)[], o: SampleOptions): Promise<number[][]> {
  const warmupUntil = performance.now() + (o.warmupMs ?? 2000) * fns.length;
  for (let i = 0; i < o.warmup && (i === 0 || performance.now() < warmupUntil); i++) for (const fn of fns) await fn();
  const samples = fns.map(() => [] as number[]);
  const until = performance.now() + (o.maxMs ?? Number.POSITIVE_INFINITY) * fns.length;
  for (let i = 0; i < o.iterations && (i < 10 || performance.now() < until); i++) {
    for (const [k, fn] of inTurns(fns, i)) {
      const t0 = performance.now();
      await fn();
      samples[k]!.push(performance.now() - t0);
    }
  }
  return samples;
}

/**
 * Runs task(i) for i in [0, count) with at most `concurrency` in flight; returns wall-clock milliseconds.
 * Each worker pulls the next index, so a slow call never idles the others.
 */
export async function runPool(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return performance.now() - t0;
}
