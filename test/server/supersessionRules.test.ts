import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../server/gateway/extraction.ts';
import { candidateKeys, placeUpdate, type StoredFact, type Supersession, supersededBy } from '../../server/gateway/supersessionRules.ts';

/** The one fact a user message yields. */
function said(text: string) {
  const facts = extractFacts(text, { role: 'user' });
  expect(facts, text).toHaveLength(1);
  return facts[0]!;
}

/** A memory as extraction stored it: its key, content and polarity. */
function stored(text: string, id = 'old'): StoredFact {
  const fact = said(text);
  return { id, key: fact.key, content: fact.content, metadata: { polarity: fact.polarity, category: fact.category } };
}

/** What the later message supersedes among the memories of the earlier ones, fetched as the write path fetches them. */
function supersedes(later: string, ...earlier: string[]): Supersession[] {
  const fact = said(later);
  const { keys, prefixes } = candidateKeys(fact);
  const memories = earlier.map((text, i) => stored(text, `m${i}`));
  const fetched = memories.filter((m) => keys.includes(m.key) || prefixes.some((p) => m.key.startsWith(p)));
  return supersededBy(fact, fetched);
}

describe('single-valued slots', () => {
  it.each([
    ['I moved to Berlin last month.', 'I live in Lyon.'],
    ["I'm now based in Hamburg.", 'I live in Munich.'],
    ['I started working at Initech.', 'I work at Acme.'],
    ['I became a data scientist.', "I'm a student."],
    ['I changed my name to Alex.', 'My name is Sam.'],
    ['Helix is my favourite editor.', 'My favourite editor is Vim.'],
  ])('"%s" supersedes "%s": one value at a time', (later, earlier) => {
    expect(supersedes(later, earlier)).toEqual([{ id: 'm0', rule: 'single_value' }]);
  });

  it('names the move from a place as an explicit change', () => {
    expect(supersedes('We moved from Lyon to Berlin in 2023.', 'I live in Lyon.')).toEqual([{ id: 'm0', rule: 'explicit_change' }]);
  });

  it('supersedes nothing when the same value is said again in other words', () => {
    expect(supersedes("I'm based in Berlin.", 'I live in Berlin.')).toEqual([]);
  });

  it('leaves the current value alone when a place the user left is not it', () => {
    expect(supersedes('I no longer live in Paris.', 'I live in Berlin.')).toEqual([]);
  });

  it('ends the employer the user quit, and only that one', () => {
    expect(supersedes('I quit my job at Acme.', 'I work at Acme.')).toEqual([{ id: 'm0', rule: 'explicit_change' }]);
    expect(supersedes('I quit my job at Globex.', 'I work at Acme.')).toEqual([]);
  });

  it('lets working somewhere again supersede having left it', () => {
    expect(supersedes('I work at Acme again.', "I don't work at Acme anymore.")).toEqual([{ id: 'm0', rule: 'polarity' }]);
  });
});

describe('the same object with the other polarity', () => {
  it.each([
    ["I don't like Python anymore.", 'I like Python.'],
    ['I love coffee now.', "I don't like coffee."],
    ["We won't use Redux.", "We'll use Redux."],
    ["I don't want to learn Haskell.", 'I want to learn Haskell.'],
  ])('"%s" supersedes "%s"', (later, earlier) => {
    expect(supersedes(later, earlier)).toEqual([{ id: 'm0', rule: 'polarity' }]);
  });

  it('does not touch another object', () => {
    expect(supersedes("I don't like Java.", 'I like Python.')).toEqual([]);
    expect(supersedes('I like Rust.', 'I like Python.')).toEqual([]);
  });
});

describe('explicit change phrasings', () => {
  it.each([
    ['I switched from Vim to Helix.', 'I use Vim.'],
    ["I've switched to Helix.", 'I use Vim every day.'],
    ['I moved to Zed last week.', 'I use VS Code.'],
    ['We migrated from MySQL to PostgreSQL last week.', "We'll use MySQL."],
    ['I no longer use Emacs.', 'I use Emacs.'],
    ['I stopped using Vim.', 'I use Vim.'],
    ["We'll use MySQL instead of PostgreSQL.", "We'll use PostgreSQL."],
    ['I changed my mind about Redux.', "We'll use Redux."],
    ['We changed our minds about the database.', 'We decided on PostgreSQL.'],
    ["I've changed my mind about Kotlin.", 'I like Kotlin.'],
  ])('"%s" supersedes "%s"', (later, earlier) => {
    expect(supersedes(later, earlier)).toEqual([{ id: 'm0', rule: 'explicit_change' }]);
  });

  it('keeps what the switch was not from', () => {
    expect(supersedes('I switched from Chrome to Firefox.', 'I use Vim.')).toEqual([]);
  });

  it('keeps a preference for what the user no longer uses: liking and using are not one fact', () => {
    expect(supersedes('I switched from Vim to Helix.', 'I love Vim.')).toEqual([]);
  });

  it('does not take a more specific object for the one named ("Python 2" is not "Python")', () => {
    expect(supersedes('I stopped using Python 2.', 'I use Python.')).toEqual([]);
  });

  it('keeps the thing switched to when it was already used', () => {
    expect(supersedes("I've switched to Helix.", 'I use Helix.', 'I use Vim.')).toEqual([{ id: 'm1', rule: 'explicit_change' }]);
  });
});

