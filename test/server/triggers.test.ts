import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGERS } from '../../server/db/triggers.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  // The vector triggers exist once the vec0 table is built for a model.
  await t.services.vectors.index.prepare({ source: 'static', model: 'test/list', dimension: 4, quantization: 'none' });
});
afterAll(() => t.close());

describe('the write path', () => {
  it('lists every trigger the database has, and no other', async () => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' order by name`.execute(
      t.database.db,
    );
    expect(rows.map((r) => r.name)).toEqual(TRIGGERS.map((tr) => tr.name).sort());
  });
});
