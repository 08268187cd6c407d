import { type MigrationResult, Migrator } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import { postgresMigrations } from '../../migrations/postgres/index.ts';
import type { Db } from './open.ts';
import { storeKind } from './store.ts';

/** Applies every pending migration of the database's store in order; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const set = storeKind(db) === 'postgres' ? postgresMigrations : migrations;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => set } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}
