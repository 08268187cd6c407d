import { sql } from 'kysely';
import type { Db } from '../open.ts';
import { BUSY_TIMEOUT_MS } from './busyTimeout.ts';

/** Merge steps one maintenance run may take: about 10,000 pages written, a bounded pause for requests. */
export const MERGE_STEPS_PER_RUN = 20;

/**
 * Run hourly by long-lived processes: keeps query plans right and the keyword index compact. Like every other
 * statement it goes through Kysely, so it waits for a request's open transaction instead of running inside it.
 */
export async function optimizeDatabase(db: Db) {
  await sql`pragma optimize`.execute(db);
  await mergeKeywordIndex(db, MERGE_STEPS_PER_RUN);
  // Finishes what an erase could not (another process was reading the log then): see emptyWalNow.
  await emptyWalNow(db);
}

/**
 * Every write transaction adds a small segment to the FTS5 index, and FTS5 only merges them in fours, so a
 * server that stores memories one at a time searches dozens of segments per query term (measured: a term's
 * setup cost fell by half to three quarters once merged). A negative 'merge' is an incremental 'optimize':
 * each step writes about 500 pages, so one step blocks for a bounded time, and requests run between steps.
 */
export async function mergeKeywordIndex(db: Db, maxSteps = Infinity) {
  for (let step = 0; step < maxSteps; step++) {
    // One step on one connection, so its change count is its own.
    const changed = await db.connection().execute(async (conn) => {
      const before = await totalChanges(conn);
      await sql`insert into memories_fts(memories_fts, rank) values ('merge', -500)`.execute(conn);
      return (await totalChanges(conn)) - before;
    });
    // FTS5's documented signal: fewer than two changes means there was nothing left to merge.
    if (changed < 2) return;
  }
}

async function totalChanges(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(db);
  return rows[0]!.n;
}

/**
 * Moves the write-ahead log into the database file and empties it, so the file alone holds everything
 * (for a shutdown, and before a file copy); returns whether every frame could be moved (no reader held one).
 */
export async function checkpointWal(db: Db): Promise<boolean> {
  const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return rows[0]?.busy === 0;
}

/**
 * After an erase (a delete, a clear, a forget, a purge pass): the write-ahead log still holds the pages as they were
 * before, deleted text included, until it is checkpointed and emptied. This does it at once, without waiting: while
 * another process reads the log (a backup, say), it moves what it can and returns false, and the hourly maintenance
 * empties it later. Waiting (up to the busy timeout) would hold every request behind it.
 */
export async function emptyWalNow(db: Db): Promise<boolean> {
  return db.connection().execute(async (conn) => {
    await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      return await checkpointWal(conn);
    } finally {
      await sql.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(conn);
    }
  });
}
