import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/lib/text.ts';
import { KeyPostings } from '../../server/db/keyPostings.ts';

// A search from a key's postings in memory scores only the memories that can still reach its top n (MaxScore). Its
// answer must be the exhaustive ranking's head to the last bit: the exhaustive ranking is the same search asked for
// more rows than match (nothing can be pruned), which keywordPostings.test.ts holds equal to FTS5's.

const VOCABULARY = Array.from({ length: 400 }, (_, i) => `w${i}`);

/** Zipf-like: a few words in most memories, most words in a few; some words twice, some in the key (weight 0.4). */
function memory(next: () => number, pk: number) {
  const terms = new Map<string, number>();
  const words = 3 + Math.floor(next() * 25);
  for (let i = 0; i < words; i++) {
    const term = VOCABULARY[Math.floor(next() ** 3 * VOCABULARY.length)]!;
    terms.set(term, (terms.get(term) ?? 0) + (next() < 0.1 ? 0.4 : 1));
  }
  return { pk, length: words + Math.floor(next() * 3), terms };
}

function query(next: () => number) {
  return Array.from({ length: 1 + Math.floor(next() * 8) }, () => VOCABULARY[Math.floor(next() ** 2 * VOCABULARY.length)]!);
}

function exhaustive(postings: KeyPostings, terms: string[], average: number, n: number) {
  return postings.top(terms, average, Number.MAX_SAFE_INTEGER).rows.slice(0, n);
}

function generated(seed: number, memories: number) {
  const next = rng(seed);
  const postings = new KeyPostings();
  for (let pk = 1; pk <= memories; pk++) postings.put(memory(next, pk));
  return { next, postings };
}

describe('top memories of a keyword search', () => {
  it('are the exhaustive ranking’s head, scores to the last bit, for any n', () => {
    const { next, postings } = generated(7, 3_000);
    for (let q = 0; q < 200; q++) {
      const terms = query(next);
      for (const n of [1, 3, 10, 37, 120]) {
        expect(postings.top(terms, 14, n).rows, `${terms.join(' ')} top ${n}`).toEqual(exhaustive(postings, terms, 14, n));
      }
    }
  });

  it('stay exact while memories are rewritten and removed and the average length moves', () => {
    const { next, postings } = generated(11, 2_000);
    let average = 9;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 50; i++) {
        const pk = 1 + Math.floor(next() * 2_500);
        if (next() < 0.3) postings.remove(pk);
        else postings.put(memory(next, pk));
      }
      // Up past the drift that takes a term's bound again, and down, where the old bound still holds.
      average = round < 20 ? average * 1.2 : average / 1.2;
      for (let q = 0; q < 30; q++) {
        const terms = query(next);
        for (const n of [1, 5, 20]) {
          expect(postings.top(terms, average, n).rows, `${terms.join(' ')} at ${average}`).toEqual(exhaustive(postings, terms, average, n));
        }
      }
    }
  });

  it('stay exact when the index’s average length has grown since a word’s bound was taken', () => {
    // A longer average lifts a long memory's score more than a short one's. Twenty memories of 100 tokens hold
    // "kappa"; one of a single token holds "gamma", which 144 very long memories also hold (so its IDF is low), and
    // whose score falls between kappa's at the two averages.
    const postings = new KeyPostings();
    let pk = 0;
    const put = (length: number, term: string) => postings.put({ pk: ++pk, length, terms: new Map([[term, 1]]) });
    put(1, 'gamma');
    for (let i = 0; i < 144; i++) put(1_000_000, 'gamma');
    for (let i = 0; i < 35; i++) put(10, 'filler');
    for (let i = 0; i < 20; i++) put(100, 'kappa');
    expect(postings.top(['gamma', 'kappa'], 10, 1).rows[0]!.pk).toBe(1);
    const later = postings.top(['gamma', 'kappa'], 12, 1).rows;
    expect(later[0]!.pk).toBe(pk);
    expect(later).toEqual(exhaustive(postings, ['gamma', 'kappa'], 12, 1));
  });

  it('keep equal scores newest first at the cut', () => {
    const postings = new KeyPostings();
    for (let pk = 1; pk <= 500; pk++) postings.put({ pk, length: 4, terms: new Map([['same', 1]]) });
    expect(postings.top(['same'], 4, 3).rows.map((r) => r.pk)).toEqual([500, 499, 498]);
  });

  it('score only the memories that can still reach them when a common word rides along a rare one', () => {
    const postings = new KeyPostings();
    for (let pk = 1; pk <= 20_000; pk++) {
      const terms = new Map([['common', 1]]);
      if (pk % 1_000 === 0) terms.set('rare', 1);
      postings.put({ pk, length: 6, terms });
    }
    const top = postings.top(['common', 'rare'], 6, 10);
    expect(top.rows.map((r) => r.pk)).toEqual([20_000, 19_000, 18_000, 17_000, 16_000, 15_000, 14_000, 13_000, 12_000, 11_000]);
    expect(top.rows[0]!.matched).toEqual([0, 1]);
    expect(top.complete).toBe(false);
    expect(top.scored).toBeLessThan(100);
  });

  it('say when they are every memory that holds a word', () => {
    const { postings } = generated(3, 200);
    const all = postings.top(['w399', 'w398'], 10, 1_000);
    expect(all.complete).toBe(true);
    expect(postings.top(['w0'], 10, 5).complete).toBe(false);
  });
});
