import type { Db } from './open.ts';
import { storeKind } from './store.ts';
import * as onPostgres from './storeSize.postgres.ts';
import * as onSqlite from './storeSize.sqlite.ts';

/** Bytes the store holds on disk, by part; a part the store cannot tell (PostgreSQL's WAL, a SQLite in memory) is absent. */
export type StoreSize = { db?: number; wal?: number };

/** What the database takes on disk, as its store measures it (storeSize.sqlite.ts, storeSize.postgres.ts). */
export const storeSize = (db: Db): Promise<StoreSize> => ({ sqlite: onSqlite, postgres: onPostgres })[storeKind(db)].storeSize(db);
