import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { checkpointFile } from '../db/sqliteFile.ts';
import { inspectBackup } from './backup.ts';
import { ensureDataFolderFree } from './dataFolderLock.ts';

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
  ensureDataFolderFree(opts.dataDir);
  const { migration } = inspectBackup(opts.from);
  const incoming = `${opts.databaseFile}.restoring`;
  copyFileSync(opts.from, incoming);
  let previous: string | null = null;
  try {
    // Folds the WAL into the file (a crash may have left one), so the file moved aside is the whole database.
    checkpointFile(opts.databaseFile);
    previous = moveAside(opts.databaseFile);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    // A damaged database is what a restore is for: it is kept as it is, its log beside it, for whoever wants to look.
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) previous = moveAside(opts.databaseFile, { withLog: true });
    else if (code !== 'SQLITE_CANTOPEN') {
      rmSync(incoming, { force: true });
      throw error;
    }
  }
  for (const stale of [`${opts.databaseFile}-wal`, `${opts.databaseFile}-shm`]) rmSync(stale, { force: true });
  renameSync(incoming, opts.databaseFile);
  return { migration, previous };
}

/**
 * Renames the database (and, when asked, its write-ahead log) to <name>.before-restore, or .before-restore.2, .3…
 * when earlier restores left theirs: a second restore never overwrites the database the first one set aside.
 * Returns the new name.
 */
function moveAside(databaseFile: string, options: { withLog?: boolean } = {}): string {
  const previous = freeName(`${databaseFile}.before-restore`);
  renameSync(databaseFile, previous);
  if (options.withLog && existsSync(`${databaseFile}-wal`)) renameSync(`${databaseFile}-wal`, `${previous}-wal`);
  return previous;
}

function freeName(base: string): string {
  if (!existsSync(base)) return base;
  let n = 2;
  while (existsSync(`${base}.${n}`)) n++;
  return `${base}.${n}`;
}
