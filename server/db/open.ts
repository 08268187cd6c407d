import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  /** The raw handle, for the few statements Kysely cannot express (FTS5 MATCH, vec0). */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens (creating if needed) a database file with the pragmas and extensions every connection needs. */
export function openDatabase(file: string): OpenedDatabase {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqliteVec.load(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite, close: () => db.destroy() };
}
