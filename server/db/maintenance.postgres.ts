import { sql } from 'kysely';
import type { Db } from './open.ts';

// PostgreSQL keeps its own house: autovacuum refreshes the planner's statistics and merges the keyword index's pending
// entries, and the server checkpoints and recycles its write-ahead log. What is left to mnemo is the erasure below.

export async function optimizeDatabase(_db: Db) {}

export async function mergeKeywordIndex(_db: Db, _maxSteps?: number) {}

/** The server checkpoints its own log; there is nothing for mnemo to move. */
export async function checkpointWal(_db: Db): Promise<boolean> {
  return true;
}

/**
 * The tables an erase (a delete, a clear, a forget, a purge pass) leaves dead row versions in: the memories with their
 * indexes and TOAST (content, keys, metadata, the keyword index), the counters and statistics keyed by API key, and
 * the audit log whose rows a forget renames.
 */
const ERASED_TABLES = ['memories', 'memory_counts', 'retrieval_stats', 'audit_log', 'qdrant_outbox'];

/**
 * After an erase: a deleted row stays in its table's pages as a dead version until VACUUM prunes it; this runs it at
 * once on the erased tables, skipping a table another VACUUM (autovacuum, another replica) holds, without waiting.
 * Outside a transaction, as VACUUM must be. PostgreSQL keeps copies beyond mnemo's reach: its write-ahead log until the
 * segments are recycled, archived WAL and base backups, replicas, and freed page space until it is reused.
 */
export async function emptyWalNow(db: Db): Promise<boolean> {
  await sql`vacuum (skip_locked) ${sql.join(ERASED_TABLES.map((t) => sql.table(t)))}`.execute(db);
  return true;
}
