import { sql } from 'kysely';
import { type Db, databaseFile } from './open.ts';
import { type StoreKind, storeKind } from './store.ts';

/** Which store the server keeps its data in, and where: never a password. */
export interface StoreDescription {
  kind: StoreKind;
  /** SQLite: the database file (null for an in-memory one). */
  file: string | null;
  /** PostgreSQL: the server's address and port as it reports them (null over a Unix socket). */
  host: string | null;
  port: number | null;
  /** PostgreSQL: the database's name. */
  database: string | null;
  /** The engine's version, as it reports it. */
  version: string;
}

async function describeSqlite(db: Db): Promise<StoreDescription> {
  const { rows } = await sql<{ version: string }>`select sqlite_version() as version`.execute(db);
  return { kind: 'sqlite', file: await databaseFile(db), host: null, port: null, database: null, version: rows[0]!.version };
}

async function describePostgres(db: Db): Promise<StoreDescription> {
  const { rows } = await sql<{ host: string | null; port: number | null; database: string; version: string }>`
    select host(inet_server_addr()) as host, inet_server_port() as port, current_database() as database,
      current_setting('server_version') as version`.execute(db);
  const { host, port, database, version } = rows[0]!;
  return { kind: 'postgres', file: null, host, port, database, version };
}

/** Asks the store itself what it is and where, with a real query. */
export function describeStore(db: Db): Promise<StoreDescription> {
  return { sqlite: describeSqlite, postgres: describePostgres }[storeKind(db)](db);
}
