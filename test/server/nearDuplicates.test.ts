import { describe, expect, it } from 'vitest';
import { DistinctTexts } from '../../server/retrieval/nearDuplicates.ts';

const admitted = (...texts: string[]) => {
  const distinct = new DistinctTexts();
  return texts.filter((t) => distinct.admit(t));
};

describe('near-duplicate suppression', () => {
  it('refuses a repeat that differs only in case, spacing and punctuation', () => {
    const distinct = new DistinctTexts();
    expect(distinct.admit('I prefer Helix over Vim.')).toBe(true);
    expect(distinct.admit('i prefer  helix over vim!')).toBe(false);
    expect(distinct.dropped).toBe(1);
  });

  it('refuses a long restatement that adds a word at its end', () => {
    const long = 'The staging cluster runs in eu-west-1 with three nodes, and deploys go out every weekday at nine in the morning';
    expect(admitted(long, `${long} sharp`)).toEqual([long]);
  });

  it('keeps two memories with the same words in another order', () => {
    expect(admitted('Prefers Helix over Vim', 'Prefers Vim over Helix')).toHaveLength(2);
  });

  it('keeps a long memory that differs in one word: another fact, not a repeat', () => {
    const monday = 'The quarterly planning meeting with the design team and the marketing leads is on Monday at ten in room four';
    expect(admitted(monday, monday.replace('Monday', 'Tuesday'))).toHaveLength(2);
  });

  it('always takes what it must (enforced memories), and still refuses their repeats later', () => {
    const distinct = new DistinctTexts();
    expect(distinct.admit('Never share the staging password')).toBe(true);
    expect(distinct.admit('Never share the staging password', { always: true })).toBe(true);
    expect(distinct.admit('never share the staging password.')).toBe(false);
  });
});
