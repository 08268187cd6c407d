import { describe, expect, it } from 'vitest';
import { fitToBudget } from '../../server/retrieval/budget.ts';

// Items are strings priced by their length; only those starting "long" have a shorter rendering (their head).
const walk = (ranked: string[], budget: number, share?: number) =>
  fitToBudget(ranked, {
    budget,
    share,
    cost: (s) => s.length,
    truncate: () => null,
    cut: (s, room) => (s.startsWith('long') ? s.slice(0, room) : null),
  });

const LONG = `long${'x'.repeat(56)}`; // 60
const B = 'b'.repeat(30);
const C = 'c'.repeat(30);

describe('the budget walk', () => {
  it('cuts an item longer than its share when the items after it would not all fit whole, so they get in', () => {
    // Without a share the long item is taken whole (60) and leaves no room for C.
    expect(walk([LONG, B, C], 100).items).toEqual([LONG, B]);
    const { items, used } = walk([LONG, B, C], 100, 25);
    expect(items).toEqual([LONG.slice(0, 25), B, C]);
    expect(used).toBe(85);
  });

  it('takes it whole when everything fits whole anyway', () => {
    expect(walk([LONG, B, C], 120, 25).items).toEqual([LONG, B, C]);
  });

  it('counts only the items the limit leaves room for', () => {
    // With room for two items only, LONG and B fit whole: C never counts against them.
    const r = fitToBudget([LONG, B, C], {
      budget: 100,
      share: 25,
      maxItems: 2,
      cost: (s) => s.length,
      truncate: () => null,
      cut: (s, room) => s.slice(0, room),
    });
    expect(r.items).toEqual([LONG, B]);
  });

  it('takes an item with no shorter rendering whole, as a turn of a conversation is', () => {
    const turn = 'turn'.padEnd(60, 'x');
    expect(walk([turn, B, C], 100, 25).items).toEqual([turn, B]);
  });

  it('cuts an item that does not fit to its share too while items after it wait', () => {
    expect(walk([B, LONG, C], 100, 25).items).toEqual([B, LONG.slice(0, 25), C]);
  });

  it('gives the last item the walk can take all that is left', () => {
    expect(walk([B, C, LONG], 100, 25).items).toEqual([B, C, LONG.slice(0, 40)]);
    expect(walk([B, C, B, LONG], 100).items).toEqual([B, C, B, LONG.slice(0, 10)]);
  });
});
