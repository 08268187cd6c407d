import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { ChangeContext } from '../storeDialect.ts';

/**
 * The change context on PostgreSQL: the transaction-local setting mnemo.change (JSON), which the history trigger reads
 * with current_setting (migration 008); it ends with the transaction by itself. The context found is put back after a
 * write that succeeded; one that failed rolled back its savepoint (which undoes the setting too) or its transaction.
 */
export async function withChange<T>(trx: Db, change: ChangeContext, write: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ previous: string | null }>`select current_setting('mnemo.change', true) as previous,
    set_config('mnemo.change', ${JSON.stringify(change)}, true)`.execute(trx);
  const result = await write();
  await sql`select set_config('mnemo.change', ${rows[0]?.previous ?? ''}, true)`.execute(trx);
  return result;
}
