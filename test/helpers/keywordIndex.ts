import { sql } from 'kysely';
import type { TestStore } from './testStore.ts';
import { testStoreKind } from './testStore.ts';

/**
 * Reads of the store's keyword index itself, not of a search through it: SQLite's FTS5 tables (memories_fts), or
 * PostgreSQL's memory_search, memory_postings and memory_search_stats (migrations/postgres 002 and 005).
 */

/** How many indexed memories hold `word`, whatever their key. */
export async function indexedMatches(store: TestStore, word: string): Promise<number> {
  if (testStoreKind() === 'sqlite')
    return store.sqlite.prepare('select rowid from memories_fts where memories_fts match ?').all(`"${word}"`).length;
  const { rows } = await sql<{ n: number }>`select count(*)::integer as n from memory_search
    where terms @@ plainto_tsquery('mnemo_english', ${word})`.execute(store.db);
  return rows[0]!.n;
}

/**
 * What changes when the keyword index is written to. SQLite: its segment rows, their bytes and the pages of every FTS
 * table (FTS5 appends a segment on each write, even of the same words). PostgreSQL has no segments: every rewrite of
 * an index row makes a new row version, so each row's ctid and xmin (the transaction that wrote it) tell whether it
 * was rewritten.
 */
export async function keywordIndexFootprint(store: TestStore): Promise<unknown> {
  if (testStoreKind() === 'sqlite') {
    const count = (query: string) => (store.sqlite.prepare(query).get() as { n: number }).n;
    return {
      dataRows: count('select count(*) as n from memories_fts_data'),
      dataBytes: count('select coalesce(sum(length(block)), 0) as n from memories_fts_data'),
      pages: count(`select count(*) as n from dbstat where name like 'memories_fts%'`),
    };
  }
  const { rows: search } = await sql`select pk, ctid::text as ctid, xmin::text as xmin from memory_search order by pk`.execute(store.db);
  const { rows: postings } =
    await sql`select pk, lexeme, ctid::text as ctid, xmin::text as xmin from memory_postings order by pk, lexeme`.execute(store.db);
  const { rows: stats } =
    await sql`select api_key_id, ctid::text as ctid, xmin::text as xmin from memory_search_stats order by api_key_id`.execute(store.db);
  return { search, postings, stats };
}
