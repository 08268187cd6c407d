import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, type MigrationResult, Migrator } from 'kysely';
import type { Db } from './open.ts';

const migrationFolder = path.resolve(import.meta.dirname, '../../migrations');

/** Applies every pending migration in order; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}
