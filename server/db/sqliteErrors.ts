import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from './open.ts';

/** SQLite's extended result code of an error from better-sqlite3 ('SQLITE_FULL', 'SQLITE_IOERR_WRITE'), else null. */
export function sqliteCode(error: unknown): string | null {
  return error instanceof SQLite.SqliteError ? error.code : null;
}

/**
 * Why SQLite refused one row of a batch (a constraint, a trigger, a value too big or malformed), as a reason to report
 * for that row alone; null when the error is not about the row (a full disk, a lock, a bug) and must fail the batch.
 */
export function rowRefusal(error: unknown): string | null {
  const code = sqliteCode(error);
  if (code === null || !/^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|ERROR$)/.test(code)) return null;
  return `the database refused this row (${code})`;
}

/** Runs `work` in a savepoint of the open transaction `trx`: when it throws, only its own changes are undone. */
export async function inSavepoint<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  await sql`savepoint batch_row`.execute(trx);
  try {
    const result = await work();
    await sql`release batch_row`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to batch_row`.execute(trx);
    await sql`release batch_row`.execute(trx);
    throw error;
  }
}
