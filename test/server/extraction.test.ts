import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExtractedFact, extractFacts, MAX_EXTRACTION_INPUT } from '../../server/gateway/extraction.ts';
import { containsSecret } from '../../server/gateway/secretFilter.ts';

const fromUser = (text: string) => extractFacts(text, { role: 'user' });
const only = (text: string): ExtractedFact => {
  const facts = fromUser(text);
  expect(facts).toHaveLength(1);
  return facts[0]!;
};
const contents = (text: string) => fromUser(text).map((f) => f.content);
const keyOf = (text: string) => only(text).key;

describe('extracting preferences', () => {
  it('turns "I like Python" into a positive, factual preference keyed by its object', () => {
    expect(only('I like Python')).toEqual({
      key: 'pref:python',
      content: 'Likes Python',
      type: 'factual',
      category: 'preference',
      polarity: 'positive',
      source: 'I like Python',
    });
  });

  it.each([
    ['I love Rust', 'Loves Rust'],
    ['I prefer tabs', 'Prefers tabs'],
    ['I really like Go', 'Likes Go'],
    ['I enjoy pair programming', 'Enjoys pair programming'],
  ])('recognises "%s" as a positive preference', (text, content) => {
    expect(only(text)).toMatchObject({ content, category: 'preference', polarity: 'positive' });
  });

  it.each([
    ["I don't like Java", 'Dislikes Java'],
    ['I do not like Java', 'Dislikes Java'],
    ['I dislike PHP', 'Dislikes PHP'],
    ['I hate YAML', 'Hates YAML'],
    ["I can't stand Jira", "Can't stand Jira"],
  ])('recognises "%s" as a negative preference', (text, content) => {
    expect(only(text)).toMatchObject({ content, category: 'preference', polarity: 'negative' });
  });

  it.each([
    ['My favourite editor is Helix', 'Favourite editor is Helix'],
    ['my favorite editor is Zed', 'Favorite editor is Zed'],
  ])('keys "%s" by the topic, so a new favourite replaces the old one', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'favorite:editor', content, category: 'preference' });
  });

  it.each([
    ['Helix is my favourite editor', 'Favourite editor is Helix'],
    ['I think Helix is my favourite editor', 'Favourite editor is Helix'],
    ["My favourite editor's Helix", 'Favourite editor is Helix'],
    ['My favourite editor has always been Helix', 'Favourite editor is Helix'],
    ['My favourite editor is definitely Helix', 'Favourite editor is Helix'],
  ])('reads the other ways of naming a favourite: "%s"', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'favorite:editor', content, type: 'factual', category: 'preference', polarity: 'positive' });
  });

  it.each([
    ['I avoid global state', 'Avoids global state'],
    ['I try to avoid global state', 'Avoids global state'],
    ['I always avoid global state', 'Avoids global state'],
    ['I stay away from global state', 'Avoids global state'],
  ])('recognises "%s" as a negative preference', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'pref:global-state', content, type: 'factual', category: 'preference', polarity: 'negative' });
  });

  it('records "I avoid X" under the same key as "I like X", so the later statement replaces the earlier', () => {
    expect(keyOf('I avoid Redux')).toBe(keyOf('I like Redux'));
  });

  it.each([
    ['I usually prefer Vim', 'Prefers Vim'],
    ['I generally like Vim', 'Likes Vim'],
    ['I often hate Vim', 'Hates Vim'],
  ])('takes "%s" for the preference it states, not for a habit of preferring', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'pref:vim', content, category: 'preference', type: 'factual' });
  });
});

