import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordCandidates } from '../../server/retrieval/retrieval.repository.ts';
import { countTokens } from '../../server/tokenCount.ts';
import {
  CREATE_MEMORY,
  IMPORT_MEMORIES,
  MEMORY_STATS,
  type MemoryInput,
  RETRIEVE,
  RETRIEVE_PREVIEW,
  type RetrieveInput,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const key = () => `k-${randomUUID().slice(0, 8)}`;
const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const retrieve = (input: RetrieveInput) => app.ok(RETRIEVE, { input }).then((d) => d.retrieve);
const preview = (input: RetrieveInput) => app.ok(RETRIEVE_PREVIEW, { input }).then((d) => d.retrievePreview);
const contents = (r: { items: { memory: { content: string } }[] }) => r.items.map((i) => i.memory.content);

describe('keyword retrieval', () => {
  it('finds a memory created through the API right away', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'The deployment pipeline runs on Buildkite' });
    const r = await retrieve({ apiKeyId, query: 'buildkite', strategy: 'HYBRID' });
    expect(contents(r)).toEqual(['The deployment pipeline runs on Buildkite']);
    expect(r.items[0]?.tier).toBe('KEYWORD');
  });

  it('answers a natural-language question from the content words, ignoring stop words and stemming', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'My favourite editor is Helix' });
    await create({ apiKeyId, content: 'The cat is called Miso' });
    const r = await retrieve({ apiKeyId, query: 'What is my favourite editor?' });
    expect(contents(r)[0]).toBe('My favourite editor is Helix');
    expect(contents(r)).not.toContain('The cat is called Miso');
    const stemmed = await retrieve({ apiKeyId, query: 'which editors do I like' });
    expect(contents(stemmed)[0]).toBe('My favourite editor is Helix');
  });

  it('ranks by BM25 relevance, not by age', async () => {
    const apiKeyId = key();
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        {
          apiKeyId,
          content: 'rust rust rust: the team writes rust services',
          createdAt: new Date(Date.now() - 5 * 86_400_000).toISOString(),
        },
        { apiKeyId, content: 'Lunch was pasta, and someone mentioned rust once' },
      ],
    });
    const r = await retrieve({ apiKeyId, query: 'rust services' });
    expect(contents(r)[0]).toBe('rust rust rust: the team writes rust services');
    expect(r.items[0]?.keywordScore).toBeGreaterThan(r.items[1]!.keywordScore!);
    expect(r.items.map((i) => i.keywordRank)).toEqual([1, 2]);
  });

  const nasty = [
    `it's`,
    `don't "quote`,
    `"unbalanced`,
    'state-of-the-art',
    'c++',
    'C#',
    'AND',
    'OR dogs',
    'NOT',
    'cats AND',
    'NEAR(',
    'NEAR(cat door',
    '(',
    'hello)',
    'a:b',
    'title:',
    'content:python',
    'api_key_id:victim',
    '*foo',
    'foo*',
    '^start',
    '.',
    '',
    '   ',
    '🙂🚀',
    '寿司が好き',
    'SELECT * FROM memories; --',
    `'; DROP TABLE memories; --`,
    '{content key} : x',
    // U+0000 is refused in every argument (wellFormed.test.ts); the other control characters are accepted.
    '\u0001\u001f',
    'x'.repeat(70_000),
    'word '.repeat(13_000),
  ];
  it.each(nasty.map((q) => [q.length > 40 ? `${q.slice(0, 20)}… (${q.length} chars)` : JSON.stringify(q), q]))(
    'accepts hostile query text %s without an error',
    async (_label, query) => {
      const res = await app.gql(RETRIEVE, { input: { apiKeyId: key(), query } });
      expect(res.errors).toBeUndefined();
      expect(res.data.retrieve.items).toEqual([]);
    },
  );

  it('keeps the meaning of words that look like FTS syntax', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Writes C++ and state-of-the-art NEAR field code, AND likes it' });
    for (const word of ['c++', 'state-of-the-art', 'NEAR', 'AND']) {
      expect(contents(await retrieve({ apiKeyId, query: `what about ${word}?` }))).toHaveLength(1);
    }
  });

  it('says which words of a question of sixty-four words each memory holds, the last one included', async () => {
    const apiKeyId = key();
    const words = Array.from({ length: 64 }, (_, i) => `word${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`);
    await create({ apiKeyId, content: `${words[0]} and ${words[63]}` });
    await create({ apiKeyId, content: `only ${words[62]}` });
    const scope = { apiKeyId, sessionId: null, types: null, now: Date.now(), retentionCutoff: 0 };
    const hits = await keywordCandidates(app.services.db, scope, words, 10);
    expect(hits.rows.map((r) => [r.content, r.matched])).toEqual([
      [`${words[0]} and ${words[63]}`, [0, 63]],
      [`only ${words[62]}`, [62]],
    ]);
  });

  // U+0000 is refused in every argument with BAD_USER_INPUT (wellFormed.test.ts); any other string is searched.
  it('never fails on any string without U+0000 (property)', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Some memory with words' });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 200 }).filter((q) => !q.includes('\0')),
        async (query) => {
          const res = await app.gql(RETRIEVE_PREVIEW, { input: { apiKeyId, query } });
          return res.errors === undefined;
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('keyword evidence', () => {
  it('injects nothing for a chat line that shares only a small number with a memory, and still answers a question', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Booked 2 tickets for the opera on Friday' });
    await create({ apiKeyId, content: 'The cat is called Miso' });
    expect(contents(await retrieve({ apiKeyId, query: 'what is 2+2?', strategy: 'HYBRID' }))).toEqual([]);
    const own = await retrieve({ apiKeyId, query: 'How many opera tickets did I book?', strategy: 'HYBRID' });
    expect(contents(own)).toEqual(['Booked 2 tickets for the opera on Friday']);
  });

  it('takes a single common word for no evidence in a large key, on either store', async () => {
    const apiKeyId = key();
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        ...Array.from({ length: 60 }, (_, i) => ({ apiKeyId, content: `Run ${i + 100} used 2 plates` })),
        ...Array.from({ length: 40 }, (_, i) => ({ apiKeyId, content: `Freezer ${i + 500} holds buffer stock` })),
      ],
    });
    expect(contents(await retrieve({ apiKeyId, query: 'any plates?', strategy: 'HYBRID' }))).toEqual([]);
    expect(contents(await retrieve({ apiKeyId, query: 'How many plates did run 117 use?', strategy: 'HYBRID' }))[0]).toBe(
      'Run 117 used 2 plates',
    );
  });
});

