import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { freePort } from './freePort.ts';

/**
 * A throwaway PostgreSQL 15 cluster for tests and benchmarks: initdb and pg_ctl on a temp folder and a free port, with
 * durability (fsync, synchronous commit) and autovacuum off, since it is thrown away. Runs them as the `postgres` user
 * when started by root (initdb refuses root), as the current user otherwise: any developer with Debian's postgresql-15
 * can run it.
 */
export interface PostgresCluster {
  /** A superuser URL of the cluster's `postgres` database. */
  url: string;
  stop(): void;
}

const BIN = process.env.MNEMO_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export function postgresAvailable(): boolean {
  return existsSync(path.join(BIN, 'initdb'));
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!postgresAvailable()) {
    throw new Error(`PostgreSQL 15 is not installed (no ${BIN}/initdb): apt-get install -y postgresql-15, or set MNEMO_TEST_PG_BIN`);
  }
  const root = mkdtempSync(path.join(tmpdir(), 'mnemo-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(root, 0o755);
    const { uid, gid } = userIds('postgres');
    chownSync(root, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args]] : [path.join(BIN, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const data = path.join(root, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    // No autovacuum: its ANALYZE holds a snapshot that keeps an erase's VACUUM from removing row versions (the erasure
    // tests would then find them, now and then), and tests and benchmarks run ANALYZE themselves where they need it.
    '-c autovacuum=off',
    // Compiling a query to machine code pays off on long analytic queries; here it only cost the erasure tests' scans of
    // raw pages (about a second each time).
    '-c jit=off',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-l', path.join(root, 'server.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs `use` on a Kysely connection to the URL and closes it. */
export async function withPostgres<T>(url: string, use: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

/** The URL of another database on the same server. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates `name` unless it exists, as a copy of `template` (a migrated database without connections: much faster
 * than migrating anew); returns its URL. `serverUrl`: a superuser's URL on the same server.
 */
export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  await createDatabase(serverUrl, name, template);
  return databaseUrl(serverUrl, name);
}

const adminConnections = new Map<string, Kysely<unknown>>();

/**
 * One connection per server and process for creating and dropping databases, kept open: each test app on PostgreSQL
 * does both, and a connection of its own for each cost a PostgreSQL backend's start and exit (about 20 ms of CPU) twice
 * per app. It lets the process exit while idle, and a cluster stopped under it only costs it its next query's reconnect.
 */
function adminConnection(serverUrl: string): Kysely<unknown> {
  let db = adminConnections.get(serverUrl);
  if (!db) {
    const pool = new pg.Pool({ connectionString: serverUrl, max: 1, allowExitOnIdle: true });
    pool.on('error', () => {});
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    adminConnections.set(serverUrl, db);
  }
  return db;
}

/** ensureDatabase's work; true when it created the database, false when it was there already. */
export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<boolean> {
  const db = adminConnection(serverUrl);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_database where datname = ${name}`.execute(db);
  if (rows[0]!.n > 0) return false;
  // A file copy of the template is a fraction of the default strategy's time (which writes every page to the WAL):
  // nothing here needs a copy's WAL, as no test database is replicated or recovered.
  await sql`create database ${sql.id(name)} ${template ? sql`template ${sql.id(template)} strategy file_copy` : sql``}`.execute(db);
  return true;
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await sql`drop database if exists ${sql.id(name)} with (force)`.execute(adminConnection(serverUrl));
}

function userIds(user: string) {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