describe('extracting decisions, habits, identity and goals', () => {
  it.each([
    ['I will use Postgres', 'Decided to use Postgres'],
    ["I'll use Postgres", 'Decided to use Postgres'],
    ["I'm going to use Postgres", 'Decided to use Postgres'],
    ["I'm going to switch to Postgres", 'Decided to switch to Postgres'],
    ['I am going to use Postgres', 'Decided to use Postgres'],
    ['We decided to use Postgres', 'Decided to use Postgres'],
    ["Let's go with Postgres", 'Decided to go with Postgres'],
    ['I chose Postgres', 'Chose Postgres'],
  ])('recognises "%s" as a decision, an episodic memory', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'decision:postgres', content, type: 'episodic', category: 'decision', polarity: 'positive' });
  });

  it('records "I won\'t use X" as a negative decision under the same key as "I will use X"', () => {
    expect(only("I won't use MongoDB")).toMatchObject({
      key: keyOf('I will use MongoDB'),
      content: 'Decided not to use MongoDB',
      polarity: 'negative',
    });
  });

  it.each([
    ['I always run tests before pushing', 'Always run tests before pushing'],
    ['I usually run tests before pushing', 'Usually run tests before pushing'],
    ['Every morning I run tests before pushing', 'Every morning: run tests before pushing'],
  ])('recognises "%s" as a procedural habit', (text, content) => {
    expect(only(text)).toMatchObject({
      key: 'habit:run-tests-before-pushing',
      content,
      type: 'procedural',
      category: 'habit',
      polarity: 'positive',
    });
  });

  it('records "I never X" as a negative habit under the same key as "I always X"', () => {
    expect(only('I never use tabs')).toMatchObject({ key: keyOf('I always use tabs'), content: 'Never use tabs', polarity: 'negative' });
    expect(only('I never ever use tabs')).toMatchObject({
      key: keyOf('I always use tabs'),
      content: 'Never use tabs',
      polarity: 'negative',
    });
  });

  it.each([
    ['I tend to run tests before pushing', 'Tends to run tests before pushing', 'positive'],
    ['I mostly run tests before pushing', 'Mostly run tests before pushing', 'positive'],
    ['I tend not to run tests before pushing', 'Tends not to run tests before pushing', 'negative'],
    ["I don't tend to run tests before pushing", 'Tends not to run tests before pushing', 'negative'],
  ])('recognises "%s" as a habit under the same key as "I always X"', (text, content, polarity) => {
    expect(only(text)).toMatchObject({ key: 'habit:run-tests-before-pushing', content, type: 'procedural', category: 'habit', polarity });
  });

  it.each([
    ['My name is Ada Lovelace', 'identity:name', 'Name is Ada Lovelace'],
    ['I work at Acme Corp', 'identity:employer', 'Works at Acme Corp'],
    ['I live in Berlin', 'identity:location', 'Lives in Berlin'],
    ["I'm a senior backend developer at Acme", 'identity:role', 'Is a senior backend developer'],
  ])('recognises "%s" as identity with one key per attribute', (text, key, content) => {
    expect(only(text)).toMatchObject({ key, content, type: 'factual', category: 'identity' });
  });

  it.each([
    ['I want to learn Haskell', 'Wants to learn Haskell'],
    ["I'm trying to learn Haskell", 'Trying to learn Haskell'],
  ])('recognises "%s" as a goal that shares its key with the other phrasing', (text, content) => {
    expect(only(text)).toMatchObject({ key: 'goal:learn-haskell', content, type: 'factual', category: 'goal' });
  });
});

describe('reading the text', () => {
  it.each([
    ['I’ll use Deno', 'Decided to use Deno'],
    ['I don’t like Perl', 'Dislikes Perl'],
    ['I’m a Go developer', 'Is a Go developer'],
  ])('treats the curly apostrophe in "%s" like a straight one', (text, content) => {
    expect(contents(text)).toEqual([content]);
  });

  it('matches regardless of letter case', () => {
    expect(contents('i LIKE python')).toEqual(['Likes python']);
  });

  it('splits sentences on full stops, exclamation and question marks and newlines', () => {
    expect(contents('I like Python. I hate Java! I always test? Sure\nI live in Paris')).toEqual([
      'Likes Python',
      'Hates Java',
      'Always test',
      'Lives in Paris',
    ]);
  });

  it('keeps dots inside names such as Node.js', () => {
    expect(contents('I like Node.js.')).toEqual(['Likes Node.js']);
  });

  it('finds one fact per clause, so "but I hate Java" is a second fact', () => {
    expect(contents('I like Python, but I hate Java')).toEqual(['Likes Python', 'Hates Java']);
  });

  it('ends the object before a question tacked on after a comma', () => {
    expect(contents("I'm trying to learn Rust, any tips?")).toEqual(['Trying to learn Rust']);
  });

  it('ignores questions and conditions such as "Do I like Python?"', () => {
    expect(fromUser('Do I like Python? If I always use tabs, fine.')).toEqual([]);
  });

  it('ignores objects that say nothing on their own, such as "I like it"', () => {
    expect(fromUser('I like it. I hate that.')).toEqual([]);
  });

  it('trims trailing punctuation and filler such as "a lot" and "very much"', () => {
    expect(contents('I like Python a lot!! I love Rust very much.')).toEqual(['Likes Python', 'Loves Rust']);
  });

  it('drops a fact whose content would be longer than 500 characters', () => {
    expect(fromUser(`I like ${'x'.repeat(500)}`)).toEqual([]);
  });

  it('drops a statement with no object', () => {
    expect(fromUser('I like ... I always.')).toEqual([]);
  });

  it('cuts a long source sentence to 500 characters starting at the fact', () => {
    const fact = only(`${'word '.repeat(120)}and I like Python ${'more '.repeat(80)}`);
    expect(fact.source.startsWith('I like Python')).toBe(true);
    expect(fact.source.length).toBeLessThanOrEqual(500);
  });
});

