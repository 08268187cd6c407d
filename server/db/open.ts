import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { type StoreKind, storeDialect } from './storeDialect.ts';

export type Db = Kysely<Database>;

/** An open store of either kind: what the server runs on. */
export interface OpenedStore {
  db: Db;
  kind: StoreKind;
  close(): Promise<void>;
}

// The openers, one per store, each in its store's folder: the one place a store is registered. Each binds its store's
// dialect to the database it opens (storeDialect.ts).
export { openPostgres } from './postgres/open.ts';
export { type OpenedDatabase, openDatabase } from './sqlite/open.ts';

/** Resolves when the database answers a query; for /healthz. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The file the database lives in; null for an in-memory one, and on PostgreSQL, whose files are the server's. */
export const databaseFile = (db: Db): Promise<string | null> => storeDialect(db).databaseFile(db);
