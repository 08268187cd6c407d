import { describe, expect, it } from 'vitest';
import { bestSentences, queryStems, stemWeights } from '../../server/retrieval/matchingSentences.ts';

const TEXT =
  'Vitamin D levels were measured in 400 adults. Most lived in northern cities. Low levels predicted more winter infections. The trial ran for two years.';

/** Every query word weighs the same: as if no other text were weighed with this one. */
const flat = (query: string) => stemWeights(queryStems(query), []);
const anyLength = () => true;
const atMost = (chars: number) => (rendering: string) => rendering.length <= chars;

describe('a long text cut to its sentences most about a question', () => {
  it('keeps every sentence about the question when they fit, in their order, with … where sentences were left out', () => {
    expect(bestSentences(TEXT, flat('Do low vitamin D levels predict infections?'), anyLength)).toBe(
      'Vitamin D levels were measured in 400 adults. … Low levels predicted more winter infections. …',
    );
  });

  it('keeps the sentence holding more of the question when only one fits', () => {
    // "Low levels predicted … infections" holds low, levels, predict, infections; the first only vitamin and levels.
    expect(bestSentences(TEXT, flat('Do low vitamin D levels predict infections?'), atMost(60))).toBe(
      '… Low levels predicted more winter infections. …',
    );
  });

  it('weighs a question word by how rare it is among the texts, so the sentence with the rarer word wins', () => {
    const text = 'Kiwi yields rose in the south. Frost damaged the kiwi vines. Pollination failed after the frost.';
    const query = queryStems('kiwi frost yields');
    // Counted alike, "yields" and "frost" tie and the earlier sentence wins; but every other text speaks of kiwi
    // yields, and none of frost.
    expect(bestSentences(text, flat('kiwi frost yields'), atMost(40))).toBe('Kiwi yields rose in the south. …');
    const others = ['Kiwi yields are up.', 'Record kiwi yields.', 'Yields of kiwi fell.'];
    expect(bestSentences(text, stemWeights(query, [text, ...others]), atMost(40))).toBe('… Frost damaged the kiwi vines. …');
  });

  it('gives the best sentence alone, for the caller to shorten, when not even that fits', () => {
    expect(bestSentences(TEXT, flat('trials'), atMost(10))).toBe('… The trial ran for two years.');
  });

  it('matches a word to its other forms, as stemming would', () => {
    expect(bestSentences(TEXT, flat('trials'), anyLength)).toBe('… The trial ran for two years.');
  });

  it('never matches on stop words', () => {
    expect(bestSentences(TEXT, flat('what were they in'), anyLength)).toBeNull();
  });

  it('is nothing when no sentence matches, or every sentence would be kept', () => {
    expect(bestSentences(TEXT, flat('rainfall'), anyLength)).toBeNull();
    expect(bestSentences('Kiwis grow fast. Kiwis ripen late.', flat('kiwis'), anyLength)).toBeNull();
    expect(bestSentences('Kiwis grow fast and ripen late in the year.', flat('kiwis'), atMost(10))).toBeNull();
  });
});

describe('question word weights', () => {
  it('are the IDF of each word among the texts, never zero', () => {
    const w = stemWeights(queryStems('kiwi frost'), ['kiwi frost', 'kiwi', 'kiwi']);
    expect(w.get('kiwi')).toBeCloseTo(Math.log(1 + 0.5 / 3.5));
    expect(w.get('frost')).toBeCloseTo(Math.log(1 + 2.5 / 1.5));
    expect(w.get('kiwi')).toBeGreaterThan(0);
  });
});