describe('filters shared by every strategy', () => {
  for (const strategy of ['EXACT', 'SEMANTIC', 'HYBRID'] as const) {
    it(`${strategy} returns only the caller's key, its session and key-wide memories, live and of the asked types`, async () => {
      const apiKeyId = key();
      const past = new Date(Date.now() - 60_000).toISOString();
      await app.ok(IMPORT_MEMORIES, {
        memories: [
          { apiKeyId, content: 'alpha shared fact', key: 'shared' },
          { apiKeyId, content: 'alpha session one fact', sessionId: 's1', key: 's1' },
          { apiKeyId, content: 'alpha session two fact', sessionId: 's2', key: 's2' },
          { apiKeyId, content: 'alpha expired fact', expiresAt: past, key: 'expired' },
          { apiKeyId, content: 'alpha stale fact', createdAt: new Date(Date.now() - 40 * 86_400_000).toISOString(), key: 'stale' },
          { apiKeyId, content: 'alpha procedure fact', type: 'PROCEDURAL', sessionId: 's1', key: 'proc' },
          { apiKeyId: `${apiKeyId}-other`, content: 'alpha other tenant fact', key: 'other' },
        ],
      });
      const r = await retrieve({ apiKeyId, sessionId: 's1', query: 'alpha fact', strategy });
      expect(contents(r).sort()).toEqual(['alpha procedure fact', 'alpha session one fact', 'alpha shared fact']);
      const typed = await retrieve({ apiKeyId, sessionId: 's1', query: 'alpha fact', strategy, types: ['PROCEDURAL'] });
      expect(contents(typed)).toEqual(['alpha procedure fact']);
    });
  }
});

