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

export { openPostgres, type PostgresOptions } from './postgres/open.ts';
// The openers, one per store (each binds its store's dialect to the database it opens).
export { type OpenedDatabase, openDatabase } from './sqlite/open.ts';

/** Resolves when the database answers a query; for /healthz. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The file the database lives in; null for an in-memory one, and on PostgreSQL, whose files are the server's. */
export const databaseFile = (db: Db): Promise<string | null> => storeDialect(db).databaseFile(db);
