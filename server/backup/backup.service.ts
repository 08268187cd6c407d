import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Db, databaseFile } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { badInput, unavailable } from '../errors.ts';
import { BackupError, type BackupResult, backupDatabase } from './backup.ts';

/** Backups asked for over GraphQL: always into the configured folder, under a name mnemo chooses. */
export class BackupService {
  constructor(private readonly deps: { db: Db; folder: string | null; now?: () => Date }) {}

  get folder(): string | null {
    return this.deps.folder;
  }

  async create(): Promise<BackupResult & { createdAt: Date }> {
    // A backup here is a copy of the SQLite file; PostgreSQL has its own tools, which see the whole server.
    if (storeDialect(this.deps.db).kind === 'postgres') {
      throw badInput('the data is in PostgreSQL, and backupDatabase copies a SQLite file: back PostgreSQL up with pg_dump');
    }
    const { folder } = this.deps;
    if (!folder) throw unavailable('no backup folder is configured (MNEMO_BACKUP_DIR)');
    const source = await databaseFile(this.deps.db);
    if (!source) throw badInput('an in-memory database cannot be backed up');
    const createdAt = (this.deps.now ?? (() => new Date()))();
    mkdirSync(folder, { recursive: true });
    // A name from the time alone: nothing of the request reaches the path.
    const name = `mnemo-${createdAt.toISOString().replace(/[:.]/g, '-')}.db`;
    try {
      return { ...(await backupDatabase(source, path.join(folder, name))), createdAt };
    } catch (error) {
      if (error instanceof BackupError) throw unavailable(`the backup failed: ${error.message}`);
      throw error;
    }
  }
}

/** The operation behind backupDatabase; the service knows the folder. */
export function createBackup(deps: { backups: BackupService }): Promise<BackupResult & { createdAt: Date }> {
  return deps.backups.create();
}
