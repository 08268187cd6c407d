import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { DomainError } from '../errors.ts';
import type { Db } from './open.ts';

/** SQLite's extended result code of an error from better-sqlite3 ('SQLITE_FULL', 'SQLITE_IOERR_WRITE'), else null. */
export function sqliteCode(error: unknown): string | null {
  return error instanceof SQLite.SqliteError ? error.code : null;
}

/** The SQLSTATE of an error the PostgreSQL server sent ('53100', '23505'), else null. */
export function postgresCode(error: unknown): string | null {
  return error instanceof pg.DatabaseError ? (error.code ?? null) : null;
}

/** Node's codes for a PostgreSQL server that cannot be reached at all (no server there, no route, no such host). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Why the PostgreSQL server could not be reached or kept the connection, or null when it answered. pg reports a
 * refused connection to a name with two addresses as an AggregateError whose message is empty: the code says it.
 */
function connectionFailure(error: unknown): string | null {
  const code = postgresCode(error);
  // 08: connection exceptions; 57P01-57P03: the server is shutting down, crashed or still starting; 53300: no
  // connection slot left.
  if (code !== null) return /^(08|57P0[123]$|53300$)/.test(code) ? `${code}: ${(error as Error).message}` : null;
  const errno = (error as { code?: unknown } | null)?.code;
  if (typeof errno === 'string' && NETWORK_CODES.has(errno)) return errno;
  if (error instanceof Error && /^Connection terminated/.test(error.message)) return error.message;
  return null;
}

/**
 * A failure of the storage under the database rather than of a request, as the typed error a client and an operator can
 * act on: STORAGE_FULL when the disk is full, STORAGE_ERROR when the data cannot be read, written or trusted (an I/O
 * error, corruption, a read-only file or server, a refused login), UNAVAILABLE when the PostgreSQL server cannot be
 * reached or a transaction lost a conflict with another (retrying later may work). Null for anything else. The
 * messages name codes, never the statement or the URL: they go to clients.
 */
export function storageFault(error: unknown): DomainError | null {
  return sqliteFault(error) ?? postgresFault(error);
}

function sqliteFault(error: unknown): DomainError | null {
  const code = sqliteCode(error);
  if (code === 'SQLITE_FULL') return diskFull('its disk is full; free space on it (or move the data folder)', error);
  if (code !== null && /^SQLITE_(IOERR|CORRUPT|NOTADB|READONLY|CANTOPEN)/.test(code)) {
    return new DomainError('STORAGE_ERROR', `the database file could not be read or written (${code}); an operator must check its disk`, {
      cause: error,
    });
  }
  return null;
}

function postgresFault(error: unknown): DomainError | null {
  const code = postgresCode(error);
  if (code === '53100') return diskFull("the PostgreSQL server's disk is full; free space on it", error);
  const unreachable = connectionFailure(error);
  if (unreachable !== null) {
    return new DomainError('UNAVAILABLE', `the PostgreSQL server cannot be reached (${unreachable}); retrying later may work`, {
      cause: error,
    });
  }
  // 40001 serialization failure, 40P01 deadlock: the transaction was rolled back whole and may simply be run again.
  if (code === '40001' || code === '40P01') {
    return new DomainError('UNAVAILABLE', `the write conflicted with another one and was undone (${code}); retry it`, { cause: error });
  }
  // 58: the server's I/O failed; XX001/XX002: corrupted data or index; 25006: a read-only server (a standby);
  // 28: the login was refused; 3D000: the database does not exist; 53200: the server is out of memory.
  if (code !== null && /^(58|XX00[12]$|25006$|28|3D000$|53200$)/.test(code)) {
    return new DomainError('STORAGE_ERROR', `the PostgreSQL server could not read or write the data (${code}); an operator must check it`, {
      cause: error,
    });
  }
  return null;
}

/**
 * How a log line tells of a failure: a storage fault by its typed code and what the store said (its code and
 * message), without a stack, since it is the environment's fault and not a bug of mnemo's; anything else as the
 * error itself, stack and all.
 */
export function loggedFailure(error: unknown): { err: unknown } | { fault: { code: string; storeCode: unknown; message: string } } {
  const fault = storageFault(error);
  if (!fault) return { err: error };
  const storeCode = sqliteCode(error) ?? postgresCode(error) ?? (error as { code?: unknown }).code ?? null;
  return { fault: { code: fault.code, storeCode, message: error instanceof Error ? error.message : String(error) } };
}

function diskFull(what: string, error: unknown): DomainError {
  return new DomainError('STORAGE_FULL', `the database cannot grow: ${what}, then retry`, { cause: error });
}

/**
 * Why the database refused one row of a batch (a constraint, a trigger, a value too big or malformed), as a reason to
 * report for that row alone; null when the error is not about the row (a full disk, a lock, a bug) and must fail the
 * batch. PostgreSQL: class 22 (a bad value), 23 (a constraint) and P0001 (a trigger's refusal).
 */
export function rowRefusal(error: unknown): string | null {
  const code = sqliteCode(error) ?? postgresCode(error);
  if (code === null || !/^(SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|ERROR$)|22|23|P0001$)/.test(code)) return null;
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
