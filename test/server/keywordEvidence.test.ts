import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMemories } from '../../server/memory/import.service.ts';
import { asksSomething, englishWord, isEvidence, isTelling } from '../../server/retrieval/keywordEvidence.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// The keyword half of HYBRID's relevance floor: a memory that shares a single word with the query is no evidence when
// that word is common (a fifth of a large key's memories hold it, or it is a number of one or two digits); and a query
// none of whose evidence shares a telling word with it (outside English's everyday words, or held by a twentieth of the
// key's memories) gets nothing.

/** A database with memory on (HYBRID) holding these memories, every one of them imported. */
async function holding(memories: Parameters<typeof importMemories>[1]): Promise<TestDb> {
  const t = await openTestDb();
  await t.services.settings.update({ enabled: true, strategy: 'HYBRID' });
  const report = await importMemories(t.services, memories, () => true);
  expect(report.imported).toBe(memories.length);
  return t;
}

describe('keyword evidence', () => {
  const words = (n: number) => ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'].slice(0, n);

  it('counts no match on a single word a fifth of a large key holds, and at least 50 of its memories', () => {
    expect(isEvidence(words(1), [0], { memories: 5000, holding: [1500] })).toBe(false);
    // Two shared words are evidence however common each is: a key all about "project falcon".
    expect(isEvidence(words(2), [0, 1], { memories: 5000, holding: [1500, 1200] })).toBe(true);
    // Held by a fifth, but by too few memories to call it common: in a small key, that is its topic.
    expect(isEvidence(words(1), [0], { memories: 36, holding: [25] })).toBe(true);
    // Held by 60 memories, but by too small a share of them.
    expect(isEvidence(words(1), [0], { memories: 5000, holding: [60] })).toBe(true);
  });

  it('counts no match on a number of one or two digits alone, in a key of any size', () => {
    expect(isEvidence(['2'], [0], { memories: 14, holding: [7] })).toBe(false);
    expect(isEvidence(['option', '2'], [1], { memories: 14, holding: [1, 7] })).toBe(false);
    expect(isEvidence(['option', '2'], [0], { memories: 14, holding: [1, 7] })).toBe(true);
    expect(isEvidence(['option', '2'], [0, 1], { memories: 14, holding: [1, 7] })).toBe(true);
    // A year is no small number.
    expect(isEvidence(['2019'], [0], { memories: 14, holding: [2] })).toBe(true);
  });
});

describe('keyword evidence in retrieval', () => {
  let t: TestDb;
  beforeAll(async () => {
    // 60 of 100 memories hold the words "plates" and "2".
    const memories = [
      ...Array.from({ length: 60 }, (_, i) => ({ apiKeyId: 'lab', content: `Run ${i + 100} used 2 plates` })),
      ...Array.from({ length: 40 }, (_, i) => ({ apiKeyId: 'lab', content: `Freezer ${i + 500} holds buffer stock` })),
    ];
    t = await holding(memories);
  });
  afterAll(() => t.close());

  it('injects nothing for a chat line that matches only a common word, and says so in the receipt', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'lab', query: 'any plates?' }, { record: false, receipt: true });
    expect(result.items).toEqual([]);
    expect(result.resolution.belowFloor).toBeGreaterThan(0);
    expect(new Set(result.receipt?.leftOut.map((c) => c.reason))).toEqual(new Set(['below_floor']));
  });

  it('still answers a question whose rarer word is held', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'lab', query: 'How many plates did run 117 use?' }, { record: false });
    expect(result.items[0]?.memory.content).toBe('Run 117 used 2 plates');
  });
});