describe('decisions on one choice', () => {
  it('supersedes the decision of the same choice for the same purpose', () => {
    expect(
      supersedes('Actually we decided to use MySQL for this project instead.', 'We decided to use PostgreSQL for this project.'),
    ).toEqual([{ id: 'm0', rule: 'decision' }]);
  });

  it('supersedes a decision said without a purpose', () => {
    expect(supersedes("Let's use Vitest.", "We'll use Jest.")).toEqual([{ id: 'm0', rule: 'decision' }]);
  });

  it('keeps a decision of the same choice for another purpose', () => {
    expect(supersedes('We decided to use MySQL for the web app.', 'We decided to use PostgreSQL for analytics.')).toEqual([]);
  });

  it('keeps a decision of another choice', () => {
    expect(supersedes("We'll use Redis for caching.", "We'll use PostgreSQL for the API.")).toEqual([]);
    expect(supersedes("We'll use Django for the backend.", "We'll use React.")).toEqual([]);
  });

  it('reads two spellings of one database as one decision, not a change', () => {
    expect(supersedes("We'll use Postgres.", 'We decided to use PostgreSQL.')).toEqual([]);
  });
});

describe('preference reversals', () => {
  it('"spaces over tabs" supersedes "tabs over spaces"', () => {
    expect(supersedes('I prefer spaces over tabs.', 'I prefer tabs over spaces.')).toEqual([{ id: 'm0', rule: 'preference_reversal' }]);
  });

  it('supersedes a plain preference for what is now second', () => {
    expect(supersedes('Now I prefer spaces over tabs.', 'I prefer tabs.')).toEqual([{ id: 'm0', rule: 'preference_reversal' }]);
  });

  it('keeps a liking for what is now second: preferring Rust is not disliking Python', () => {
    expect(supersedes('I prefer Rust over Python.', 'I like Python.')).toEqual([]);
  });

  it('keeps a preference between other things', () => {
    expect(supersedes('I prefer Python over Ruby.', 'I prefer tabs over spaces.')).toEqual([]);
  });
});

describe('what the rules cannot read', () => {
  it('never supersedes a memory whose key the rules did not write', () => {
    const fact = said('I moved to Berlin.');
    const plain: StoredFact = { id: 'p', key: 'note-1', content: 'Lives in Lyon', metadata: {} };
    expect(supersededBy(fact, [plain])).toEqual([]);
  });

  it("reads a caller's own value of a slot key", () => {
    const fact = said('I moved to Berlin.');
    const written: StoredFact = { id: 'c', key: 'identity:location', content: 'Lyon', metadata: {} };
    expect(supersededBy(fact, [written])).toEqual([{ id: 'c', rule: 'single_value' }]);
  });

  it('fetches only keys of the same slot or of what the change names', () => {
    expect(candidateKeys(said('I switched from Vim to Helix.'))).toEqual({ keys: ['uses:helix'], prefixes: ['uses:vim', 'decision:vim'] });
  });

  it('fetches only the decisions of its choice for a decision said plainly, not what the user uses', () => {
    const { prefixes } = candidateKeys(said('We decided to use MySQL for this project.'));
    expect(prefixes).toContain('decision:postgresql');
    expect(prefixes.filter((p) => !p.startsWith('decision:'))).toEqual([]);
  });
});

describe('a memory the extraction model says a fact updates', () => {
  /** What the model's fact supersedes once placed where the rules put it, or null when they do not place it. */
  function modelUpdate(content: string, polarity: 'positive' | 'negative', earlier: string): Supersession[] | null {
    const memory = stored(earlier);
    const placed = placeUpdate(memory, content);
    return placed === undefined ? null : supersededBy({ key: placed.key, content, polarity, replaces: placed.replaces }, [memory]);
  }

  it('goes in the slot of a single-valued memory and supersedes it', () => {
    expect(placeUpdate(stored('I live in Lyon.'), 'Lives in Berlin')).toEqual({
      key: 'identity:location',
      replaces: { slot: 'identity:location', object: 'Lyon' },
    });
    expect(modelUpdate('Lives in Berlin', 'positive', 'I live in Lyon.')).toEqual([{ id: 'old', rule: 'explicit_change' }]);
  });

  it('replaces a tool in use as a switch would', () => {
    expect(modelUpdate('Uses Helix', 'positive', 'I use Vim.')).toEqual([{ id: 'old', rule: 'explicit_change' }]);
  });

  it('flips a preference of the same object', () => {
    expect(modelUpdate('Dislikes Python', 'negative', 'I like Python.')).toEqual([{ id: 'old', rule: 'polarity' }]);
  });

  it('is not placed when the rules do not read the fact as a statement of that slot', () => {
    expect(modelUpdate('Lives in Berlin', 'positive', 'I like Python.')).toBeNull();
  });

  it('supersedes nothing when the rules would not: liking Rust does not end liking Python', () => {
    expect(modelUpdate('Likes Rust', 'positive', 'I like Python.')).toEqual([]);
  });
});
