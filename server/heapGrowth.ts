import v8 from 'node:v8';

/**
 * How far past what the last full collection kept V8 lets a serving process's old generation grow before it collects
 * again: 50 is 1.5×.
 *
 * Left to itself, V8 allows up to 4× on any machine where its heap limit is 2 GB or more (Node's default from about
 * 8 GB of memory up). Under load a request's objects outlive the young generation's collections while the request
 * waits its turn, so they reach the old generation as garbage, and the process holds them until that 4× is reached:
 * a server whose live heap is about 65 MB ran with 250 MB of heap under the bounded mixed load (RSS 2.2× idle, the heap
 * nearly all of the growth). At 1.5× the same load left it within 1.4× idle, with no more time spent collecting per
 * call (docs/benchmarks.md, Steady memory).
 */
export const HEAP_GROWING_PERCENT = 50;

/** The V8 flag `mnemo serve` sets for itself; null when node was started with its own (an operator's choice wins). */
export function heapGrowingFlag(execArgv: readonly string[]): string | null {
  // V8 takes its flags with dashes or underscores; NODE_OPTIONS refuses this one, so only node's arguments can carry it.
  const given = execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg));
  return given ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Sets the flag for this process. V8 reads it whenever a full collection sets the next one's threshold, so setting it
 * once node runs takes effect from then on; the heap-limit flags, by contrast, count only at start, which the `mnemo`
 * command does not control (its bin is run by whatever node the operator starts).
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowingFlag(execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
