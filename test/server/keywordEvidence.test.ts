import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMemories } from '../../server/memory/import.service.ts';
import { isEvidence } from '../../server/retrieval/keywordEvidence.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// The keyword half of HYBRID's relevance floor: a keyword match is no evidence when the key knows almost none of the
// query's words, or when the memory matched only words that a fifth of a large key's memories hold.

describe('keyword evidence', () => {
  it('counts a match when the key holds a fifth of the query words or more', () => {
    // Five words, one of them held: a short question is never judged unknown while a word of it is known.
    expect(isEvidence([0], { memories: 12, holding: [3, 0, 0, 0, 0] })).toBe(true);
    // Six words, one held: the query is about something the key never spoke of.
    expect(isEvidence([0], { memories: 12, holding: [3, 0, 0, 0, 0, 0] })).toBe(false);
    expect(isEvidence([0, 1], { memories: 12, holding: [3, 1, 0, 0, 0, 0] })).toBe(true);
  });

  it('counts no match on words a fifth of a large key holds, and at least 50 of its memories', () => {
    expect(isEvidence([0], { memories: 5000, holding: [1500] })).toBe(false);
    // One rarer word among them is evidence.
    expect(isEvidence([0, 1], { memories: 5000, holding: [1500, 12] })).toBe(true);
    // Held by a fifth, but by too few memories to call it common: in a small key, that is its topic.
    expect(isEvidence([0], { memories: 36, holding: [25] })).toBe(true);
    // Held by 60 memories, but by too small a share of them.
    expect(isEvidence([0], { memories: 5000, holding: [60] })).toBe(true);
  });
});

describe('keyword evidence in retrieval', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb();
    await t.services.settings.update({ enabled: true, strategy: 'HYBRID' });
    // 60 of 100 memories hold the word "2".
    const memories = [
      ...Array.from({ length: 60 }, (_, i) => ({ apiKeyId: 'lab', content: `Run ${i + 100} used 2 plates` })),
      ...Array.from({ length: 40 }, (_, i) => ({ apiKeyId: 'lab', content: `Freezer ${i + 500} holds reagent stock` })),
    ];
    const report = await importMemories(t.services, memories, () => true);
    expect(report.imported).toBe(100);
  });
  afterAll(() => t.close());

  it('injects nothing for a chat line that matches only a common word, and says so in the receipt', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'lab', query: 'what is 2+2?' }, { record: false, receipt: true });
    expect(result.items).toEqual([]);
    expect(result.resolution.belowFloor).toBeGreaterThan(0);
    expect(new Set(result.receipt?.leftOut.map((c) => c.reason))).toEqual(new Set(['below_floor']));
  });

  it('still answers a question whose rarer word is held', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'lab', query: 'How many plates did run 117 use?' }, { record: false });
    // The other runs matched "run", "plates" and "use" alone, which most of the key's memories hold.
    expect(result.items.map((i) => i.memory.content)).toEqual(['Run 117 used 2 plates']);
  });
});
