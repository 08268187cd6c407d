import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open.ts';
import { rowCount } from '../../server/db/rowCount.ts';

// SQLite prepares a statement again on every run when its LIMIT or OFFSET is a bound parameter, so row counts are
// written into its SQL text instead (server/db/rowCount.ts).
let dir: string;
let store: ReturnType<typeof openDatabase>;
let db: Kysely<{ numbers: { n: number } }>;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-row-limits-'));
  store = openDatabase(path.join(dir, 'mnemo.db'));
  db = store.db as unknown as typeof db;
  await sql`create table numbers (n integer primary key)`.execute(db);
  await sql`insert into numbers (n) values (1), (2), (3), (4), (5)`.execute(db);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (limit: number, offset: number) => db.selectFrom('numbers').select('n').orderBy('n').limit(limit).offset(offset);

describe('a row limit on SQLite', () => {
  it('is part of the statement text, not a parameter', () => {
    const compiled = page(2, 3).compile();
    expect(compiled.sql).toMatch(/ limit 2 offset 3$/u);
    expect(compiled.parameters).toEqual([]);
  });

  it('still limits the rows and skips the offset', async () => {
    expect((await page(2, 1).execute()).map((r) => r.n)).toEqual([2, 3]);
    expect((await page(10, 4).execute()).map((r) => r.n)).toEqual([5]);
  });

  it('stays a parameter when it is not a whole number of rows', () => {
    const compiled = db.selectFrom('numbers').select('n').limit(2.5).compile();
    expect(compiled.sql).toMatch(/ limit \?$/u);
    expect(compiled.parameters).toEqual([2.5]);
  });

  it('is written into a SQL template, and refuses what is not a row count', async () => {
    const { rows } = await sql<{ n: number }>`select n from numbers order by n desc limit ${rowCount(2)}`.execute(db);
    expect(rows.map((r) => r.n)).toEqual([5, 4]);
    expect(sql`select 1 limit ${rowCount(7)}`.compile(db).sql).toBe('select 1 limit 7');
    expect(() => rowCount(Number.NaN)).toThrow(RangeError);
    expect(() => rowCount(1.5)).toThrow(RangeError);
  });
});
