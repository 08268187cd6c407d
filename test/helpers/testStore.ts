import { createHash } from 'node:crypto';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { inject } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type OpenedStore, openDatabase, openPostgres } from '../../server/db/open.ts';
import { createDatabase, databaseUrl, dropDatabase } from './postgres.ts';
import { TEMPLATE_DATABASE } from './postgresSetup.ts';

/**
 * The store a test runs on: a SQLite file in its folder (the default project), or, in the postgres project, a
 * database of the run's throwaway cluster named after the folder (so reopening a folder reopens its data). `sqlite` is
 * the raw handle of the SQLite file; a test that reads it is a SQLite test, and on PostgreSQL it fails saying so.
 */
export type TestStore = OpenedStore & { sqlite: SQLite.Database };

export function testStoreKind(): 'sqlite' | 'postgres' {
  return inject('postgresUrl') ? 'postgres' : 'sqlite';
}

const databaseOf = (dir: string) => `mnemo_${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`;

export async function openTestStore(dir: string): Promise<TestStore> {
  const serverUrl = inject('postgresUrl');
  if (!serverUrl) {
    const database = openDatabase(path.join(dir, 'mnemo.db'));
    await migrateToLatest(database.db);
    return database;
  }
  const name = databaseOf(dir);
  const created = await createDatabase(serverUrl, name, TEMPLATE_DATABASE);
  const store = openPostgres(databaseUrl(serverUrl, name), { poolSize: 4 });
  // A fresh copy of the template is migrated already; running the migrator again proves a reopened database is current.
  if (!created) await migrateToLatest(store.db);
  return Object.defineProperty(store, 'sqlite', {
    get() {
      throw new Error('this test reads the SQLite file directly: it runs on SQLite only, not in the postgres project');
    },
  }) as TestStore;
}

/** The command-line options that open the store of the folder `dir` (a CLI test's `--data-dir` plus, on PostgreSQL, its URL). */
export function testStoreArgs(dir: string): string[] {
  const serverUrl = inject('postgresUrl');
  return serverUrl ? ['--data-dir', dir, '--database-url', databaseUrl(serverUrl, databaseOf(dir))] : ['--data-dir', dir];
}

/** Removes a test's PostgreSQL database (its SQLite file goes with its folder). */
export async function dropTestStore(dir: string): Promise<void> {
  const serverUrl = inject('postgresUrl');
  if (serverUrl) await dropDatabase(serverUrl, databaseOf(dir));
}
