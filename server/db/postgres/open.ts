import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { OpenedStore } from '../open.ts';
import type { Database } from '../schema.ts';
import { bindStoreDialect } from '../storeDialect.ts';
import { postgresDialect } from './dialect.ts';

// Counts, sums, ids and epoch milliseconds come back as bigint (int8) and numeric, which pg hands over as strings
// to be safe beyond 2^53. mnemo's values are far below it (ids, counts, times in ms), and the row types say number,
// as SQLite returns them.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface PostgresOptions {
  /** Connections this process keeps open at most; replicas add theirs up against the server's max_connections. */
  poolSize: number;
}

/** Connects to PostgreSQL (no query is sent yet: the first migration or query opens the first connection). */
export function openPostgres(url: string, options: PostgresOptions): OpenedStore {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize, application_name: 'mnemo' });
  // An idle connection that the server drops (a restart, a failover) emits an error on the pool; without a listener
  // that would end the process. The next query opens a fresh connection.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  bindStoreDialect(db, postgresDialect);
  return { db, kind: 'postgres', close: () => db.destroy() };
}
