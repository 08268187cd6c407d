import { existsSync } from 'node:fs';
import { holdDataFolder } from '../backup/dataFolderLock.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { type OpenedStore, openDatabase, openPostgres } from '../db/open.ts';
import { type CopyOutcome, type CopyProgress, CopyStoreError, copyStore } from './copyStore.ts';

export interface CopyDataFolderInput {
  dataDir: string;
  /** The data folder's mnemo.db. */
  databaseFile: string;
  /** postgres://… */
  targetUrl: string;
  batchSize?: number;
  onProgress?: (p: CopyProgress) => void;
}

/**
 * `mnemo copy-store`: holds the data folder (a running `mnemo serve` on it makes this refuse, and no server starts on
 * it while the copy reads), brings both stores to this mnemo's schema, and copies (copyStore.ts).
 */
export async function copyDataFolder(input: CopyDataFolderInput): Promise<CopyOutcome> {
  if (!existsSync(input.databaseFile)) throw new CopyStoreError('no-source', `there is no mnemo database at ${input.databaseFile}`);
  const lock = holdDataFolder(input.dataDir, 'copy-store');
  const opened: OpenedStore[] = [];
  try {
    const source = openDatabase(input.databaseFile);
    opened.push(source);
    await migrateToLatest(source.db);
    const target = openPostgres(input.targetUrl, { poolSize: 2 });
    opened.push(target);
    try {
      await migrateToLatest(target.db);
    } catch (error) {
      throw new CopyStoreError(
        'unreachable',
        `cannot use the PostgreSQL database: ${reason((error as { cause?: unknown }).cause ?? error)}`,
      );
    }
    return await copyStore({
      source: source.db,
      target: target.db,
      sourceName: input.databaseFile,
      batchSize: input.batchSize,
      onProgress: input.onProgress,
    });
  } finally {
    for (const store of opened.reverse()) await store.close();
    lock.release();
  }
}

/** What went wrong, in pg's or Node's words (a refused connection to a name with two addresses has no message of its own). */
function reason(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: unknown[] };
  return e.message || e.errors?.map(reason).join('; ') || e.code || String(error);
}
