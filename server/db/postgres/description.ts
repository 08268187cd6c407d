import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { StoreDescription } from '../storeDialect.ts';

/** The PostgreSQL store: the server's address as it reports it, the database's name, the server's version. */
export async function describe(db: Db): Promise<StoreDescription> {
  const { rows } = await sql<{ host: string | null; port: number | null; database: string; version: string }>`
    select host(inet_server_addr()) as host, inet_server_port() as port, current_database() as database,
      current_setting('server_version') as version`.execute(db);
  const { host, port, database, version } = rows[0]!;
  return { kind: 'postgres', file: null, host, port, database, version };
}
