import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { type Db, databaseFile } from './open.ts';

/**
 * Writes a row to the scratch table and commits, then deletes it (and any a failed probe left) and commits: throws
 * what SQLite throws when a write cannot reach the disk. A probe inside a rolled-back transaction passes on a full disk.
 */
export async function probeCommit(db: Db, now: number): Promise<void> {
  const { id } = await db.insertInto('health_probe').values({ written_at: now }).returning('id').executeTakeFirstOrThrow();
  await db.deleteFrom('health_probe').where('id', '<=', id).execute();
}

/** Bytes free to the server on the file system that holds the database; null for an in-memory database. */
export async function freeDiskBytes(db: Db): Promise<number | null> {
  const file = await databaseFile(db);
  if (!file) return null;
  const stats = await statfs(path.dirname(file));
  return stats.bavail * stats.bsize;
}
