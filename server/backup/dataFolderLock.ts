import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Which process serves a data folder: written by `mnemo serve` at start, removed when it stops. */
export interface DataFolderHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** The mnemo command holding it; absent in locks written before `mnemo copy-store` held folders too. */
  command?: string;
}

/** Who holds the folder, for the refusal's message only: the lock itself is LOCK_FILE's. */
const HOLDER_FILE = 'mnemo.serving';
/**
 * An SQLite file whose exclusive lock is the folder's lock. SQLite takes it with fcntl, which the kernel drops
 * when the holder's files close, that is as soon as it exits or is killed: a zombie not yet reaped, a stale
 * holder file or a pid since reused by another process never holds the folder, as a pid check would.
 */
const LOCK_FILE = 'mnemo.serving.lock';

export class DataFolderBusyError extends Error {
  /** holder: null while the holder has not yet said who it is (it is starting). */
  constructor(readonly holder: DataFolderHolder | null) {
    super(
      holder
        ? `mnemo ${holder.command ?? 'serve'} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) holds this data folder`
        : 'another mnemo process holds this data folder',
    );
  }
}

/** Throws DataFolderBusyError while a process holds the folder (whatever a holder file left behind says otherwise). */
export function ensureDataFolderFree(dataDir: string): void {
  const lock = tryLock(dataDir);
  if (lock === null) throw new DataFolderBusyError(describedHolder(dataDir));
  lock.close();
}

/**
 * Marks the folder as held by this process (`mnemo serve`, or `mnemo copy-store` while it reads the database), so
 * that `mnemo restore`, another server and another copy refuse to touch it, until release() or this process's end.
 */
export function holdDataFolder(dataDir: string, command = 'serve'): { release(): void } {
  const lock = tryLock(dataDir);
  if (lock === null) throw new DataFolderBusyError(describedHolder(dataDir));
  const mine: DataFolderHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  const holderFile = path.join(dataDir, HOLDER_FILE);
  writeFileSync(holderFile, `${JSON.stringify(mine)}\n`);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      rmSync(holderFile, { force: true });
      lock.close();
    },
  };
}

/** The folder's lock taken without waiting, or null when another connection (this process's or another's) has it. */
function tryLock(dataDir: string): Database.Database | null {
  // journal_mode stays DELETE: in WAL mode an exclusive transaction would not keep other connections out.
  const db = new Database(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}

/** What the holder wrote of itself, or null before it has. */
function describedHolder(dataDir: string): DataFolderHolder | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as DataFolderHolder;
  } catch {
    return null;
  }
}
