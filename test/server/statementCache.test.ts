import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../server/db/open.ts';

// SQLite statements are prepared once per SQL text, and their rows read as arrays and named by a function compiled
// for their columns (server/db/sqlite/statementCache.ts): the rows must come out as better-sqlite3 would give them.
let dir: string;
let store: ReturnType<typeof openDatabase>;
let db: Kysely<{ notes: { n: number; body: string; extra?: string } }>;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-statement-cache-'));
  store = openDatabase(path.join(dir, 'mnemo.db'));
  db = store.db as unknown as typeof db;
  await sql`create table notes (n integer primary key, body text)`.execute(db);
  await sql`insert into notes (n, body) values (1, 'one'), (2, null)`.execute(db);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const allNotes = () => db.selectFrom('notes').selectAll().orderBy('n').execute();

describe('rows read from SQLite', () => {
  it('come back as objects named by their columns, nulls and blobs included', async () => {
    expect(await allNotes()).toEqual([
      { n: 1, body: 'one' },
      { n: 2, body: null },
    ]);
    const { rows } = await sql<Record<string, unknown>>`select x'00ff' as bytes, 1.5 as half, 'it''s' as "odd ""name"""`.execute(db);
    expect(rows).toEqual([{ bytes: Buffer.from([0, 255]), half: 1.5, 'odd "name"': "it's" }]);
  });

  it('keep the last value of a repeated name, as better-sqlite3 does', async () => {
    const { rows } = await sql`select 1 as a, 2 as a`.execute(db);
    expect(rows).toEqual([store.sqlite.prepare('select 1 as a, 2 as a').get()]);
    expect(rows).toEqual([{ a: 2 }]);
  });

  it('hold a column named __proto__ as a value, never as the prototype', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 'x' as "__proto__"`.execute(db);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value).toBe('x');
  });

  it('are streamed as objects too', async () => {
    const streamed: unknown[] = [];
    for await (const row of db.selectFrom('notes').select(['n', 'body']).orderBy('n').stream()) streamed.push(row);
    expect(streamed).toEqual([
      { n: 1, body: 'one' },
      { n: 2, body: null },
    ]);
  });

  it('show a column renamed by a migration on this connection under its new name', async () => {
    const { rows } = await sql`select * from notes order by n`.execute(db);
    expect(rows[0]).toEqual({ n: 1, body: 'one' });
    await sql`alter table notes rename column body to text`.execute(db);
    expect((await sql`select * from notes order by n`.execute(db)).rows[0]).toEqual({ n: 1, text: 'one' });
  });

  it('show a column added by another connection to the same file', async () => {
    await allNotes();
    const other = new SQLite(path.join(dir, 'mnemo.db'));
    other.exec(`alter table notes add column extra text default 'elsewhere'`);
    other.close();
    expect((await allNotes())[0]).toEqual({ n: 1, body: 'one', extra: 'elsewhere' });
  });
});

describe('statements on SQLite', () => {
  it('are prepared once per SQL text and run again with new parameters', async () => {
    const prepare = vi.spyOn(store.sqlite, 'prepare');
    const body = (n: number) => db.selectFrom('notes').select('body').where('n', '=', n).executeTakeFirst();
    expect(await body(1)).toEqual({ body: 'one' });
    expect(await body(2)).toEqual({ body: null });
    expect(await body(1)).toEqual({ body: 'one' });
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('report how many rows a write changed, and the rows it returns', async () => {
    const result = await db.updateTable('notes').set({ body: 'two' }).where('n', '=', 2).executeTakeFirst();
    expect(result.numUpdatedRows).toBe(1n);
    const inserted = await db.insertInto('notes').values({ n: 3, body: 'three' }).returning(['n', 'body']).executeTakeFirst();
    expect(inserted).toEqual({ n: 3, body: 'three' });
  });
});