describe('strategies', () => {
  it('EXACT returns the newest memories first', async () => {
    const apiKeyId = key();
    const day = 86_400_000;
    await app.ok(IMPORT_MEMORIES, {
      memories: [3, 1, 2].map((d) => ({
        apiKeyId,
        content: `written ${d} days ago`,
        createdAt: new Date(Date.now() - d * day).toISOString(),
      })),
    });
    const r = await retrieve({ apiKeyId, query: 'anything', strategy: 'EXACT' });
    expect(contents(r)).toEqual(['written 1 days ago', 'written 2 days ago', 'written 3 days ago']);
    expect(r.resolution).toMatchObject({ requestedStrategy: 'EXACT', tiers: ['EXACT'], fallback: false });
  });

  it("EXACT finds the newest memories in scope behind many newer ones out of it (another session's)", async () => {
    const apiKeyId = key();
    const minute = 60_000;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * minute).toISOString();
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        ...[300, 200, 100].map((m) => ({ apiKeyId, content: `key-wide, ${m} minutes ago`, createdAt: at(m) })),
        ...Array.from({ length: 40 }, (_, i) => ({ apiKeyId, sessionId: 'theirs', content: `their session ${i}`, createdAt: at(50 - i) })),
      ],
    });
    const r = await retrieve({ apiKeyId, sessionId: 'mine', query: 'anything', strategy: 'EXACT', limit: 2 });
    expect(contents(r)).toEqual(['key-wide, 100 minutes ago', 'key-wide, 200 minutes ago']);
    const theirs = await retrieve({ apiKeyId, sessionId: 'theirs', query: 'anything', strategy: 'EXACT', limit: 2 });
    expect(contents(theirs)).toEqual(['their session 39', 'their session 38']);
  });

  it('SEMANTIC says that keyword search answered, and why', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Prefers tabs over spaces' });
    const r = await retrieve({ apiKeyId, query: 'tabs', strategy: 'SEMANTIC' });
    expect(r.resolution).toMatchObject({ requestedStrategy: 'SEMANTIC', tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/vector/);
  });

  it('uses the strategy from the settings when none is given', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Prefers tabs over spaces' });
    await app.ok(UPDATE_SETTINGS, { input: { strategy: 'EXACT' } });
    const r = await retrieve({ apiKeyId, query: 'tabs' });
    await app.ok(UPDATE_SETTINGS, { input: { strategy: 'HYBRID' } });
    expect(r.resolution.requestedStrategy).toBe('EXACT');
  });

  it('always includes enforced memories, first', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Never share the staging URL', type: 'ENFORCED' });
    await create({ apiKeyId, content: 'Likes green tea' });
    const r = await retrieve({ apiKeyId, query: 'green tea' });
    expect(r.items.map((i) => i.tier)).toEqual(['ENFORCED', 'KEYWORD']);
  });
});