describe('polarity and duplicates', () => {
  it('gives "I like Python" and "I don\'t like Python" the same key with opposite content', () => {
    const liked = only('I like Python');
    const disliked = only("I don't like Python");
    expect(disliked.key).toBe(liked.key);
    expect([liked.content, disliked.content]).toEqual(['Likes Python', 'Dislikes Python']);
  });

  it('keeps only the latest statement when one text states the same fact twice', () => {
    expect(fromUser("I like Python. Later on: I don't like Python anymore.")).toEqual([
      expect.objectContaining({ key: 'pref:python', content: 'Dislikes Python', polarity: 'negative' }),
    ]);
  });
});

describe('whose text is mined', () => {
  it("returns nothing for the assistant's own statements by default", () => {
    expect(extractFacts("I'll use fetch for this.", { role: 'assistant' })).toEqual([]);
  });

  it('mines assistant text when includeAssistant is set', () => {
    expect(extractFacts("I'll use fetch for this.", { role: 'assistant', includeAssistant: true }).map((f) => f.content)).toEqual([
      'Decided to use fetch for this',
    ]);
  });
});

describe('keys', () => {
  it('gives Japanese objects distinct keys', () => {
    expect(keyOf('I like 寿司')).toBe('pref:寿司');
    expect(keyOf('I like ラーメン')).toBe('pref:ラーメン');
  });

  it('gives Cyrillic objects distinct keys', () => {
    expect(keyOf('I like борщ')).toBe('pref:борщ');
    expect(keyOf('I like пельмени')).toBe('pref:пельмени');
  });

  it('normalises with NFKC and lowercase, so full-width letters key like ASCII', () => {
    expect(keyOf('I like ＰＹＴＨＯＮ')).toBe('pref:python');
  });

  it('joins words with dashes and drops punctuation', () => {
    expect(keyOf('I like Visual Studio Code (VS Code)')).toBe('pref:visual-studio-code');
  });

  it('still gives an object without letters or digits a distinct, non-empty key', () => {
    const sushi = keyOf('I like 🍣');
    const pizza = keyOf('I like 🍕');
    expect(sushi).toMatch(/^pref:.+/);
    expect(sushi).not.toBe(pizza);
  });

  it('caps keys at 120 characters while keeping long objects apart', () => {
    const first = keyOf(`I like ${'word '.repeat(60)}alpha`);
    const second = keyOf(`I like ${'word '.repeat(60)}beta`);
    expect(first.length).toBeLessThanOrEqual(120);
    expect(first).not.toBe(second);
  });
});

describe('input size', () => {
  const filler = (length: number) => 'Okay. '.repeat(Math.ceil(length / 6)).slice(0, length);

  it('reads at most MAX_EXTRACTION_INPUT characters, keeping the newest part', () => {
    const text = `I like Python. ${filler(MAX_EXTRACTION_INPUT)} I like Go.`;
    expect(contents(text)).toEqual(['Likes Go']);
  });

  it('drops the sentence the cut falls into, so "I don\'t think I like Zig" never becomes "I like Zig"', () => {
    const tail = `I like Zig. ${filler(MAX_EXTRACTION_INPUT - 22)}I like Go.`;
    expect(tail).toHaveLength(MAX_EXTRACTION_INPUT);
    expect(contents(`I don't think ${tail}`)).toEqual(['Likes Go']);
  });

  it('cuts at whitespace when the kept part has no sentence boundary, so "PI like Rust" never becomes "I like Rust"', () => {
    const start = 'I like Rust; ';
    const end = '; I like Go';
    const tail = start + 'la; '.repeat(MAX_EXTRACTION_INPUT).slice(0, MAX_EXTRACTION_INPUT - start.length - end.length) + end;
    expect(tail).toHaveLength(MAX_EXTRACTION_INPUT);
    expect(contents(`P${tail}`)).toEqual(['Likes Go']);
  });
});

