import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest } from '../server/db/migrate.ts';
import { type OpenedStore, openDatabase, openPostgres } from '../server/db/open.ts';
import { dropDatabase, ensureDatabase } from '../test/helpers/postgres.ts';

/** The store an evaluation runs on, migrated, with what a server does once its tables are filled. */
export interface EvalStore extends OpenedStore {
  /** Refreshes the planner's statistics, as a server does at start and hourly. */
  analyze(): Promise<void>;
}

/**
 * A SQLite file in `dir`, or, with `postgresUrl` (a superuser's URL on a PostgreSQL server), a database of its own on
 * that server, dropped when the store closes.
 */
export async function openEvalStore(dir: string, postgresUrl: string | null): Promise<EvalStore> {
  if (postgresUrl === null) {
    const database = openDatabase(path.join(dir, 'eval.db'));
    await migrateToLatest(database.db);
    return { ...database, analyze: async () => void database.sqlite.pragma('optimize = 0x10002') };
  }
  const name = `mnemo_eval_${process.pid}_${path.basename(dir).replace(/\W/g, '_')}`.toLowerCase();
  const store = openPostgres(await ensureDatabase(postgresUrl, name), { poolSize: 4 });
  await migrateToLatest(store.db);
  return {
    ...store,
    analyze: async () => void (await sql`analyze`.execute(store.db)),
    close: async () => {
      await store.close();
      await dropDatabase(postgresUrl, name);
    },
  };
}