describe('context and diversity', () => {
  /** A conversation's turns in one session, one second apart, in the order given. */
  const conversation = (apiKeyId: string, sessionId: string, turns: (string | { content: string; expiresAt: string })[]) => {
    const start = Date.now() - 3_600_000;
    return app.ok(IMPORT_MEMORIES, {
      memories: turns.map((turn, i) => ({
        apiKeyId,
        sessionId,
        key: `${sessionId}-turn-${i}`,
        createdAt: new Date(start + i * 1000).toISOString(),
        ...(typeof turn === 'string' ? { content: turn } : turn),
      })),
    });
  };

  it('brings along the turn written next to a hit in the same session, ranked below the hit', async () => {
    const apiKeyId = key();
    await conversation(apiKeyId, 's1', ['Lunch was pasta', 'Which editor should I set up for Rust?', 'I switched to Helix last week']);
    await conversation(apiKeyId, 's2', ['The coffee beans come from Kenya']);
    const r = await preview({ apiKeyId, query: 'editor for rust' });
    expect(contents(r)).toEqual(['Which editor should I set up for Rust?', 'I switched to Helix last week', 'Lunch was pasta']);
    expect(r.items.map((i) => i.tier)).toEqual(['KEYWORD', 'ADJACENT', 'ADJACENT']);
    expect(r.items[1]?.adjacentTo).toBe(r.items[0]?.memory.id);
    expect(r.items[1]?.score).toBeLessThan(r.items[0]!.score);
    expect(r.resolution.tiers).toEqual(['KEYWORD', 'ADJACENT']);
  });

  it('never brings along a neighbour the retrieval may not return (here: expired)', async () => {
    const apiKeyId = key();
    const past = new Date(Date.now() - 60_000).toISOString();
    await conversation(apiKeyId, 's1', [
      'Which editor should I set up for Rust?',
      { content: 'I switched to Helix last week', expiresAt: past },
    ]);
    const r = await preview({ apiKeyId, query: 'editor for rust' });
    expect(contents(r)).toEqual(['Which editor should I set up for Rust?']);
  });

  it("never brings along another key's turn from a session of the same name", async () => {
    const apiKeyId = key();
    const start = Date.now() - 3_600_000;
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        {
          apiKeyId,
          sessionId: 'shared-name',
          key: 'mine',
          content: 'Which editor should I set up for Rust?',
          createdAt: new Date(start).toISOString(),
        },
        {
          apiKeyId: `${apiKeyId}-other`,
          sessionId: 'shared-name',
          key: 'theirs',
          content: 'I switched to Helix last week',
          createdAt: new Date(start + 1000).toISOString(),
        },
      ],
    });
    const r = await preview({ apiKeyId, query: 'editor for rust' });
    expect(contents(r)).toEqual(['Which editor should I set up for Rust?']);
  });

  it('injects a memory once when another one says the same nearly word for word, and counts the one left out', async () => {
    const apiKeyId = key();
    // Imported under their own keys, which are never merged (createMemory would merge the second into the first).
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        { apiKeyId, key: 'editor-1', content: 'I prefer Helix over Vim.' },
        { apiKeyId, key: 'editor-2', content: 'i prefer helix over vim' },
      ],
    });
    await create({ apiKeyId, key: 'theme', content: 'Helix uses the Catppuccin theme' });
    const r = await retrieve({ apiKeyId, query: 'helix vim' });
    expect(r.items).toHaveLength(2);
    expect(contents(r).filter((c) => /prefer helix over vim/i.test(c))).toHaveLength(1);
    expect(contents(r)).toContain('Helix uses the Catppuccin theme');
    expect(r.resolution.nearDuplicates).toBe(1);
    expect(r.block?.match(/prefer helix over vim/gi)).toHaveLength(1);
  });

  it('breaks a tie in score by recency: of two equally relevant memories, the more recently written comes first', async () => {
    const apiKeyId = key();
    // The older one is imported last, so it has the higher row id: the order of writing does not decide.
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        { apiKeyId, key: 'newer', content: 'rust tips one', createdAt: new Date(Date.now() - 86_400_000).toISOString() },
        { apiKeyId, key: 'older', content: 'rust tips two', createdAt: new Date(Date.now() - 10 * 86_400_000).toISOString() },
      ],
    });
    const r = await retrieve({ apiKeyId, query: 'rust tips' });
    expect(r.items[0]?.keywordScore).toBe(r.items[1]?.keywordScore);
    expect(contents(r)).toEqual(['rust tips one', 'rust tips two']);
  });
});

