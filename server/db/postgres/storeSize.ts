import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { StoreSize } from '../storeDialect.ts';

/**
 * The database's files as PostgreSQL counts them (pg_database_size: its tables, indexes and TOAST). Its write-ahead
 * log belongs to the whole cluster, not to this database, so no size is given for it.
 */
export async function storeSize(db: Db): Promise<StoreSize> {
  const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(db);
  return { db: rows[0]?.bytes ?? 0 };
}
