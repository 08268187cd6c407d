import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../server/gateway/extraction.ts';

const fromUser = (text: string) => extractFacts(text, { role: 'user' });
const only = (text: string) => {
  const facts = fromUser(text);
  expect(facts, text).toHaveLength(1);
  return facts[0]!;
};

describe('facts said as a change', () => {
  it.each([
    ['I moved to Berlin last month.', 'Lives in Berlin'],
    ["We've just moved to Lisbon.", 'Lives in Lisbon'],
    ['I relocated to New York City a few weeks ago.', 'Lives in New York City'],
  ])('reads "%s" as where the user lives now', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'identity:location', content, polarity: 'positive' });
  });

  it('reads a move from one place to another as the new place, replacing the old', () => {
    expect(only('I moved from Austin to Denver.')).toMatchObject({
      key: 'identity:location',
      content: 'Lives in Denver',
      replaces: { slot: 'identity:location', object: 'Austin' },
    });
  });

  it('does not take a move inside work or home for an address', () => {
    expect(fromUser('I moved to the backend team.')).toEqual([]);
    expect(fromUser('I moved to a new apartment.')).toEqual([]);
  });

  it('reads "switched from X to Y" as using Y instead of X', () => {
    expect(only('I switched from Vim to Helix.')).toMatchObject({
      key: 'uses:helix',
      content: 'Switched from Vim to Helix',
      category: 'preference',
      polarity: 'positive',
      replaces: { object: 'Vim' },
    });
  });

  it('reads a switch that names only the new thing as a change of its choice', () => {
    expect(only("I've switched to Helix.")).toMatchObject({
      key: 'uses:helix',
      content: 'Switched to Helix',
      replaces: { choice: 'editor' },
    });
  });

  it('cuts when the change happened from what it is to', () => {
    expect(only('We migrated from MySQL to PostgreSQL last week.')).toMatchObject({
      key: 'uses:postgresql',
      content: 'Switched from MySQL to PostgreSQL',
    });
  });

  it.each([
    ['I no longer use Vim.', 'No longer uses Vim'],
    ["I don't use Vim anymore.", 'No longer uses Vim'],
    ['I stopped using Vim.', 'Stopped using Vim'],
  ])('reads "%s" as an end of use', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'uses:vim', content, polarity: 'negative', replaces: { object: 'Vim' } });
  });

  it('reads "I don\'t use X" without a change as a plain negative, replacing nothing', () => {
    expect(only("I don't use Vim.")).toEqual(
      expect.objectContaining({ key: 'uses:vim', content: 'Does not use Vim', polarity: 'negative' }),
    );
    expect(only("I don't use Vim.").replaces).toBeUndefined();
  });

  it('keeps leaving an employer an identity fact', () => {
    expect(only('I no longer work at Acme.')).toMatchObject({ category: 'identity', type: 'factual' });
  });

  it.each([['I quit my job at Acme.'], ['I no longer work at Acme.'], ["I don't work at Acme anymore."]])(
    'reads "%s" as leaving an employer, under a key of its own',
    (text) => {
      expect(only(text)).toMatchObject({
        key: 'identity:former-employer-acme',
        content: 'No longer works at Acme',
        polarity: 'negative',
        replaces: { slot: 'identity:employer', object: 'Acme' },
      });
    },
  );

  it.each([
    ['I started working at Google.', 'Works at Google'],
    ['I got a new job at Initech.', 'Works at Initech'],
  ])('reads "%s" as the employer now', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'identity:employer', content });
  });

  it.each([
    ['I became a data scientist.', 'Is a data scientist'],
    ["I'm now a senior engineer.", 'Is a senior engineer'],
  ])('reads "%s" as the role now', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'identity:role', content });
  });

  it('reads a new name', () => {
    expect(only('I changed my name to Sam.')).toMatchObject({ key: 'identity:name', content: 'Name is Sam' });
  });

  it('reads "changed my mind about the database" as a change of that choice', () => {
    expect(only('I changed my mind about the database.')).toMatchObject({
      content: 'Changed their mind about the database',
      category: 'decision',
      replaces: { choice: 'database' },
    });
  });

  it('reads "instead of X" in a decision as what it replaces', () => {
    expect(only("We'll use MySQL instead of PostgreSQL.")).toMatchObject({
      key: 'decision:mysql',
      content: 'Decided to use MySQL',
      replaces: { object: 'PostgreSQL' },
    });
  });

  it('keeps "rather than" inside a preference: it is one preference of two things', () => {
    expect(only('I prefer cats rather than dogs.')).toMatchObject({
      key: 'pref:cats-rather-than-dogs',
      content: 'Prefers cats rather than dogs',
    });
  });

  it('reads "I use X" only of a tool or a choice, not of anything used', () => {
    expect(only('I use Vim for everything.')).toMatchObject({ key: 'uses:vim-for-everything', content: 'Uses Vim for everything' });
    expect(fromUser('I use a lot of garlic.')).toEqual([]);
  });

  it('leaves "I always use X" a habit', () => {
    expect(only('I always use tabs.')).toMatchObject({ category: 'habit', content: 'Always use tabs' });
  });
});

describe('what states no change of the user', () => {
  it.each([
    'My sister moved to Berlin.',
    'My brother switched from Vim to Helix.',
    'If I moved to Berlin, would my rent go up?',
    'Imagine I switched to Emacs tomorrow.',
    'Suppose we decided to use MySQL instead.',
    'I wish I had switched to Helix.',
    'Should I switch to Helix?',
    'Is it time to switch from Vim to Helix?',
    "I'm thinking about switching from Vim to Helix.",
    "I haven't switched to Helix.",
    'I might move to Berlin next year.',
    'I stopped by the store.',
  ])('extracts nothing from "%s"', (text) => {
    expect(fromUser(text)).toEqual([]);
  });

  it.each([
    'My boss said "I moved to Berlin".',
    '"I switched to Emacs" is what my coworker said.',
    'She said that I moved to Berlin.',
    'My coworker told me: I switched to Emacs.',
    'He thinks I moved to Berlin.',
    "The tweet said 'I don't like Python anymore'.",
  ])('extracts nothing from a quotation or someone else\'s words: "%s"', (text) => {
    expect(fromUser(text)).toEqual([]);
  });

  it("still reads the user's own statement after a quotation ends", () => {
    expect(only('She said "I moved to Berlin" and I moved to Lyon.')).toMatchObject({ content: 'Lives in Lyon' });
  });
});
