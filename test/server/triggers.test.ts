import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGERS } from '../../server/db/triggers.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';
import { testStoreKind } from '../helpers/testStore.ts';

const store = testStoreKind();

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  // The vector triggers exist once the vec0 table is built for a model (SQLite: on PostgreSQL vectors live in Qdrant).
  if (store === 'sqlite')
    await t.services.vectors.index.prepare({ source: 'static', model: 'test/list', dimension: 4, quantization: 'none' });
});
afterAll(() => t.close());

/** The triggers the database has: SQLite's schema table, or PostgreSQL's catalogue (user triggers, not constraints'). */
async function databaseTriggers(): Promise<string[]> {
  const { rows } =
    store === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(t.database.db)
      : await sql<{ name: string }>`select tgname as name from pg_trigger where not tgisinternal`.execute(t.database.db);
  return rows.map((r) => r.name).sort();
}

describe('the write path', () => {
  it(`lists every trigger the database has, and no other (${store})`, async () => {
    const listed = TRIGGERS.filter((tr) => !tr.stores || tr.stores.includes(store)).map((tr) => tr.name);
    expect(await databaseTriggers()).toEqual(listed.sort());
  });
});
