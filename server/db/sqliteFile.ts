import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/**
 * A SQLite database file on a connection of its own, outside the served database and Kysely: a backup being written
 * and verified, a backup checked before a restore, the database a restore replaces. Only the backup folder uses it.
 */

/** What a copy holds, read from the copy itself. */
export interface FileCheck {
  /** PRAGMA integrity_check's answer: ['ok'], or the problems it found. */
  integrity: string[];
  /** The migrations it has applied, oldest first. */
  migrations: string[];
}

/** The copy's worker ended without an answer. */
export class VacuumWorkerStopped extends Error {}

/**
 * VACUUM INTO `target` (which must not exist), then the copy checked: in a worker thread (vacuumInto.worker.mjs, beside
 * this file), so the server keeps serving and writing meanwhile. Rejects with what SQLite threw, or VacuumWorkerStopped.
 */
export function vacuumInto(source: string, target: string): Promise<FileCheck> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./vacuumInto.worker.mjs', import.meta.url), { workerData: { source, target } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new VacuumWorkerStopped(`the backup worker stopped (exit code ${code})`)));
  });
}

/** Opens a database file read only; throws when it does not exist or is no database. */
export function openReadOnly(file: string): SQLite.Database {
  return new SQLite(file, { readonly: true, fileMustExist: true });
}

/** PRAGMA integrity_check's answer: ['ok'], or the problems it found. */
export function integrityCheck(db: SQLite.Database): string[] {
  return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
}

/** The migrations a database has applied, oldest first; throws when it has no migration table (not a mnemo database). */
export function appliedMigrations(db: SQLite.Database): string[] {
  return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
}

/** Folds the write-ahead log into the database file and empties it; throws what SQLite throws on opening it. */
export function checkpointFile(file: string): void {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