describe('English word frequency', () => {
  it('ranks a word by the most common word sharing its stem, as the keyword index stems it', () => {
    expect(englishWord('the')?.rank).toBe(0);
    expect(englishWord('Trips')?.rank).toBe(englishWord('trip')?.rank);
    // Past the table's end: a rarer word than any everyday one.
    expect(englishWord('lasagna')).toBeUndefined();
  });

  it('knows which everyday words name a thing', () => {
    expect(englishWord('Japan')?.namesAThing).toBe(true);
    expect(englishWord('trips')?.namesAThing).toBe(true);
    expect(englishWord('good')?.namesAThing).toBe(false);
    expect(englishWord('sounds')?.namesAThing).toBe(false);
  });

  it('counts an everyday word as telling only when a twentieth of the key holds it', () => {
    expect(isTelling('briefly', 3, 5183, false)).toBe(false);
    expect(isTelling('briefly', 1, 24, false)).toBe(false);
    expect(isTelling('briefly', 300, 5183, false)).toBe(true);
    // A key of twenty memories or fewer: every word it holds is telling.
    expect(isTelling('briefly', 1, 20, false)).toBe(true);
  });

  it('knows the formulas of chat, however rarely newswire says them', () => {
    for (const word of ['thanks', 'okay', 'hello', 'sorry', 'lol']) expect(englishWord(word)?.formula, word).toBe(true);
    expect(englishWord('Japan')?.formula).toBe(false);
    expect(englishWord('good')?.formula).toBe(false);
  });

  it('never counts a chat formula as telling, in a small key or a question alike', () => {
    expect(isTelling('thanks', 300, 5183, false)).toBe(false);
    expect(isTelling('okay', 1, 2, true)).toBe(false);
  });

  it('counts an everyday adjective or verb the key repeats as telling only when the query asks something', () => {
    expect(isTelling('good', 15, 24, false)).toBe(false);
    expect(isTelling('sounds', 10, 44, false)).toBe(false);
    expect(isTelling('good', 15, 24, true)).toBe(true);
    expect(isTelling('sounds', 10, 44, true)).toBe(true);
  });

  it('counts a less common everyday word the key holds as telling even in a message that asks nothing', () => {
    expect(isTelling('deploy', 1, 4, false)).toBe(true);
    expect(isTelling('deploy', 1, 40, false)).toBe(false);
  });

  it('counts an everyday word that names a thing as telling when the key repeats it, whoever is asked about', () => {
    expect(isTelling('Japan', 6, 12, false)).toBe(true);
    expect(isTelling('trips', 25, 36, false)).toBe(true);
  });

  it.each(['when do deploys run?', 'which editor do I use', 'What did you recommend', 'my sister lives in Lyon'])(
    'reads %j as asking something',
    (query) => expect(asksSomething(query)).toBe(true),
  );

  it.each(['ok, sounds good', 'thanks!', 'write a haiku about rain'])('reads %j as asking nothing', (query) =>
    expect(asksSomething(query)).toBe(false),
  );

  it('counts a word outside the everyday ones as telling however few memories hold it', () => {
    expect(isTelling('lasagna', 1, 5183, false)).toBe(true);
  });

  it('never counts a number of one or two digits as telling', () => {
    expect(isTelling('2', 40, 50, false)).toBe(false);
  });
});

describe('the background of English in retrieval', () => {
  let t: TestDb;
  beforeAll(async () => {
    const memories = [
      ...Array.from({ length: 39 }, (_, i) => ({
        apiKeyId: 'samples',
        content: `Sample S-${i + 100} is stored in freezer rack R-${i + 300}`,
      })),
      { apiKeyId: 'samples', content: 'Thanks, that sounds good: the lasagna arrives before the rain' },
      { apiKeyId: 'tiny', content: 'Thanks for the reminder about the dentist' },
      { apiKeyId: 'tiny', content: 'Okay, hello to Sam from the dentist' },
      { apiKeyId: 'tiny', content: 'The dentist is on Elm Street' },
    ];
    t = await holding(memories);
  });
  afterAll(() => t.close());

  it.each(['thanks!', 'ok, sounds good', 'write a haiku about rain'])(
    'injects nothing for the chat line %j, which shares only everyday words with one memory of 40',
    async (query) => {
      const result = await retrieve(t.services, { apiKeyId: 'samples', query }, { record: false, receipt: true });
      expect(result.items).toEqual([]);
      expect(new Set(result.receipt?.leftOut.map((c) => c.reason))).toEqual(new Set(['below_floor']));
    },
  );

  it('answers from the same memory a question that shares a word outside the everyday ones', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'samples', query: 'When does the lasagna arrive?' }, { record: false });
    expect(result.items[0]?.memory.content).toBe('Thanks, that sounds good: the lasagna arrives before the rain');
  });

  it('still answers from a key of twenty memories or fewer, whose every word is telling', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'tiny', query: 'the reminder' }, { record: false });
    expect(result.items.map((i) => i.memory.content)).toContain('Thanks for the reminder about the dentist');
  });

  it.each(['thanks!', 'okay, hello'])('injects nothing for %j, even from a small key whose memory says it', async (query) => {
    const result = await retrieve(t.services, { apiKeyId: 'tiny', query }, { record: false });
    expect(result.items).toEqual([]);
  });
});

