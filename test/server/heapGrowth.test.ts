import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, servingHeapFlags } from '../../server/heapGrowth.ts';

const OURS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--no-allocation-site-pretenuring'];

describe("a serving process's heap", () => {
  it('is bounded and not pretenured by the flags mnemo sets when node was given none', () => {
    expect(servingHeapFlags([])).toEqual(OURS);
    expect(servingHeapFlags(['--enable-source-maps', '--max-old-space-size=1024'])).toEqual(OURS);
  });

  it("keeps the operator's own growth factor, spelled either way", () => {
    expect(servingHeapFlags(['--heap-growing-percent=100'])).toEqual(['--no-allocation-site-pretenuring']);
    expect(servingHeapFlags(['--heap_growing_percent=0'])).toEqual(['--no-allocation-site-pretenuring']);
  });

  it("keeps the operator's own pretenuring, on or off", () => {
    expect(servingHeapFlags(['--allocation-site-pretenuring'])).toEqual([OURS[0]]);
    expect(servingHeapFlags(['--no_allocation_site_pretenuring'])).toEqual([OURS[0]]);
  });
});
