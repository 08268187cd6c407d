import { BackupError } from './backup/backup.ts';
import { DataFolderBusyError } from './backup/dataFolderLock.ts';
import { ConfigError } from './config.ts';
import { type CopyRefusal, CopyStoreError } from './copyStore/copyStore.ts';
import { TrustedDocumentsError } from './graphql/trustedDocuments.ts';
import { type DatabaseFault, DatabaseFileError, DataDirError } from './openData.ts';
import { VectorConfigError } from './vectorConfig.ts';

/** The command line is wrong: a missing argument, an unknown command or subcommand. */
export class UsageError extends Error {}

export interface ExitCode {
  code: number;
  /** Its name in sysexits(3) (1 has none there: C's own). */
  name: string;
  /** What it tells the person who ran the command, and what to do: the README's table. */
  meaning: string;
  /** The failures that end a command with this code. Without it, only commands that return the code themselves use it. */
  matches?: (error: unknown) => boolean;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null | undefined)?.code;
const refused = (error: unknown, reason: CopyRefusal) => error instanceof CopyStoreError && error.reason === reason;
const databaseFault = (error: unknown, fault: DatabaseFault) => error instanceof DatabaseFileError && error.fault === fault;

/**
 * How a command ends when it fails: sysexits(3) codes, so that scripts can tell a usage error from a busy port, an
 * unwritable folder or a damaged database. Each failure matches at most one row; one that matches none is a fault of
 * mnemo's own and exits 70 too, with its stack when asked for.
 */
export const EXIT_CODES = {
  failed: {
    code: 1,
    name: 'EXIT_FAILURE',
    meaning:
      'the command ran but did not succeed: a token id that does not exist, a reindex that did not complete, ' +
      '`copy-store` counts that differ',
    matches: (error) => codeOf(error) === 'NOT_FOUND',
  },
  usage: {
    code: 64,
    name: 'EX_USAGE',
    meaning:
      'the command line or a setting is wrong: an unknown command or flag, a missing argument, a setting out of range, ' +
      'an unreadable trusted-documents manifest; for `mcp`, no `MNEMO_TOKEN` or a bad `MNEMO_URL`',
    matches: (error) =>
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof VectorConfigError ||
      error instanceof TrustedDocumentsError ||
      codeOf(error) === 'BAD_USER_INPUT' ||
      String(codeOf(error)).startsWith('ERR_PARSE_ARGS'),
  },
  dataErr: {
    code: 65,
    name: 'EX_DATAERR',
    meaning:
      'damaged database (SQLite finds it corrupt or not a database): restore a backup with `mnemo restore FILE`, which ' +
      'keeps the damaged file as `mnemo.db.before-restore`, or salvage it with `sqlite3 mnemo.db .recover`. Also a ' +
      '`backup` or `restore` that refuses its file (it exists already, fails its integrity check, is not a mnemo ' +
      'database), and a `copy-store` target holding other data',
    matches: (error) => error instanceof BackupError || refused(error, 'other-data') || databaseFault(error, 'damaged'),
  },
  noInput: {
    code: 66,
    name: 'EX_NOINPUT',
    meaning:
      'no mnemo database where the settings point (`--data-dir`, `MNEMO_DATA_DIR`, `./data`): `token`, `reindex`, ' +
      '`purge` and `audit export` refuse to start a new one unless given `--create`, and `backup` has nothing to copy; ' +
      '`copy-store` finds no database in the `--from` folder',
    matches: (error) => refused(error, 'no-source') || databaseFault(error, 'missing'),
  },
  unavailable: {
    code: 69,
    name: 'EX_UNAVAILABLE',
    meaning:
      'port unavailable, data folder held by another mnemo (stop it first), PostgreSQL out of reach; for `mcp`, no mnemo ' +
      'at `MNEMO_URL`',
    matches: (error) =>
      error instanceof DataFolderBusyError ||
      refused(error, 'unreachable') ||
      databaseFault(error, 'unreachable') ||
      codeOf(error) === 'UNAVAILABLE',
  },
  software: {
    code: 70,
    name: 'EX_SOFTWARE',
    meaning: 'anything else; a stack trace only with `MNEMO_LOG_LEVEL=debug` (or `trace`)',
    matches: (error) => databaseFault(error, 'other'),
  },
  cantCreate: {
    code: 73,
    name: 'EX_CANTCREAT',
    meaning: 'data folder or database not writable (a read-only file, its `-wal`/`-shm`, a read-only mount)',
    matches: (error) => error instanceof DataDirError || databaseFault(error, 'unwritable'),
  },
  ioErr: {
    code: 74,
    name: 'EX_IOERR',
    meaning: 'I/O error on the database, or its disk is full',
    matches: (error) => databaseFault(error, 'disk'),
  },
  noPerm: {
    code: 77,
    name: 'EX_NOPERM',
    meaning: '`mcp`: the running mnemo refuses the token',
  },
} as const satisfies Record<string, ExitCode>;

/** The codes by the names the code uses for them. */
export const EXIT = Object.fromEntries(Object.entries(EXIT_CODES).map(([key, row]) => [key, row.code])) as {
  [K in keyof typeof EXIT_CODES]: (typeof EXIT_CODES)[K]['code'];
};

/** The row of a failure; undefined for one that mnemo did not foresee. */
export function exitCodeOf(error: unknown): ExitCode | undefined {
  return Object.values(EXIT_CODES).find((row: ExitCode) => row.matches?.(error));
}

/** The table as the documentation shows it. */
export function exitCodesMarkdown(): string {
  const rows = Object.values(EXIT_CODES).map((row) => `| ${row.code} \`${row.name}\` | ${row.meaning} |`);
  return ['| code | meaning |', '|---|---|', ...rows].join('\n');
}
