import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { DELETE_MEMORY, EXTRACT_FACTS, IMPORT_MEMORIES, UPDATE_MEMORY, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

const CREATE = graphql(`
  mutation ParaphraseCreate($input: MemoryInput!) {
    createMemory(input: $input) {
      id
      key
      content
      mentions
      lastSeenAt
      writeOutcome
    }
  }
`);

const LIST = graphql(`
  query ParaphraseList($apiKeyId: String!) {
    memories(apiKeyId: $apiKeyId, limit: 100, source: FACTS) {
      totalCount
      items {
        id
        content
        mentions
      }
    }
  }
`);

const HISTORY = graphql(`
  query ParaphraseHistory($id: ID!) {
    memoryHistory(id: $id) {
      content
      reason
      changedBy
    }
  }
`);

const EXTRACT = graphql(`
  mutation ParaphraseExtract($input: ExtractFactsInput!) {
    extractFacts(input: $input) {
      merged
      memories {
        writeOutcome
      }
    }
  }
`);

const IMPORT_MERGED = graphql(`
  mutation ParaphraseImport($memories: [MemoryInput!]!) {
    importMemories(memories: $memories) {
      imported
      updated
      merged
    }
  }
`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const create = (apiKeyId: string, content: string, more: { sessionId?: string; type?: 'FACTUAL' | 'SEMANTIC'; key?: string } = {}) =>
  app.ok(CREATE, { input: { apiKeyId, content, ...more } }).then((d) => d.createMemory);
const list = (apiKeyId: string) => app.ok(LIST, { apiKeyId }).then((d) => d.memories);

/** Five facts, each said three ways (the duplicate-growth case). */
const FIVE_FACTS_THREE_WAYS = [
  ['I prefer dark mode.', 'I really prefer the dark mode!', 'Honestly I prefer dark themes.'],
  ['I live in Berlin.', 'I actually live in Berlin!', 'Honestly, I live in Berlin.'],
  ['I like Python.', 'I really like Python a lot.', 'Python is something I like.'],
  ['My favourite editor is Helix.', 'My favorite editor is Helix!', 'Helix is my favourite editor.'],
  ['I drink coffee every morning.', 'Every morning I drink coffee.', 'I drink a coffee each morning.'],
];

/** Facts that are near one another but not the same: none may be merged into another. */
const NEAR_BUT_DIFFERENT = [
  'I prefer dark mode.',
  'I prefer light mode.',
  'I like Python.',
  'I like Rust.',
  "I don't like Python.",
  'My sister likes Python.',
  'I live in Berlin.',
  'My sister lives in Berlin.',
  'I used to live in Berlin.',
  'I prefer tabs over spaces.',
  'I prefer spaces over tabs.',
  'I drink coffee every morning.',
  'I drink tea every morning.',
  'I have 2 cats.',
  'I have 3 cats.',
  'The meeting is in room 3 at 5.',
  'The meeting is in room 5 at 3.',
  'I would like to live in Lyon.',
  'I work at Google.',
  'I worked at Google.',
];

describe('one memory per fact', () => {
  it('merges the three wordings of the dark mode preference into one memory, mentioned three times', async () => {
    const [first, second, third] = [
      await create('para-1', 'I prefer dark mode.'),
      await create('para-1', 'I really prefer the dark mode!'),
      await create('para-1', 'Honestly I prefer dark themes.'),
    ];
    expect([first.writeOutcome, second.writeOutcome, third.writeOutcome]).toEqual(['CREATED', 'MERGED', 'MERGED']);
    expect(third).toMatchObject({ id: first.id, content: 'I prefer dark mode.', mentions: 3 });
    expect(third.lastSeenAt).not.toBeNull();
    expect((await list('para-1')).totalCount).toBe(1);
  });

  it('keeps the other wordings in the history, as merged paraphrases by their writer', async () => {
    const first = await create('para-2', 'I prefer dark mode.');
    await create('para-2', 'Honestly I prefer dark themes.');
    expect((await app.ok(HISTORY, { id: first.id })).memoryHistory).toEqual([
      { content: 'Honestly I prefer dark themes.', reason: 'merged paraphrase', changedBy: 'admin' },
    ]);
  });

  it('keeps only the newest historyVersionsKept of the wordings merged into a memory', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 2 } });
    try {
      const first = await create('para-kept', 'I prefer dark mode.');
      for (const wording of ['I really prefer the dark mode!', 'Honestly I prefer dark themes.', 'I do prefer dark mode.']) {
        expect((await create('para-kept', wording)).writeOutcome).toBe('MERGED');
      }
      expect((await app.ok(HISTORY, { id: first.id })).memoryHistory.map((v) => v.content)).toEqual([
        'I do prefer dark mode.',
        'Honestly I prefer dark themes.',
      ]);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 20 } });
    }
  });

  it('keeps the more specific wording current, the other in the history', async () => {
    const first = await create('para-3', 'I live in Berlin.');
    const merged = await create('para-3', 'I live in Berlin, Germany.');
    expect(merged).toMatchObject({ id: first.id, content: 'I live in Berlin, Germany.', mentions: 2, writeOutcome: 'MERGED' });
    expect((await app.ok(HISTORY, { id: first.id })).memoryHistory[0]).toMatchObject({
      content: 'I live in Berlin.',
      reason: 'merged paraphrase',
    });
  });

  it('leaves at most 6 memories after 15 inserts of 5 facts said 3 ways each', async () => {
    for (const wordings of FIVE_FACTS_THREE_WAYS) for (const text of wordings) await create('para-4', text);
    const { totalCount } = await list('para-4');
    expect(totalCount).toBeLessThanOrEqual(6);
  });

  it('merges none of a set of near but different facts', async () => {
    for (const text of NEAR_BUT_DIFFERENT) await create('para-5', text);
    expect((await list('para-5')).totalCount).toBe(NEAR_BUT_DIFFERENT.length);
  });

  it('never merges across API keys, sessions or types', async () => {
    await create('para-6a', 'I prefer dark mode.');
    expect((await create('para-6b', 'I really prefer the dark mode!')).writeOutcome).toBe('CREATED');
    expect((await create('para-6a', 'I really prefer the dark mode!', { sessionId: 's1' })).writeOutcome).toBe('CREATED');
    expect((await create('para-6a', 'Honestly I prefer dark themes.', { type: 'SEMANTIC' })).writeOutcome).toBe('CREATED');
  });

  it('writes the same words said in another session to the memory that holds them, never to a second one', async () => {
    const first = await create('para-6c', 'I prefer dark mode.', { sessionId: 's1' });
    const again = await create('para-6c', 'I prefer dark mode.', { sessionId: 's2' });
    expect(again).toMatchObject({ id: first.id, writeOutcome: 'UPDATED' });
    expect((await list('para-6c')).totalCount).toBe(1);
  });

  it("merges a caller's own key into another key's memory only when the content words are the same", async () => {
    await create('para-7', 'I live in Berlin.', { key: 'home' });
    expect((await create('para-7', 'I live in Berlin, Germany.', { key: 'city' })).writeOutcome).toBe('CREATED');
    expect((await create('para-7', 'Honestly, I live in Berlin!', { key: 'where' })).writeOutcome).toBe('MERGED');
  });

  it('merges nothing with mergeParaphrases off', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { mergeParaphrases: false } });
    try {
      await create('para-8', 'I prefer dark mode.');
      expect((await create('para-8', 'I really prefer the dark mode!')).writeOutcome).toBe('CREATED');
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { mergeParaphrases: true } });
    }
  });

  it('merges the facts extraction finds in paraphrased messages, and says how many it merged', async () => {
    const said = (text: string) => app.ok(EXTRACT, { input: { apiKeyId: 'para-9', text, role: 'USER' } });
    await said('I prefer dark mode.');
    const second = await said('I really prefer the dark mode!');
    await said('Honestly I prefer dark themes.');
    expect(second.extractFacts).toMatchObject({ merged: 1, memories: [{ writeOutcome: 'MERGED' }] });
    const facts = (await list('para-9')).items;
    expect(facts).toEqual([expect.objectContaining({ content: 'Prefers dark mode', mentions: 3 })]);
  });

  it('merges keyless import rows into the stored memory and into each other, and reports them apart', async () => {
    await create('para-10', 'I prefer dark mode.');
    const report = await app.ok(IMPORT_MERGED, {
      memories: [
        { apiKeyId: 'para-10', content: 'Honestly I prefer dark themes.' },
        { apiKeyId: 'para-10', content: 'I like Rust.' },
        { apiKeyId: 'para-10', content: 'I really like Rust.' },
        { apiKeyId: 'para-10', key: 'rust', content: 'I like Rust a lot.' },
      ],
    });
    expect(report.importMemories).toEqual({ imported: 2, updated: 0, merged: 2 });
    expect((await list('para-10')).items.map((m) => [m.content, m.mentions]).sort()).toEqual([
      ['I like Rust a lot.', 1],
      ['I like Rust.', 2],
      ['I prefer dark mode.', 2],
    ]);
  });

  it('changes nothing when the same keyless rows are imported again', async () => {
    await create('para-12', 'I prefer dark mode.');
    const rows = [
      { apiKeyId: 'para-12', content: 'Honestly I prefer dark themes.' },
      { apiKeyId: 'para-12', content: 'I like Rust.' },
      { apiKeyId: 'para-12', content: 'I really like Rust.' },
    ];
    const state = async () => {
      const { items } = await list('para-12');
      const histories = await Promise.all(items.map((m) => app.ok(HISTORY, { id: m.id }).then((d) => d.memoryHistory.length)));
      return items.map((m, i) => [m.content, m.mentions, histories[i]]).sort();
    };
    expect((await app.ok(IMPORT_MERGED, { memories: rows })).importMemories).toEqual({ imported: 1, updated: 0, merged: 2 });
    const once = await state();
    // Each row's wording is already one its memory holds: the rows are reported where they went, and nothing is written.
    expect((await app.ok(IMPORT_MERGED, { memories: rows })).importMemories).toEqual({ imported: 0, updated: 1, merged: 2 });
    expect(await state()).toEqual(once);
  });

  it('imports an export again as it was: rows with keys are never merged', async () => {
    const rows = [
      { apiKeyId: 'para-11', key: 'a', content: 'I prefer dark mode.' },
      { apiKeyId: 'para-11', key: 'b', content: 'I really prefer the dark mode!' },
    ];
    expect((await app.ok(IMPORT_MEMORIES, { memories: rows })).importMemories).toMatchObject({ imported: 2 });
  });
});

