import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { ChangeContext } from '../storeDialect.ts';

/**
 * The change context on PostgreSQL: the setting mnemo.change (JSON), which the history trigger reads with
 * current_setting (migration 008). In a transaction it is the transaction's own and ends with it; the context found is
 * put back after a write that succeeded, since one that failed rolled back its savepoint (which undoes the setting too)
 * or its transaction. On a connection held outside a transaction it is the session's, and is put back whatever happens.
 */
export async function withChange<T>(conn: Db, change: ChangeContext, write: () => Promise<T>): Promise<T> {
  const local = conn.isTransaction;
  const { rows } = await sql<{ previous: string | null }>`select current_setting('mnemo.change', true) as previous,
    set_config('mnemo.change', ${JSON.stringify(change)}, ${local})`.execute(conn);
  const restore = () => sql`select set_config('mnemo.change', ${rows[0]?.previous ?? ''}, ${local})`.execute(conn);
  if (local) {
    const result = await write();
    await restore();
    return result;
  }
  try {
    return await write();
  } finally {
    await restore();
  }
}
