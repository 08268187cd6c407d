import v8 from 'node:v8';

/**
 * How far past what the last full collection kept V8 lets a serving process's old generation grow before it collects
 * again: 30 is 1.3×.
 *
 * Left to itself, V8 allows up to 4× on any machine where its heap limit is 2 GB or more (Node's default from about
 * 8 GB of memory up), and a serving process holds its old generation's garbage until that is reached: a server whose
 * live heap is about 65 MB ran with 250 MB of heap under the bounded mixed load (RSS 2.2× idle). A smaller factor costs
 * a full collection more often, each marking the whole live heap; with little reaching the old generation (below)
 * that is a few more a minute (docs/benchmarks.md, Steady memory).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * V8's flags that `mnemo serve` sets for itself, each unless node was started with its own (an operator's choice wins):
 * - the heap's growth factor above;
 * - no allocation-site pretenuring. V8 watches where objects are made, and a site whose objects mostly survived a
 *   young-generation collection it marks to make them in the old generation from then on, for the process's life.
 *   A request's objects live until its answer, so a collection in the middle of one often finds them alive: after an
 *   unlucky warm-up a retrieve's candidates were made old, and everything young they pointed at (the memories, the rows
 *   read) outlived the next collections through them. The old generation then took 0.8–1 MB a young collection
 *   instead of 0.1 MB, and the server spent its time in full collections: 2 to 3 in half a minute of the bounded mix
 *   without it, 21 to 30 with it (or, after a luckier warm-up, 4).
 */
const SERVING_FLAGS: readonly { given: RegExp; flag: string }[] = [
  { given: /^--heap[-_]growing[-_]percent(=|$)/, flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}` },
  { given: /^--(no[-_])?allocation[-_]site[-_]pretenuring$/, flag: '--no-allocation-site-pretenuring' },
];

/**
 * The flags to set, given node's own arguments. V8 takes its flags with dashes or underscores; NODE_OPTIONS refuses
 * these, so only node's arguments can carry them.
 */
export function servingHeapFlags(execArgv: readonly string[]): string[] {
  return SERVING_FLAGS.filter(({ given }) => !execArgv.some((arg) => given.test(arg))).map(({ flag }) => flag);
}

/**
 * Sets the flags for this process, before the server's modules load. V8 reads the growth factor whenever a full
 * collection sets the next one's threshold, and the pretenuring flag whenever a young collection weighs what its sites'
 * objects did, so setting them once node runs takes effect from then on; the heap-limit flags, by contrast, count only
 * at start, which the `mnemo` command does not control (its bin is run by whatever node the operator starts).
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  for (const flag of servingHeapFlags(execArgv)) v8.setFlagsFromString(flag);
}
