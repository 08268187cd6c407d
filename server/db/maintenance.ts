import * as onPostgres from './maintenance.postgres.ts';
import * as onSqlite from './maintenance.sqlite.ts';
import type { Db } from './open.ts';
import { storeKind } from './store.ts';
import { vacuumErased } from './vacuum.postgres.ts';

export { MERGE_STEPS_PER_RUN } from './maintenance.sqlite.ts';

/** The database's upkeep, as its store does it (maintenance.sqlite.ts, maintenance.postgres.ts). */
const upkeep = (db: Db) => ({ sqlite: onSqlite, postgres: onPostgres })[storeKind(db)];

/** Run hourly by long-lived processes: keeps query plans right and the keyword index compact. */
export const optimizeDatabase = (db: Db) => upkeep(db).optimizeDatabase(db);

/** Compacts the keyword index by up to `maxSteps` bounded steps. */
export const mergeKeywordIndex = (db: Db, maxSteps?: number) => upkeep(db).mergeKeywordIndex(db, maxSteps);

/** Makes the database file alone hold everything (a shutdown); returns whether it could in full. */
export const checkpointWal = (db: Db) => upkeep(db).checkpointWal(db);

/**
 * What every erase (a delete, a clear, a forget, a purge pass) does once its rows are gone, so that their bytes leave
 * the database's files too; returns whether the write-ahead log was emptied. SQLite: the log is emptied at once (see
 * emptyWalNow; its pages were zeroed on delete, secure_delete). PostgreSQL: the touched tables are vacuumed, and the
 * answer is false, since its write-ahead log keeps the deleted rows until its segments are recycled (vacuum.postgres.ts).
 */
export const afterErase = (db: Db): Promise<boolean> => ({ sqlite: onSqlite.emptyWalNow, postgres: vacuumErased })[storeKind(db)](db);
