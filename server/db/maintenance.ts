import * as onPostgres from './maintenance.postgres.ts';
import * as onSqlite from './maintenance.sqlite.ts';
import type { Db } from './open.ts';
import { storeKind } from './store.ts';

// emptyWalNow is SQLite's: an erase on PostgreSQL is followed by a VACUUM instead.
export { emptyWalNow, MERGE_STEPS_PER_RUN } from './maintenance.sqlite.ts';

/** The database's upkeep, as its store does it (maintenance.sqlite.ts, maintenance.postgres.ts). */
const upkeep = (db: Db) => ({ sqlite: onSqlite, postgres: onPostgres })[storeKind(db)];

/** Run hourly by long-lived processes: keeps query plans right and the keyword index compact. */
export const optimizeDatabase = (db: Db) => upkeep(db).optimizeDatabase(db);

/** Compacts the keyword index by up to `maxSteps` bounded steps. */
export const mergeKeywordIndex = (db: Db, maxSteps?: number) => upkeep(db).mergeKeywordIndex(db, maxSteps);

/** Makes the database file alone hold everything (a shutdown); returns whether it could in full. */
export const checkpointWal = (db: Db) => upkeep(db).checkpointWal(db);
