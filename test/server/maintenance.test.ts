import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeKeywordIndex, optimizeDatabase } from '../../server/db/maintenance.ts';
import { createMemory, listMemories } from '../../server/memory/memory.service.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';
import { testStoreKind } from '../helpers/testStore.ts';

const onSqlite = testStoreKind() === 'sqlite';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t.close());

const segmentRows = () => (t.database.sqlite.prepare('select count(*) as n from memories_fts_data').get() as { n: number }).n;
const search = async (apiKeyId: string | null, text: string) =>
  (await listMemories(t.services, { apiKeyId, search: text }, { limit: 500 })).items.map((m) => m.content).sort();

// FTS5's segments and SQLite's one connection are SQLite's: PostgreSQL's keyword postings are a B-tree with nothing to
// merge, and its pool gives maintenance a connection of its own.
describe.skipIf(!onSqlite)('keyword index maintenance', () => {
  beforeAll(async () => {
    // One transaction per memory, as a gateway stores them: one small index segment each.
    for (let i = 0; i < 120; i++) await createMemory(t.services, { apiKeyId: `mt-${i % 3}`, content: `note ${i} about topic ${i % 7}` });
  });

  it('merges the segments of many small writes and finds exactly what it found before', async () => {
    const before = { rows: segmentRows(), one: await search('mt-1', 'topic 3'), all: await search(null, 'topic') };
    await mergeKeywordIndex(t.database.db);
    expect(segmentRows()).toBeLessThan(before.rows);
    expect(await search('mt-1', 'topic 3')).toEqual(before.one);
    expect(await search(null, 'topic')).toEqual(before.all);
    expect(before.all).toHaveLength(120);
  });

  it('stops at once when there is nothing left to merge', async () => {
    await mergeKeywordIndex(t.database.db);
    const rows = segmentRows();
    await optimizeDatabase(t.database.db);
    expect(segmentRows()).toBe(rows);
  });

  it("waits for a request's open transaction instead of running inside it", async () => {
    let optimized = false;
    let maintenance: Promise<void> = Promise.resolve();
    // Read before the transaction opens, as the server's own transactions do.
    const settings = await t.services.settings.get();
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        const input = { apiKeyId: 'mt-rolled-back', content: 'written, then rolled back' };
        await createMemory({ ...t.services, db: trx }, input, undefined, { settings });
        maintenance = optimizeDatabase(t.database.db).then(() => {
          optimized = true;
        });
        // Turns of the event loop, not time: a statement on the raw handle would have run by now.
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(optimized).toBe(false);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    await maintenance;
    expect(optimized).toBe(true);
    expect(await search('mt-rolled-back', 'rolled')).toEqual([]);
  });
});

// PostgreSQL reads a key's postings, and its newest memories, from an index alone only on pages its visibility map marks
// all-visible.
describe.skipIf(onSqlite)('visibility upkeep on PostgreSQL', () => {
  const pagesOf = async (table: 'memory_postings' | 'memories') => {
    const { rows } = await sql<{ pages: number; visible: number }>`select relpages as pages, relallvisible as visible
      from pg_class where relname = ${table}`.execute(t.database.db);
    return rows[0]!;
  };
  const allMarked = async (table: 'memory_postings' | 'memories') => {
    const { pages, visible } = await pagesOf(table);
    return pages > 0 && visible === pages;
  };

  it('marks every page of the keyword postings all-visible in the hourly upkeep, and finds what it found before', async () => {
    for (let i = 0; i < 200; i++) await createMemory(t.services, { apiKeyId: `mp-${i % 2}`, content: `posting ${i} about the subject` });
    const before = await search('mp-1', 'subject');
    // VACUUM marks a page only once every row on it is old enough for every transaction to see, which the rows just
    // written become a moment later on this cluster (it commits without waiting for its log): the upkeep runs again.
    await expect
      .poll(async () => {
        await optimizeDatabase(t.database.db);
        return allMarked('memory_postings');
      })
      .toBe(true);
    expect(await search('mp-1', 'subject')).toEqual(before);
    expect(before).toHaveLength(100);
  });

  it("marks every page of the memories all-visible in the hourly upkeep, where a key's newest are read from", async () => {
    for (let i = 0; i < 200; i++) await createMemory(t.services, { apiKeyId: `mv-${i % 2}`, content: `memory ${i} of the two keys` });
    await expect
      .poll(async () => {
        await optimizeDatabase(t.database.db);
        return allMarked('memories');
      })
      .toBe(true);
  });
});