describe('token budget', () => {
  it('never exceeds the budget, skipping what does not fit and going on', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, key: 'big', content: `kiwi ${'very long text about kiwi fruit '.repeat(40)}` });
    await create({ apiKeyId, key: 'small', content: 'kiwi is tasty' });
    await create({ apiKeyId, key: 'small2', content: 'kiwi grows in New Zealand' });
    for (const maxTokens of [40, 60, 90, 200, 400]) {
      const r = await retrieve({ apiKeyId, query: 'kiwi', maxTokens });
      expect(r.tokensUsed).toBeLessThanOrEqual(maxTokens);
      if (r.block) expect(countTokens(r.block)).toBe(r.tokensUsed);
    }
    const r = await retrieve({ apiKeyId, query: 'kiwi kiwi fruit', maxTokens: 90 });
    expect(r.items.map((i) => i.memory.key).sort()).toEqual(['small', 'small2']);
  });

  it('shortens the best memory to fit when nothing fits whole', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: `durian ${'a remarkably pungent fruit '.repeat(100)}` });
    const r = await retrieve({ apiKeyId, query: 'durian', maxTokens: 50 });
    expect(r.items).toHaveLength(1);
    expect(r.items[0]?.truncated).toBe(true);
    expect(r.items[0]?.content.endsWith('…')).toBe(true);
    expect(r.tokensUsed).toBeLessThanOrEqual(50);
    expect(countTokens(r.block!)).toBe(r.tokensUsed);
  });

  /** A short note, and a long text holding one sentence about kiwi harvests: key-wide, or a turn of session s1. */
  const kiwiTexts = async (sessionId?: string) => {
    const apiKeyId = key();
    const filler = 'The committee met again on Tuesday and discussed the weather at length. '.repeat(12);
    await create({ apiKeyId, key: 'short', content: 'Kiwis are rich in vitamin C.' });
    await create({ apiKeyId, sessionId, key: 'long', content: `${filler}Kiwi harvests doubled this year in the north. ${filler}` });
    return apiKeyId;
  };

  it('cuts a long note that does not fit to its sentences about the question, marked where it was cut', async () => {
    const r = await retrieve({ apiKeyId: await kiwiTexts(), query: 'kiwi harvests', maxTokens: 80 });
    const long = r.items.find((i) => i.memory.key === 'long');
    expect(long).toMatchObject({ truncated: true, content: '… Kiwi harvests doubled this year in the north. …' });
    expect(r.tokensUsed).toBeLessThanOrEqual(80);
    expect(countTokens(r.block!)).toBe(r.tokensUsed);
  });

  it('cuts a long note that would fit whole when the hits after it would not, so they get in too', async () => {
    const apiKeyId = await kiwiTexts();
    await create({ apiKeyId, key: 'vines', content: 'Kiwi vines need a frost-free spring.' });
    // The long note holds every word of the question, so it ranks first whatever the other tests stored.
    const whole = await retrieve({ apiKeyId, query: 'kiwi harvests doubled', maxTokens: 16_000 });
    expect(whole.items.map((i) => i.memory.key)[0]).toBe('long');
    const long = whole.items.find((i) => i.memory.key === 'long')!;
    // Room for the long note whole and a few tokens more: whole, it would leave both short notes out.
    const maxTokens = whole.tokensUsed - whole.items.filter((i) => i !== long).reduce((sum, i) => sum + i.tokens, 0) + 4;
    const r = await retrieve({ apiKeyId, query: 'kiwi harvests doubled', maxTokens });
    expect(r.items.map((i) => i.memory.key).sort()).toEqual(['long', 'short', 'vines']);
    expect(r.items.find((i) => i.memory.key === 'long')).toMatchObject({
      truncated: true,
      content: '… Kiwi harvests doubled this year in the north. …',
    });
    expect(r.tokensUsed).toBeLessThanOrEqual(maxTokens);
    expect(countTokens(r.block!)).toBe(r.tokensUsed);
  });

  it('never cuts a turn of a conversation: one that does not fit is left out whole', async () => {
    const r = await retrieve({ apiKeyId: await kiwiTexts('s1'), sessionId: 's1', query: 'kiwi harvests', maxTokens: 80 });
    expect(r.items.map((i) => i.memory.key)).toEqual(['short']);
  });

  it('counts tokens with a real tokenizer, so CJK text is not underestimated', async () => {
    const apiKeyId = key();
    const m = await create({ apiKeyId, content: '私は毎朝コーヒーを飲みます' });
    expect(m.tokens).toBe(countTokens('私は毎朝コーヒーを飲みます'));
    expect(m.tokens).not.toBe(Math.ceil('私は毎朝コーヒーを飲みます'.length / 4));
  });

  it('returns nothing for retrieve when memory is disabled or the budget is 0, while the preview still works', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Enjoys hiking' });
    expect((await retrieve({ apiKeyId, query: 'hiking', maxTokens: 0 })).skipped).toBe('ZERO_BUDGET');
    await app.ok(UPDATE_SETTINGS, { input: { enabled: false } });
    const off = await retrieve({ apiKeyId, query: 'hiking' });
    const dry = await preview({ apiKeyId, query: 'hiking' });
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    expect(off).toMatchObject({ skipped: 'DISABLED', items: [] });
    expect(contents(dry)).toEqual(['Enjoys hiking']);
  });

  it('rejects a budget outside 0 to 16000', async () => {
    for (const maxTokens of [-1, 16_001]) {
      expect(onlyError(await app.gql(RETRIEVE, { input: { apiKeyId: key(), query: 'x', maxTokens } })).extensions?.code).toBe(
        'BAD_USER_INPUT',
      );
    }
  });
});

