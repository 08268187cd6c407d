import { sql } from 'kysely';
import type { Db } from '../open.ts';

// PostgreSQL keeps most of its own house: autovacuum refreshes the planner's statistics and removes dead rows, and the
// server checkpoints and recycles its write-ahead log.

/**
 * Marks the pages of the keyword postings and of the memories all-visible, hourly. PostgreSQL reads a row from an index
 * alone only on a page its visibility map marks all-visible, only VACUUM marks pages, and autovacuum vacuums an
 * insert-only table once a fifth of it is new. The postings' B-tree holds everything a search reads (frequency and
 * length are INCLUDEd): at 10,000 memories of one key, keyword `retrieve` took 0.85× the time once vacuumed. The
 * memories' (API key, updated, pk) index holds a key's newest rows in order: on a table mostly marked, the planner reads
 * them from it alone, where it otherwise read and sorted every row of the key (EXACT, docs/benchmarks.md). VACUUM
 * skips the pages already marked, and takes no lock that a read or a write waits for.
 */
export async function optimizeDatabase(db: Db) {
  await sql`vacuum memory_postings, memories`.execute(db);
}

export async function mergeKeywordIndex(_db: Db, _maxSteps?: number) {}

/** The server checkpoints its own log; there is nothing for mnemo to move. */
export async function checkpointWal(_db: Db): Promise<boolean> {
  return true;
}
