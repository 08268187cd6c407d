import { describe, expect, it } from 'vitest';
import { ADJACENT_BOOST, answersEachOther, boostNeighbours } from '../../server/retrieval/adjacency.ts';

/** Hits as ids with scores, best first; an item is its own id. */
const ranking = (scores: Record<number, number>) =>
  Object.entries(scores)
    .map(([id, score]) => ({ item: Number(id), score }))
    .sort((a, b) => b.score - a.score);
const next = (id: number, of: number) => ({ id, of, item: id, boost: true });
/** A neighbour said by the hit's own speaker. */
const sameSpeaker = (id: number, of: number) => ({ ...next(id, of), boost: false });
const order = (r: { item: number }[]) => r.map((x) => x.item);
const id = (n: number) => n;

describe('session adjacency', () => {
  it('raises a neighbour of a hit by a tenth of the hit, both normalised over the ranking', () => {
    // Normalised: 1 → 1, 2 → 0.5, 3 → 0.25, 4 → 0. Memory 4 sits next to hit 1: 0 + 0.1 × 1 = 0.1.
    const out = boostNeighbours(ranking({ 1: 9, 2: 5, 3: 3, 4: 1 }), [next(4, 1)], id);
    expect(order(out)).toEqual([1, 2, 3, 4]);
    const four = out.find((x) => x.item === 4)!;
    expect(four.score).toBeCloseTo(1 + ADJACENT_BOOST * 8, 10);
    expect(four).toMatchObject({ adjacentTo: 1, added: false });
  });

  it('reorders what follows a hit, never the hit itself', () => {
    // Memory 5, just below hit 1, comes up to it but never level with it; memory 3 next to hit 2 gains 0.05.
    const out = boostNeighbours(ranking({ 1: 9, 5: 8.9, 2: 5, 3: 3, 4: 1 }), [next(5, 1), next(3, 2)], id);
    expect(out[0]).toMatchObject({ item: 1, score: 9, adjacentTo: null });
    expect(out[1]!.item).toBe(5);
    expect(out[1]!.score).toBeLessThan(9);
    expect(order(out)).toEqual([1, 5, 2, 3, 4]);
  });

  it('lets a neighbour pass other memories by at most the bounded boost', () => {
    // Normalised: memory 2 0.44, memory 3 0.06, memory 4 0. Next to hit 1, memory 4 gets 0.1: past 3, not past 2.
    const out = boostNeighbours(ranking({ 1: 11, 2: 6, 3: 2.5, 4: 2 }), [next(4, 1)], id);
    expect(order(out)).toEqual([1, 2, 4, 3]);
  });

  it('brings in a neighbour no tier found, below its hit and marked as added', () => {
    // As if it had the ranking's lowest score: 0 + 0.1 × 0.5 puts it just above memory 3.
    const out = boostNeighbours(ranking({ 1: 9, 2: 5, 3: 1 }), [next(7, 2)], id);
    expect(out.find((x) => x.item === 7)).toMatchObject({ adjacentTo: 2, added: true, score: 1.4 });
    expect(order(out)).toEqual([1, 2, 7, 3]);
  });

  it('takes the best hit when a memory sits next to two', () => {
    const out = boostNeighbours(ranking({ 1: 9, 2: 5, 3: 1 }), [next(3, 2), next(3, 1)], id);
    expect(out.find((x) => x.item === 3)).toMatchObject({ adjacentTo: 1 });
  });

  it('never raises a neighbour said by the same speaker as its hit', () => {
    const out = boostNeighbours(ranking({ 1: 9, 2: 5, 3: 1 }), [sameSpeaker(3, 1)], id);
    expect(out.find((x) => x.item === 3)).toMatchObject({ score: 1, adjacentTo: null });
  });

  it('adds a same-speaker neighbour no tier found after the whole ranking', () => {
    const out = boostNeighbours(ranking({ 1: 9, 2: 5, 3: 1 }), [sameSpeaker(7, 1)], id);
    expect(order(out)).toEqual([1, 2, 3, 7]);
    expect(out.at(-1)).toMatchObject({ adjacentTo: 1, added: true });
    expect(out.at(-1)!.score).toBeLessThan(1);
  });

  it('tells a question and its answer from two messages of one speaker', () => {
    const said = (role?: string) => ({ metadata: role ? { role } : {} });
    expect(answersEachOther(said('user'), said('assistant'))).toBe(true);
    expect(answersEachOther(said('user'), said('user'))).toBe(false);
    expect(answersEachOther(said(), said())).toBe(true);
  });

  it('leaves a ranking without neighbours as it was', () => {
    const ranked = ranking({ 1: 9, 2: 5, 3: 5, 4: 1 });
    expect(boostNeighbours(ranked, [], id).map(({ item, score }) => ({ item, score }))).toEqual(ranked);
  });
});
