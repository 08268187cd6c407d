import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { DomainError } from '../errors.ts';
import type { Db } from './open.ts';

/** SQLite's extended result code of an error from better-sqlite3 ('SQLITE_FULL', 'SQLITE_IOERR_WRITE'), else null. */
export function sqliteCode(error: unknown): string | null {
  return error instanceof SQLite.SqliteError ? error.code : null;
}

/**
 * A failure of the storage under the database rather than of a request, as the typed error a client and an operator can
 * act on: STORAGE_FULL when the disk is full, STORAGE_ERROR when the file cannot be read, written or trusted (an I/O
 * error, corruption, a read-only file). Null for anything else.
 */
export function storageFault(error: unknown): DomainError | null {
  const code = sqliteCode(error);
  if (code === 'SQLITE_FULL') {
    return new DomainError(
      'STORAGE_FULL',
      'the database cannot grow: its disk is full; free space on it (or move the data folder), then retry',
      {
        cause: error,
      },
    );
  }
  if (code !== null && /^SQLITE_(IOERR|CORRUPT|NOTADB|READONLY|CANTOPEN)/.test(code)) {
    return new DomainError('STORAGE_ERROR', `the database file could not be read or written (${code}); an operator must check its disk`, {
      cause: error,
    });
  }
  return null;
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
    // After a full disk or an I/O error SQLite has rolled the whole transaction back, savepoint and all: the error
    // that says so is the one to throw.
    await sql`rollback to batch_row`
      .execute(trx)
      .then(() => sql`release batch_row`.execute(trx))
      .catch(() => {});
    throw error;
  }
}
