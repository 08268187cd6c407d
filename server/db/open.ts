import SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import { LRUCache } from 'lru-cache';
import * as sqliteVec from 'sqlite-vec';
import type { Database } from './schema.ts';
import { registerTenantTerms } from './tenantTerms.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  /**
   * The raw handle, outside Kysely's one-query-at-a-time discipline: for tests and tools that inspect the file,
   * and the index maintenance below. Every request's statement goes through `db` (FTS5 MATCH and vec0 as `sql`).
   */
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
  // A tenant's rows are spread over the whole file as tenants write in turns; a larger page cache (64 MiB)
  // and memory-mapped reads keep a retrieval from paying a file read per row.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  sqliteVec.load(sqlite);
  registerTenantTerms(sqlite);
  // Refreshes the planner's statistics where they are missing or stale (cheap, bounded by SQLite);
  // long-running servers repeat it, see optimizeDatabase.
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, sqlite, close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew, and preparing costs several times more than running a typical
 * statement here (an upsert: ~0.7 ms against ~0.1 ms). Queries built by Kysely repeat the same SQL text
 * with new parameters, so prepared statements are reused by text. Safe because Kysely runs one query at
 * a time on this connection.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  return {
    close: () => sqlite.close(),
    prepare: (sql) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Merge steps one maintenance run may take: about 10,000 pages written, a bounded pause for requests. */
export const MERGE_STEPS_PER_RUN = 20;

/** Run hourly by long-lived processes: keeps query plans right and the keyword index compact. */
export function optimizeDatabase(sqlite: SQLite.Database) {
  sqlite.pragma('optimize');
  mergeKeywordIndex(sqlite, MERGE_STEPS_PER_RUN);
}

/**
 * Every write transaction adds a small segment to the FTS5 index, and FTS5 only merges them in fours, so a
 * server that stores memories one at a time searches dozens of segments per query term (measured: a term's
 * setup cost fell by half to three quarters once merged). A negative 'merge' is an incremental 'optimize':
 * each step writes about 500 pages, so one call blocks for a bounded time and the next call continues.
 */
export function mergeKeywordIndex(sqlite: SQLite.Database, maxSteps = Infinity) {
  const changes = sqlite.prepare('select total_changes()').pluck();
  const merge = sqlite.prepare(`insert into memories_fts(memories_fts, rank) values ('merge', -500)`);
  for (let step = 0; step < maxSteps; step++) {
    const before = changes.get() as number;
    merge.run();
    // FTS5's documented signal: fewer than two changes means there was nothing left to merge.
    if ((changes.get() as number) - before < 2) return;
  }
}
