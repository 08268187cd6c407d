import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import type { Config } from './config.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type OpenedDatabase, type OpenedStore, openDatabase, openPostgres } from './db/open.ts';
import { postgresCode, sqliteCode, storageFault } from './db/storeErrors.ts';

/**
 * Opens the database in the data folder and migrates it to the latest schema. A SQLite file that is not there is
 * created (with its folder) only when `create` says so: a command run from the wrong folder would otherwise start an
 * empty database there and write to it, unnoticed. A file that SQLite finds damaged or cannot write fails with a
 * DatabaseFileError that names it and says what to do.
 */
export async function openData(config: Config, { create }: { create: boolean }): Promise<OpenedStore> {
  if (!config.databaseUrl && !create && !existsSync(config.databaseFile)) throw noDatabase(config.databaseFile);
  ensureDataDir(config);
  if (config.databaseUrl) {
    const store = openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize });
    try {
      await migrateToLatest(store.db);
      return store;
    } catch (error) {
      await store.close().catch(() => {});
      throw postgresError(config.databaseUrl, error);
    }
  }
  let opened: OpenedDatabase | undefined;
  try {
    opened = openDatabase(config.databaseFile);
    await migrateToLatest(opened.db);
    return opened;
  } catch (error) {
    await opened?.close().catch(() => {});
    throw databaseFileError(config.databaseFile, error) ?? error;
  }
}

/** What the logs and messages call the database: its file, or its PostgreSQL URL without the password. */
export function databaseName(config: Config): string {
  return config.databaseUrl ? redactUrl(config.databaseUrl) : config.databaseFile;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * Why the database cannot be used as it is: not there, damaged, not writable, a failing disk, PostgreSQL out of reach, or
 * PostgreSQL refusing for another reason. Each has its exit code (exitCodes.ts).
 */
export type DatabaseFault = 'missing' | 'damaged' | 'unwritable' | 'disk' | 'unreachable' | 'other';

export class DatabaseFileError extends Error {
  constructor(
    readonly fault: DatabaseFault,
    message: string,
  ) {
    super(message);
  }
}

/** No SQLite file where the settings point; `--create` is for commands that may start a new one. */
export function noDatabase(file: string, { creatable = true } = {}): DatabaseFileError {
  return new DatabaseFileError(
    'missing',
    `no mnemo database at ${file}; pass --data-dir or MNEMO_DATA_DIR${creatable ? ', or --create to start a new one' : ''}`,
  );
}

function databaseFileError(file: string, error: unknown): DatabaseFileError | null {
  // A failed migration carries SQLite's error as its cause.
  const cause = sqliteCode(error) ? error : (error as { cause?: unknown }).cause;
  const code = sqliteCode(cause);
  if (code === null) return null;
  const said = `SQLite: ${(cause as Error).message}`;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    return new DatabaseFileError(
      'damaged',
      `the database ${file} is damaged (${said}); mnemo changed nothing. Restore the latest backup with "mnemo restore BACKUP_FILE" ` +
        `(the damaged file is kept next to it as mnemo.db.before-restore), or salvage what is readable with "sqlite3 ${file} .recover".`,
    );
  }
  if (/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(code)) {
    return new DatabaseFileError(
      'unwritable',
      `the database ${file} cannot be opened for writing (${said}). mnemo writes its database: let the user that runs it ` +
        'write the file, the -wal and -shm files next to it and their folder, and check that the folder is not on a read-only mount.',
    );
  }
  if (/^SQLITE_(IOERR|FULL)/.test(code)) {
    return new DatabaseFileError(
      'disk',
      `the database ${file} could not be read or written (${said}). Check the disk it is on (space, errors in the system log).`,
    );
  }
  return null;
}

/**
 * PostgreSQL could not be reached, refused the login or failed a migration: what it said (a refused connection says
 * nothing, its code does), with the URL less its password.
 */
function postgresError(url: string, error: unknown): DatabaseFileError {
  // A failed migration carries the server's error as its cause.
  const cause = postgresCode(error) || !(error as { cause?: unknown }).cause ? error : (error as { cause: unknown }).cause;
  const fault = storageFault(cause);
  const said = (cause as Error).message || fault?.message || String(cause);
  const code = postgresCode(cause);
  const kind = fault?.code === 'STORAGE_FULL' ? 'disk' : fault ? 'unreachable' : 'other';
  return new DatabaseFileError(kind, `PostgreSQL at ${redactUrl(url)}: ${said}${code ? ` (${code})` : ''}`);
}

/** Creates the data folder if needed; fails with DataDirError when it cannot be written. */
export function ensureDataDir(config: Config) {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    accessSync(config.dataDir, constants.W_OK);
  } catch (error) {
    throw new DataDirError(`the data folder ${config.dataDir} is not writable (${(error as Error).message})`);
  }
}

export class DataDirError extends Error {}
