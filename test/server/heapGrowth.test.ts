import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowingFlag } from '../../server/heapGrowth.ts';

describe("a serving process's heap growth", () => {
  it('is bounded by the flag mnemo sets when node was given none', () => {
    expect(heapGrowingFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowingFlag(['--enable-source-maps', '--max-old-space-size=1024'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("is left to the operator's own flag, spelled either way", () => {
    expect(heapGrowingFlag(['--heap-growing-percent=100'])).toBeNull();
    expect(heapGrowingFlag(['--heap_growing_percent=0'])).toBeNull();
  });
});
