import { describe, expect, it } from 'vitest';
import { matchingSentences, queryStems } from '../../server/retrieval/matchingSentences.ts';

const TEXT =
  'Vitamin D levels were measured in 400 adults. Most lived in northern cities. Low levels predicted more winter infections. The trial ran for two years.';

describe('a long text cut to the sentences about a question', () => {
  it('keeps the sentences that share a word with the question, in their order, with … where sentences were left out', () => {
    expect(matchingSentences(TEXT, queryStems('Do low vitamin D levels predict infections?'))).toBe(
      'Vitamin D levels were measured in 400 adults. … Low levels predicted more winter infections. …',
    );
  });

  it('matches a word to its other forms, as stemming would', () => {
    expect(matchingSentences(TEXT, queryStems('trials'))).toBe('… The trial ran for two years.');
  });

  it('never matches on stop words', () => {
    expect(matchingSentences(TEXT, queryStems('what were they in'))).toBeNull();
  });

  it('is nothing when no sentence matches, or every sentence does', () => {
    expect(matchingSentences(TEXT, queryStems('rainfall'))).toBeNull();
    expect(matchingSentences('Kiwis grow fast. Kiwis ripen late.', queryStems('kiwis'))).toBeNull();
  });
});
