import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { ChangeContext } from '../storeDialect.ts';

/**
 * The change context on SQLite: two functions on the connection, one that the writing transaction calls to set it
 * (mnemo_change_set, which answers the context it replaced) and one that the history trigger reads it with
 * (mnemo_change('by' | 'why' | 'at'), null when unset: the trigger's honest defaults). Functions rather than a
 * one-row table: a context written to the file would be a write per change, and a stale row would outlive a failed
 * transaction; a temporary table is out of reach, since a trigger of the main schema may not read one. The state is
 * the connection's: Kysely holds the connection for the whole transaction (or the held connection), so nothing else
 * runs on it while it is set.
 */
export function registerChangeContext(sqlite: SQLite.Database): void {
  let current: string | null = null;
  let parsed: Record<string, unknown> | null = null;
  sqlite.function('mnemo_change_set', { deterministic: false }, (context: unknown) => {
    const previous = current;
    current = typeof context === 'string' ? context : null;
    parsed = current === null ? null : (JSON.parse(current) as Record<string, unknown>);
    return previous;
  });
  sqlite.function('mnemo_change', { deterministic: false }, (part: unknown) => {
    const value = parsed && typeof part === 'string' ? parsed[part] : undefined;
    return typeof value === 'string' || typeof value === 'number' ? value : null;
  });
}

/**
 * Runs `write` under `change` on `trx` (a transaction, or a connection held for the write), and puts back the context
 * it found, even after a failure.
 */
export async function withChange<T>(trx: Db, change: ChangeContext, write: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ previous: string | null }>`select mnemo_change_set(${JSON.stringify(change)}) as previous`.execute(trx);
  try {
    return await write();
  } finally {
    await sql`select mnemo_change_set(${rows[0]?.previous ?? null})`.execute(trx);
  }
}
