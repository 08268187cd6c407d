import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { migrations } from '../../migrations/index.ts';
import { appliedMigrations, integrityCheck, openReadOnly, VacuumWorkerStopped, vacuumInto } from '../db/sqliteFile.ts';

/** How far a backup has come: bytes written so far against the database's size (its file and WAL). */
export interface BackupProgress {
  bytes: number;
  totalBytes: number;
}

export interface BackupResult {
  file: string;
  bytes: number;
  /** The newest migration the copy has: the schema level a restore will bring back. */
  migration: string | null;
}

export class BackupError extends Error {}

/** How often the progress callback hears of the copy's size. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * An online, consistent copy of the whole database (memories, summaries, vectors, settings, providers, tokens,
 * audit log) into `target`, which must not exist: VACUUM INTO on a connection of its own, in a worker thread,
 * so the server keeps serving and writing meanwhile. The copy is written under a temporary name, checked with
 * integrity_check, and only then renamed to `target`: a file at `target` is always a whole, verified backup.
 */
export async function backupDatabase(source: string, target: string, onProgress?: (p: BackupProgress) => void): Promise<BackupResult> {
  if (existsSync(target)) throw new BackupError(`${target} exists already; a backup never overwrites a file`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`the folder ${path.dirname(target)} does not exist`);
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  const totalBytes = sizeOf(source) + sizeOf(`${source}-wal`);
  const ticker =
    onProgress && setInterval(() => onProgress({ bytes: Math.min(sizeOf(partial), totalBytes), totalBytes }), PROGRESS_INTERVAL_MS);
  try {
    const checked = await vacuumInto(source, partial).catch((error: unknown) => {
      throw error instanceof VacuumWorkerStopped ? new BackupError(error.message) : error;
    });
    if (checked.integrity.join() !== 'ok') {
      throw new BackupError(`the copy failed its integrity check: ${checked.integrity.slice(0, 5).join('; ')}`);
    }
    renameSync(partial, target);
    const bytes = sizeOf(target);
    onProgress?.({ bytes, totalBytes: bytes });
    return { file: target, bytes, migration: checked.migrations.at(-1) ?? null };
  } finally {
    if (ticker) clearInterval(ticker);
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
  }
}

/** What a backup file holds, checked before a restore: its integrity and its migration level against this build's. */
export function inspectBackup(file: string): { migration: string | null } {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  let db: SQLite.Database;
  try {
    db = openReadOnly(file);
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a database (${(error as Error).message})`);
  }
  try {
    let integrity: string[];
    try {
      integrity = integrityCheck(db);
    } catch (error) {
      integrity = [(error as Error).message];
    }
    if (integrity.join() !== 'ok') throw new BackupError(`${file} fails its integrity check: ${integrity.slice(0, 5).join('; ')}`);
    let applied: string[];
    try {
      applied = appliedMigrations(db);
    } catch (error) {
      throw new BackupError(`${file} is not a mnemo database (${(error as Error).message})`);
    }
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length > 0) {
      throw new BackupError(`${file} was made by a newer mnemo (migration ${unknown.at(-1)} is unknown to this one); upgrade mnemo first`);
    }
    return { migration: applied.at(-1) ?? null };
  } finally {
    db.close();
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
