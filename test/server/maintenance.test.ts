import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeKeywordIndex, optimizeDatabase } from '../../server/db/open.ts';
import { createMemory, listMemories } from '../../server/memory/memory.service.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  // One transaction per memory, as a gateway stores them: one small index segment each.
  for (let i = 0; i < 120; i++) await createMemory(t.services, { apiKeyId: `mt-${i % 3}`, content: `note ${i} about topic ${i % 7}` });
});
afterAll(() => t.close());

const segmentRows = () => (t.database.sqlite.prepare('select count(*) as n from memories_fts_data').get() as { n: number }).n;
const search = async (apiKeyId: string | null, text: string) =>
  (await listMemories(t.services, { apiKeyId, search: text }, { limit: 500 })).items.map((m) => m.content).sort();

describe('keyword index maintenance', () => {
  it('merges the segments of many small writes and finds exactly what it found before', async () => {
    const before = { rows: segmentRows(), one: await search('mt-1', 'topic 3'), all: await search(null, 'topic') };
    mergeKeywordIndex(t.database.sqlite);
    expect(segmentRows()).toBeLessThan(before.rows);
    expect(await search('mt-1', 'topic 3')).toEqual(before.one);
    expect(await search(null, 'topic')).toEqual(before.all);
    expect(before.all).toHaveLength(120);
  });

  it('stops at once when there is nothing left to merge', () => {
    mergeKeywordIndex(t.database.sqlite);
    const rows = segmentRows();
    optimizeDatabase(t.database.sqlite);
    expect(segmentRows()).toBe(rows);
  });
});
