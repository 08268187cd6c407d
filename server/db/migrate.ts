import { type MigrationResult, Migrator } from 'kysely';
import type { Db } from './open.ts';
import { storeDialect } from './storeDialect.ts';

/** Applies every pending migration of the database's store in order; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const { migrations } = storeDialect(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}