describe('the fact index', () => {
  /** How many rows the fact index holds for a memory. */
  const indexRows = async (id: string) => {
    const rows = await app.services.db
      .selectFrom('memory_fact_signatures')
      .innerJoin('memories', 'memories.pk', 'memory_fact_signatures.memory_pk')
      .select('signature')
      .where('memories.id', '=', id)
      .execute();
    return rows.length;
  };

  it('merges a longer fact restated with one more word, whichever word it adds', async () => {
    const first = await create('sig-1', 'I like hiking in the Alps on weekends.');
    const merged = await create('sig-1', 'I like hiking in the Swiss Alps on weekends.');
    expect(merged).toMatchObject({ id: first.id, content: 'I like hiking in the Swiss Alps on weekends.', writeOutcome: 'MERGED' });
  });

  it('merges a shorter restatement into the more specific fact, which keeps its wording', async () => {
    const first = await create('sig-5', 'I live in Berlin, Germany.');
    const merged = await create('sig-5', 'I live in Berlin.');
    expect(merged).toMatchObject({ id: first.id, content: 'I live in Berlin, Germany.', writeOutcome: 'MERGED' });
  });

  it('merges a restatement of what an edit made the memory say, and not of what it said before', async () => {
    const memory = await create('sig-2', 'I prefer dark mode.');
    await app.ok(UPDATE_MEMORY, { id: memory.id, input: { content: 'I drink green tea every morning.' } });
    expect((await create('sig-2', 'Every morning I drink green tea.')).writeOutcome).toBe('MERGED');
    expect((await create('sig-2', 'Honestly I prefer dark themes.')).writeOutcome).toBe('CREATED');
  });

  it('indexes a short fact with each of its words left out, and follows its edits', async () => {
    const memory = await create('sig-3', 'I live in Berlin, Germany.');
    // live, berlin, germany: the three words, and each pair.
    expect(await indexRows(memory.id)).toBe(4);
    await app.ok(UPDATE_MEMORY, { id: memory.id, input: { content: 'I prefer tabs over spaces.' } });
    // Where order counts, only the whole wording is the same fact.
    expect(await indexRows(memory.id)).toBe(1);
  });

  it('holds nothing of a captured chat turn, only of the facts said in it', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { captureTurns: 'USER' } });
    try {
      const input = { apiKeyId: 'sig-6', sessionId: 's1', role: 'USER' as const, text: 'I live in Lisbon, Portugal.' };
      const said = (await app.ok(EXTRACT_FACTS, { input })).extractFacts;
      expect(said.captured).toHaveLength(1);
      expect(await indexRows(said.captured[0]!.id)).toBe(0);
      expect(await indexRows(said.memories[0]!.id)).toBeGreaterThan(0);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { captureTurns: 'OFF' } });
    }
  });

  it("keeps none of a deleted memory's rows", async () => {
    const memory = await create('sig-4', 'I live in Berlin, Germany.');
    const pk = (await app.services.db.selectFrom('memories').select('pk').where('id', '=', memory.id).executeTakeFirstOrThrow()).pk;
    await app.ok(DELETE_MEMORY, { id: memory.id });
    const left = await app.services.db.selectFrom('memory_fact_signatures').select('signature').where('memory_pk', '=', pk).execute();
    expect(left).toEqual([]);
  });
});
