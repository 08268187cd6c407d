import type { Db } from './open.ts';
import { storeDialect } from './storeDialect.ts';

export { MERGE_STEPS_PER_RUN } from './sqlite/maintenance.ts';

// The database's upkeep, as its store does it (db/sqlite/maintenance.ts, db/postgres/maintenance.ts).

/** Run hourly by long-lived processes: keeps query plans right and the keyword index compact. */
export const optimizeDatabase = (db: Db) => storeDialect(db).optimizeDatabase(db);

/** Compacts the keyword index by up to `maxSteps` bounded steps. */
export const mergeKeywordIndex = (db: Db, maxSteps?: number) => storeDialect(db).mergeKeywordIndex(db, maxSteps);

/** Makes the database file alone hold everything (a shutdown); returns whether it could in full. */
export const checkpointWal = (db: Db) => storeDialect(db).checkpointWal(db);

/**
 * What every erase (a delete, a clear, a forget, a purge pass) does once its rows are gone, so that their bytes leave
 * the database's files too; returns whether the write-ahead log was emptied. SQLite: the log is emptied at once (see
 * emptyWalNow; its pages were zeroed on delete, secure_delete). PostgreSQL: the touched tables are vacuumed, and the
 * answer is false, since its write-ahead log keeps the deleted rows until its segments are recycled (postgres/vacuum.ts).
 */
export const afterErase = (db: Db): Promise<boolean> => storeDialect(db).afterErase(db);