describe('side effects', () => {
  it('retrieve counts accesses and hits; the preview changes nothing', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Owns a red bicycle' });
    await preview({ apiKeyId, query: 'bicycle' });
    const before = (await app.ok(MEMORY_STATS, { apiKeyId })).memories.stats;
    expect(before).toMatchObject({ retrievals: 0, hitRate: null });
    await retrieve({ apiKeyId, query: 'bicycle' });
    await retrieve({ apiKeyId, query: 'submarine' });
    const r = await preview({ apiKeyId, query: 'bicycle' });
    expect(r.items[0]?.memory.accessCount).toBe(1);
    expect((await app.ok(MEMORY_STATS, { apiKeyId })).memories.stats).toMatchObject({ retrievals: 2, hitRate: 0.5 });
  });

  // FTS5's segments, which an index rewrite on every access-count update would grow. PostgreSQL's keyword trigger
  // fires only on a change of content, key or API key (migrations/postgres 002), like SQLite's.
  it.skipIf(testStoreKind() === 'postgres')('does not grow the keyword index however often memories are retrieved', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Plays the cello on Sundays' });
    const size = () => app.database.sqlite.prepare(`select count(*) as n, sum(length(block)) as bytes from memories_fts_data`).get();
    const before = size();
    for (let i = 0; i < 50; i++) await retrieve({ apiKeyId, query: 'cello' });
    expect(size()).toEqual(before);
  });
});

describe('tenancy', () => {
  it('a token bound to one key cannot retrieve or preview another key', async () => {
    const token = await app.mintToken({ apiKeyId: 'tenant-a' });
    await create({ apiKeyId: 'tenant-b', content: 'secret plans of tenant b' });
    for (const doc of [RETRIEVE, RETRIEVE_PREVIEW]) {
      const res = await app.gql<unknown>(doc, { input: { apiKeyId: 'tenant-b', query: 'secret plans' } }, token);
      expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
    }
    const own = await app.ok(RETRIEVE, { input: { query: 'secret plans' } }, token);
    expect(own.retrieve.items).toEqual([]);
  });

  it("ranks a key's memories by its own word statistics, whatever other keys store", async () => {
    // A database of its own in which every memory has three words, so the one statistic BM25 takes from the
    // whole index, the average memory length, is the same before and after.
    const own = await startTestApp();
    try {
      const apiKeyId = 'stats-a';
      for (const content of ['rust compiler tips', 'python packaging tips', 'rust borrow checker'])
        await own.ok(CREATE_MEMORY, { input: { apiKeyId, content } });
      const ranking = async () =>
        (await own.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: 'rust tips' } })).retrievePreview.items.map(
          (i) => [i.memory.content, i.keywordScore] as const,
        );
      const before = await ranking();
      // Everywhere else "rust" becomes a common word: statistics over all keys would now weigh it less here.
      const others = Array.from({ length: 40 }, (_, i) => ({ apiKeyId: `stats-other-${i}`, content: 'rust borrow checker' }));
      await own.ok(IMPORT_MEMORIES, { memories: others });
      const after = await ranking();
      expect(before.map(([content]) => content)).toEqual(['rust compiler tips', 'rust borrow checker', 'python packaging tips']);
      expect(after.map(([content]) => content)).toEqual(before.map(([content]) => content));
      for (const [i, [, score]] of after.entries()) expect(score).toBeCloseTo(before[i]![1]!, 9);
    } finally {
      await own.close();
    }
  });

  it('finds a word written with or without its accents', async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Meets the team at the café near the station' });
    await create({ apiKeyId, content: 'Orders a creme brulee for dessert' });
    expect(contents(await retrieve({ apiKeyId, query: 'which cafe' }))).toEqual(['Meets the team at the café near the station']);
    expect(contents(await retrieve({ apiKeyId, query: 'crème brûlée' }))).toEqual(['Orders a creme brulee for dessert']);
  });

  it("finds only the key's own memories when other keys hold the same words", async () => {
    const apiKeyId = key();
    await create({ apiKeyId, content: 'Prefers oolong tea' });
    await app.ok(IMPORT_MEMORIES, {
      memories: Array.from({ length: 30 }, (_, i) => ({ apiKeyId: `${apiKeyId}-n${i}`, content: `Prefers oolong tea, batch ${i}` })),
    });
    const r = await retrieve({ apiKeyId, query: 'oolong tea' });
    expect(contents(r)).toEqual(['Prefers oolong tea']);
  });
});