describe('secrets', () => {
  it.each([
    ['a password', 'my password is hunter2'],
    ['a pwd: value', 'pwd: hunter2'],
    ['an OpenAI-style key', 'use sk-proj-abcdefghijklmnop1234'],
    ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123'],
    ['a Slack token', 'xoxb-1234567890-abcdefghij'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['a bearer token', 'Authorization: Bearer abc123def456'],
    ['a 32-character hex run', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a long base64 run', 'dGhpcyBpcyBhIHNlY3JldCBrZXkgdmFsdWUxMjM0NTY3'],
    ['an "api key is" statement', 'my api key is abc'],
    ['a "token:" value', 'token: abc'],
    ['a card number with spaces', '4111 1111 1111 1111'],
    ['a card number with dashes', '4111-1111-1111-1111'],
    ['an unseparated card number', '378282246310005'],
    ['a private key header', '-----BEGIN RSA PRIVATE KEY-----'],
  ])('detects %s', (_kind, text) => {
    expect(containsSecret(text)).toBe(true);
  });

  it.each([
    ['a street address', 'I live at 221 Baker Street'],
    ['a card-like number that fails the Luhn check', '4111 1111 1111 1112'],
    ['dates', 'between 2024-01-15 and 2024-01-16'],
    ['a UUID', '123e4567-e89b-12d3-a456-426614174000'],
    ['talk about passwords', 'I use a password manager'],
    ['talk about bearer tokens', 'I prefer bearer tokens'],
  ])('does not mistake %s for a secret', (_kind, text) => {
    expect(containsSecret(text)).toBe(false);
  });

  it('never extracts a fact from a sentence that contains a secret', () => {
    expect(fromUser('I like Python and my password is hunter2')).toEqual([]);
  });

  it('still extracts facts from the other sentences', () => {
    expect(contents('My password is hunter2. I like Python.')).toEqual(['Likes Python']);
  });

  it('flags the header, full body lines and footer of a pasted private key', () => {
    const pem = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      '-----END OPENSSH PRIVATE KEY-----',
    ];
    expect(pem.every(containsSecret)).toBe(true);
  });

  it('keeps a normal sentence with a number', () => {
    expect(contents('I live in London at 221 Baker Street')).toEqual(['Lives in London at 221 Baker Street']);
  });
});

describe('robustness', () => {
  const phrases = [
    'I like ',
    "I don't like ",
    'my favourite ',
    ' is ',
    "I'm a ",
    ' developer',
    'every morning, I ',
    'I never ',
    ', and I ',
    '. ',
    '\n',
    '’',
    '?',
  ];
  const arbitraries = {
    'ASCII text': fc.string(),
    'any code points': fc.string({ unit: 'binary' }),
    'Unicode graphemes': fc.string({ unit: 'grapheme' }),
    'lone surrogates': fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    'trigger phrases mixed with noise': fc
      .array(fc.oneof(fc.constantFrom(...phrases), fc.string({ unit: 'binary', maxLength: 12 })), { maxLength: 40 })
      .map((p) => p.join('')),
  };

  it.each(Object.entries(arbitraries))('never throws on %s', (_name, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (text) => {
        extractFacts(text, { role: 'user' });
        containsSecret(text);
      }),
    );
  });

  it.each(Object.entries(arbitraries))('only returns well-formed facts for %s', (_name, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (text) => {
        for (const fact of extractFacts(text, { role: 'user' })) {
          expect(fact.content.length).toBeGreaterThanOrEqual(3);
          expect(fact.content.length).toBeLessThanOrEqual(500);
          expect(fact.key.length).toBeGreaterThan(0);
          expect(fact.key.length).toBeLessThanOrEqual(120);
          expect(fact.source.length).toBeLessThanOrEqual(500);
        }
      }),
    );
  });

  const size = MAX_EXTRACTION_INPUT;
  it.each([
    ['"I like " repeated', 'I like '.repeat(size / 7)],
    ['spaces only', ' '.repeat(size)],
    ['a statement padded with spaces', `I like${' '.repeat(size)}x`],
    ['"my favourite " repeated', 'my favourite '.repeat(size / 13)],
    ['"I\'m a " repeated', "I'm a ".repeat(size / 6)],
    ['comma-separated subjects', ', I'.repeat(size / 3)],
    ['one huge word', 'a'.repeat(size)],
    ['digit groups', '1 '.repeat(size / 2)],
    ['repeated filler', `I like Python${' too'.repeat(size / 4)}`],
    ['repeated secret prefixes', '-----BEGIN '.repeat(size / 11)],
  ])('finishes on 64 KB of %s', (_name, text) => {
    expect(Array.isArray(extractFacts(text, { role: 'user' }))).toBe(true);
    expect(typeof containsSecret(text)).toBe('boolean');
  });
});
