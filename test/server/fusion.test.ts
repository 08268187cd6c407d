import { describe, expect, it } from 'vitest';
import { fuseTiers, fusionShares } from '../../server/retrieval/fusion.ts';

/** Vector hits with ids and similarities, best first. */
const hits = (ids: number[], scores: number[]) => ids.map((id, i) => ({ id, score: scores[i]! }));
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const descending = (top: number, step: number, n: number) => Array.from({ length: n }, (_, i) => top - i * step);
const guard = { manual: null, floor: 0.2 };

describe('fusion shares: the calibrated guard', () => {
  it('gives the vector tier its largest share (0.5) when its hits agree with keyword search and stand out', () => {
    const s = fusionShares(range(1, 15), hits(range(1, 15), descending(0.9, 0.02, 15)), guard);
    expect(s).toMatchObject({ keywordShare: 0.5, vectorShare: 0.5, agreement: 1 });
    expect(s.margin).toBeCloseTo((0.9 - 0.62) / (1 - 0.62), 10);
    expect(s.reason).toMatch(/^the vector hits agree with keyword search and stand out/);
  });

  it('gives it the smallest share (0.1) when its hits share nothing with keyword search', () => {
    const s = fusionShares(range(1, 15), hits(range(100, 15), descending(0.9, 0.02, 15)), guard);
    expect(s).toMatchObject({ vectorShare: 0.1, agreement: 0 });
    expect(s.reason).toMatch(/^the vector hits share too little with keyword search/);
  });

  it('gives it the smallest share when its scores are flat, however much they agree', () => {
    // A word-vector model on a big key: every memory 0.88 to 0.86 similar to the query.
    const s = fusionShares(range(1, 15), hits(range(1, 15), descending(0.88, 0.001, 15)), guard);
    expect(s).toMatchObject({ vectorShare: 0.1, agreement: 1 });
    expect(s.margin).toBeLessThan(0.25);
    expect(s.reason).toMatch(/^the vector scores are too flat/);
  });

  it('weighs partial agreement in between', () => {
    // Half of the first 10 vector hits are keyword's: agreement 0.5, half way through its gate.
    const vector = [1, 2, 3, 4, 5, 100, 101, 102, 103, 104, ...range(200, 5)];
    const s = fusionShares(range(1, 15), hits(vector, descending(0.9, 0.02, 15)), guard);
    expect(s.agreement).toBe(0.5);
    expect(s.vectorShare).toBeCloseTo(0.3, 10);
  });

  it('lets the similarity floor stand in for the 15th hit when fewer passed it', () => {
    const s = fusionShares([1, 2], hits([1], [0.5]), guard);
    expect(s.margin).toBeCloseTo((0.5 - 0.2) / 0.8, 10);
  });

  it('lets the vector tier answer alone when keyword search found nothing, and keyword alone when the vector tier did', () => {
    expect(fusionShares([], hits([1], [0.9]), guard)).toMatchObject({ vectorShare: 1, agreement: null });
    expect(fusionShares([1], [], guard)).toMatchObject({ vectorShare: 0, agreement: null });
  });

  it('uses the share fixed in the settings instead of the guard', () => {
    expect(fusionShares(range(1, 15), hits(range(100, 15), descending(0.9, 0.02, 15)), { manual: 0.3, floor: 0.2 })).toEqual({
      keywordShare: 0.7,
      vectorShare: 0.3,
      agreement: null,
      margin: null,
      reason: 'fusionVectorShare is set to 0.3 in the settings',
    });
  });
});

describe('fusing the tiers', () => {
  it("combines each tier's scores normalised over its hits, by the shares, and ranks the sum", () => {
    const keyword = [
      { item: 'a', score: 9 },
      { item: 'b', score: 5 },
      { item: 'c', score: 1 },
    ];
    const vector = [
      { item: 'c', score: 0.9 },
      { item: 'a', score: 0.6 },
      { item: 'd', score: 0.3 },
    ];
    const { fused, shares } = fuseTiers(keyword, vector, (x) => x, { manual: 0.5, floor: 0.2 });
    expect(shares.vectorShare).toBe(0.5);
    // a: 0.5 × 1 + 0.5 × 0.5; b: 0.5 × 0.5; c: 0.5 × 0 + 0.5 × 1; d: 0.5 × 0.
    expect(fused.map((f) => [f.item, f.score])).toEqual([
      ['a', 0.75],
      ['c', 0.5],
      ['b', 0.25],
      ['d', 0],
    ]);
  });

  it('scores a memory both tiers rank first 1, whatever the shares', () => {
    const { fused } = fuseTiers([{ item: 'a', score: 3 }], [{ item: 'a', score: 0.8 }], (x) => x, guard);
    expect(fused).toEqual([{ item: 'a', score: 1 }]);
  });
});
