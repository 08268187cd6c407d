import type SQLite from 'better-sqlite3';
import type { DialectAdapter, Kysely } from 'kysely';
import type { Db } from '../open.ts';
import type { ChangeContext } from '../storeDialect.ts';

/**
 * The change context on SQLite: held in this process, beside the connection, and read by the history trigger through a
 * function on the connection (mnemo_change('by' | 'why' | 'at'), null when unset: the trigger's honest defaults).
 * SQLite runs in this process, so setting it is an assignment, not a statement: a write pays nothing for saying who
 * made it. Not a one-row table: a context written to the file would be a write per change, and a stale row would
 * outlive a failed transaction; a temporary table is out of reach, since a trigger of the main schema may not read one.
 * The context is the connection's: Kysely holds the one connection for the whole transaction (or the held connection),
 * so no other statement runs while it is set.
 */
export interface ConnectionChange {
  current: ChangeContext | null;
}

// Keyed by the Kysely adapter, which a transaction shares with the database it was opened on (as storeDialect's).
const contexts = new WeakMap<DialectAdapter, ConnectionChange>();

/** Gives the connection the function the history trigger reads the context with; returns the context to bind. */
export function registerChangeContext(sqlite: SQLite.Database): ConnectionChange {
  const context: ConnectionChange = { current: null };
  sqlite.function('mnemo_change', { deterministic: false }, (part: unknown) => {
    const value = context.current && typeof part === 'string' ? context.current[part as keyof ChangeContext] : undefined;
    return typeof value === 'string' || typeof value === 'number' ? value : null;
  });
  return context;
}

/** Binds a connection's context to the database opened on it; done once, when the store opens. */
export function bindChangeContext<DB>(db: Kysely<DB>, context: ConnectionChange): void {
  contexts.set(db.getExecutor().adapter, context);
}

/**
 * Runs `write` under `change` on `trx` (a transaction, or a connection held for the write), and puts back the context
 * it found, even after a failure.
 */
export async function withChange<T>(trx: Db, change: ChangeContext, write: () => Promise<T>): Promise<T> {
  const context = contexts.get(trx.getExecutor().adapter);
  if (!context) throw new Error('this database was not opened by openDatabase: it has no change context');
  const previous = context.current;
  context.current = change;
  try {
    return await write();
  } finally {
    context.current = previous;
  }
}