describe('a conversation that repeats its everyday words', () => {
  let t: TestDb;
  beforeAll(async () => {
    // 40 captured turns: "good" and "sounds" in a dozen of them, Japan in four.
    const turns = [
      ...['the hotel', 'the ramen place', 'the train pass', 'the museum', 'the budget', 'the packing list'].flatMap((thing, i) => [
        { apiKeyId: 'chat', content: `That sounds good, book ${thing} for day ${i + 10}`, metadata: { role: 'user' } },
        { apiKeyId: 'chat', content: `Good choice: ${thing} is confirmed for day ${i + 10}`, metadata: { role: 'assistant' } },
      ]),
      ...['Kyoto', 'Osaka', 'Nara', 'Tokyo'].map((city) => ({
        apiKeyId: 'chat',
        content: `I spent three days in ${city} when I was in Japan`,
        metadata: { role: 'user' },
      })),
      ...Array.from({ length: 24 }, (_, i) => ({ apiKeyId: 'chat', content: `Invoice ${i + 700} was paid by card ${i + 40}` })),
    ];
    t = await holding(turns);
  });
  afterAll(() => t.close());

  it('injects nothing for a chat line made of the adjectives and verbs it repeats', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'chat', query: 'ok, sounds good' }, { record: false, receipt: true });
    expect(result.items).toEqual([]);
    expect(new Set(result.receipt?.leftOut.map((c) => c.reason))).toEqual(new Set(['below_floor']));
  });

  it('answers a question about the thing it keeps coming back to', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'chat', query: 'How long was the stay in Japan?' }, { record: false });
    expect(result.items[0]?.memory.content).toMatch(/when I was in Japan$/);
  });

  it('answers a question through the same everyday words', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'chat', query: 'which one sounds good?' }, { record: false });
    expect(result.items[0]?.memory.content).toMatch(/^That sounds good, book/);
  });

  it('answers a message about what the user said through the same everyday words', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'chat', query: 'remember I said it sounds good' }, { record: false });
    expect(result.items[0]?.memory.content).toMatch(/^That sounds good, book/);
  });
});

describe('a question naming things the key never speaks of', () => {
  let t: TestDb;
  beforeAll(async () => {
    // 24 turns about a party: "sister" and "party" are the key's topic.
    const turns = [
      ...Array.from({ length: 12 }, (_, i) => ({ apiKeyId: 'party', content: `My sister booked the party hall for ${i + 10} guests` })),
      { apiKeyId: 'party', content: 'My sister ordered a lemon cake for the party' },
      ...Array.from({ length: 11 }, (_, i) => ({ apiKeyId: 'party', content: `Invoice ${i + 700} was paid by card ${i + 40}` })),
    ];
    t = await holding(turns);
  });
  afterAll(() => t.close());

  it('injects nothing when three of its rarer words are held by none of the memories', async () => {
    const query = "Did the espresso grinder and the waffle iron arrive for my sister's party?";
    const result = await retrieve(t.services, { apiKeyId: 'party', query }, { record: false, receipt: true });
    expect(result.items).toEqual([]);
    expect(new Set(result.receipt?.leftOut.map((c) => c.reason))).toEqual(new Set(['below_floor']));
  });

  it('answers when one of its rarer words is held', async () => {
    const query = 'Did the espresso grinder and the lemon cake arrive for the party?';
    const result = await retrieve(t.services, { apiKeyId: 'party', query }, { record: false });
    expect(result.items[0]?.memory.content).toBe('My sister ordered a lemon cake for the party');
  });

  it('answers from the topic a question with fewer rarer words shares with the key', async () => {
    const result = await retrieve(
      t.services,
      { apiKeyId: 'party', query: 'Did the espresso grinder arrive for the party?' },
      { record: false },
    );
    expect(result.items[0]?.memory.content).toMatch(/party/);
  });
});
