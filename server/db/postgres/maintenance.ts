import { sql } from 'kysely';
import type { Db } from '../open.ts';

// PostgreSQL keeps most of its own house: autovacuum refreshes the planner's statistics and removes dead rows, and the
// server checkpoints and recycles its write-ahead log.

/**
 * Marks the keyword postings' pages all-visible, hourly. Their B-tree holds everything a search reads (frequency and
 * length are INCLUDEd), but PostgreSQL reads a posting from its index alone only on a page its visibility map marks
 * all-visible, and only VACUUM marks pages. Autovacuum vacuums an insert-only table once a fifth of it is new, so a
 * key's recent postings were read from the table, a page each: at 10,000 memories of one key, keyword `retrieve` took
 * 0.85× the time once vacuumed (docs/benchmarks.md). VACUUM skips the pages already marked, and takes no lock that a
 * read or a write waits for.
 */
export async function optimizeDatabase(db: Db) {
  await sql`vacuum memory_postings`.execute(db);
}

export async function mergeKeywordIndex(_db: Db, _maxSteps?: number) {}

/** The server checkpoints its own log; there is nothing for mnemo to move. */
export async function checkpointWal(_db: Db): Promise<boolean> {
  return true;
}
