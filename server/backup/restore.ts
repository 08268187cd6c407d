import { copyFileSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { inspectBackup } from './backup.ts';
import { DataFolderBusyError, dataFolderHolder } from './dataFolderLock.ts';

/**
 * Puts a backup in place of the data folder's database, offline: refused while a server holds the folder;
 * the backup is checked (integrity, a migration level this mnemo knows) before anything is touched; the
 * database it replaces, with its write-ahead log folded in, is kept as mnemo.db.before-restore. The next
 * start migrates the restored database to this build's schema if it is older.
 */
export function restoreDatabase(opts: { dataDir: string; databaseFile: string; from: string }): {
  migration: string | null;
  previous: string | null;
} {
  const holder = dataFolderHolder(opts.dataDir);
  if (holder) throw new DataFolderBusyError(holder);
  const { migration } = inspectBackup(opts.from);
  const incoming = `${opts.databaseFile}.restoring`;
  copyFileSync(opts.from, incoming);
  let previous: string | null = null;
  try {
    // Folds the WAL into the file (a crash may have left one), so the file moved aside is the whole database.
    const current = new SQLite(opts.databaseFile, { fileMustExist: true });
    current.pragma('wal_checkpoint(TRUNCATE)');
    current.close();
    previous = `${opts.databaseFile}.before-restore`;
    renameSync(opts.databaseFile, previous);
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN') {
      rmSync(incoming, { force: true });
      throw error;
    }
  }
  for (const stale of [`${opts.databaseFile}-wal`, `${opts.databaseFile}-shm`]) rmSync(stale, { force: true });
  renameSync(incoming, opts.databaseFile);
  return { migration, previous };
}
