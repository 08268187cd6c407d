import { type Kysely, PostgresAdapter } from 'kysely';

/** The two stores mnemo keeps its data in: an embedded SQLite file, or a PostgreSQL server shared by replicas. */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * Which store a Kysely instance (or one of its transactions) talks to. Read from the dialect's adapter, which a
 * transaction shares with the database it was opened on, so repositories need no second argument for it.
 */
export function storeKind<DB>(db: Kysely<DB>): StoreKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
