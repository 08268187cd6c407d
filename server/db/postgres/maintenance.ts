import type { Db } from '../open.ts';

// PostgreSQL keeps its own house: autovacuum refreshes the planner's statistics and merges the keyword index's pending
// entries, and the server checkpoints and recycles its write-ahead log.

export async function optimizeDatabase(_db: Db) {}

export async function mergeKeywordIndex(_db: Db, _maxSteps?: number) {}

/** The server checkpoints its own log; there is nothing for mnemo to move. */
export async function checkpointWal(_db: Db): Promise<boolean> {
  return true;
}
