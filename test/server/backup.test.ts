import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, backupDatabase, inspectBackup } from '../../server/backup/backup.ts';
import { holdDataFolder } from '../../server/backup/dataFolderLock.ts';
import { restoreDatabase } from '../../server/backup/restore.ts';
import { BackupDatabaseDocument as BACKUP } from '../generated/graphql.ts';
import { CREATE_MEMORY } from '../helpers/operations.ts';
import { onlyError, startTestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-backup-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const started = async (options: Parameters<typeof startTestApp>[0] = {}) => {
  const app = await startTestApp(options);
  cleanup.push(() => app.close());
  return app;
};
const memoriesIn = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare('select content from memories order by content').pluck().all() as string[]).join(', ');
  } finally {
    db.close();
  }
};

/** Backups are copies of the SQLite file: on PostgreSQL they are pg_dump's job, and mnemo refuses them. */
const onSqlite = testStoreKind() === 'sqlite';

describe('the backupDatabase mutation', () => {
  it.skipIf(!onSqlite)('writes a verified copy of the whole database into the backup folder', async () => {
    const folder = path.join(tempDir(), 'backups');
    const app = await started({ backupDir: folder });
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'k1', key: 'editor', content: 'Uses Helix' } });
    const { backupDatabase: backup } = await app.ok(BACKUP);
    expect(path.dirname(backup.file)).toBe(folder);
    expect(backup.bytes).toBeGreaterThan(0);
    expect(backup.migration).toMatch(/^\d{4}_\d{2}_\d{2}_\d{3}_/);
    expect(readdirSync(folder)).toEqual([path.basename(backup.file)]);
    expect(memoriesIn(backup.file)).toBe('Uses Helix');
    expect(inspectBackup(backup.file).migration).toBe(backup.migration);
  });

  it('is refused to a gateway token', async () => {
    const app = await started({ backupDir: path.join(tempDir(), 'backups') });
    const res = await app.gql(BACKUP, {}, await app.mintToken());
    expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
  });

  it.skipIf(!onSqlite)('is refused when no backup folder is configured', async () => {
    const app = await started();
    expect(onlyError(await app.gql(BACKUP)).extensions?.code).toBe('UNAVAILABLE');
  });

  it('takes no path from the request', async () => {
    const app = await started({ backupDir: path.join(tempDir(), 'backups') });
    const res = await app.gqlRaw(`mutation { backupDatabase(file: "/tmp/elsewhere.db") { file } }`);
    expect(onlyError(res).extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it.skipIf(onSqlite)('is refused on PostgreSQL with BAD_USER_INPUT that points to pg_dump, writing nothing', async () => {
    const folder = path.join(tempDir(), 'backups');
    const app = await started({ backupDir: folder });
    const error = onlyError(await app.gql(BACKUP));
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe('the data is in PostgreSQL, and backupDatabase copies a SQLite file: back PostgreSQL up with pg_dump');
    expect(existsSync(folder)).toBe(false);
  });
});

describe.skipIf(!onSqlite)('backupDatabase', () => {
  it('never overwrites a file', async () => {
    const app = await started();
    const target = path.join(tempDir(), 'taken.db');
    writeFileSync(target, 'precious');
    await expect(backupDatabase(path.join(app.dir, 'mnemo.db'), target)).rejects.toThrow(BackupError);
  });

  it('reports progress up to the whole file', async () => {
    const app = await started();
    const seen: number[] = [];
    const target = path.join(tempDir(), 'copy.db');
    const result = await backupDatabase(path.join(app.dir, 'mnemo.db'), target, (p) => seen.push(p.bytes / p.totalBytes));
    expect(seen.at(-1)).toBe(1);
    expect(result.bytes).toBeGreaterThan(0);
  });
});

describe.skipIf(!onSqlite)('restoreDatabase', () => {
  /** A data folder whose database holds one memory, written by a real app that has been stopped. */
  const folderWith = async (content: string) => {
    const dir = tempDir();
    const app = await startTestApp({ dir });
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'k1', key: content, content } });
    await app.close();
    return dir;
  };

  it('puts the backup in place and keeps the replaced database as mnemo.db.before-restore', async () => {
    const source = await folderWith('from the backup');
    const backup = path.join(tempDir(), 'b.db');
    await backupDatabase(path.join(source, 'mnemo.db'), backup);
    const target = await folderWith('written since');
    const result = restoreDatabase({ dataDir: target, databaseFile: path.join(target, 'mnemo.db'), from: backup });
    expect(result.previous).toBe(path.join(target, 'mnemo.db.before-restore'));
    expect(memoriesIn(path.join(target, 'mnemo.db'))).toBe('from the backup');
    expect(memoriesIn(path.join(target, 'mnemo.db.before-restore'))).toBe('written since');
  });

  it('keeps the database each restore replaces: a second restore sets its own aside as .before-restore.2', async () => {
    const source = await folderWith('from the backup');
    const backup = path.join(tempDir(), 'b.db');
    await backupDatabase(path.join(source, 'mnemo.db'), backup);
    const target = await folderWith('written first');
    const databaseFile = path.join(target, 'mnemo.db');
    restoreDatabase({ dataDir: target, databaseFile, from: backup });
    const second = restoreDatabase({ dataDir: target, databaseFile, from: backup });
    expect(second.previous).toBe(`${databaseFile}.before-restore.2`);
    expect(memoriesIn(`${databaseFile}.before-restore`)).toBe('written first');
    expect(memoriesIn(`${databaseFile}.before-restore.2`)).toBe('from the backup');
  });

  it('refuses while a server holds the data folder, and changes nothing', async () => {
    const source = await folderWith('from the backup');
    const backup = path.join(tempDir(), 'b.db');
    await backupDatabase(path.join(source, 'mnemo.db'), backup);
    const target = await folderWith('serving');
    const lock = holdDataFolder(target);
    cleanup.push(() => lock.release());
    expect(() => restoreDatabase({ dataDir: target, databaseFile: path.join(target, 'mnemo.db'), from: backup })).toThrow(
      /holds this data folder/,
    );
    expect(memoriesIn(path.join(target, 'mnemo.db'))).toBe('serving');
  });

  it('refuses a file that is not a database, and one that fails its integrity check', async () => {
    const target = await folderWith('kept');
    const notDb = path.join(tempDir(), 'notes.txt');
    writeFileSync(notDb, 'hello, not a database at all '.repeat(200));
    expect(() => restoreDatabase({ dataDir: target, databaseFile: path.join(target, 'mnemo.db'), from: notDb })).toThrow(BackupError);

    const damaged = path.join(tempDir(), 'damaged.db');
    await backupDatabase(path.join(target, 'mnemo.db'), damaged);
    // Overwrites an index page behind SQLite's back, as a failing disk would.
    const db = new SQLite(damaged, { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const root = db
      .prepare(`select rootpage from sqlite_schema where type = 'index' and tbl_name = 'memories' limit 1`)
      .pluck()
      .get() as number;
    db.close();
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    expect(() => restoreDatabase({ dataDir: target, databaseFile: path.join(target, 'mnemo.db'), from: damaged })).toThrow(/integrity/);
    expect(memoriesIn(path.join(target, 'mnemo.db'))).toBe('kept');
    expect(existsSync(path.join(target, 'mnemo.db.before-restore'))).toBe(false);
  });

  it('refuses a backup made by a newer mnemo', async () => {
    const target = await folderWith('kept');
    const newer = path.join(tempDir(), 'newer.db');
    await backupDatabase(path.join(target, 'mnemo.db'), newer);
    const db = new SQLite(newer);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(
      '2999_01_01_001_from_the_future',
      new Date().toISOString(),
    );
    db.close();
    expect(() => restoreDatabase({ dataDir: target, databaseFile: path.join(target, 'mnemo.db'), from: newer })).toThrow(/newer mnemo/);
  });
});
