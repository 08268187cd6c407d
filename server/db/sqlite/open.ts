import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, type SqliteDatabase, SqliteDialect, SqliteDriver } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type { OpenedStore } from '../open.ts';
import type { Database } from '../schema.ts';
import { bindStoreDialect } from '../storeDialect.ts';
import { registerTenantTerms } from '../tenantTerms.ts';
import { BUSY_TIMEOUT_MS } from './busyTimeout.ts';
import { bindChangeContext, registerChangeContext } from './changeContext.ts';
import { sqliteDialect } from './dialect.ts';
import { RowLimitCompiler } from './rowLimitCompiler.ts';
import { withStatementCache } from './statementCache.ts';

export interface OpenedDatabase extends OpenedStore {
  kind: 'sqlite';
  /**
   * The raw handle, outside Kysely's one-query-at-a-time discipline: for tests and tools that inspect the file.
   * Every statement of the server goes through `db` (FTS5 MATCH, vec0 and index maintenance as `sql`), so none
   * can land inside another request's open transaction.
   */
  sqlite: SQLite.Database;
}

/** Opens (creating if needed) a database file with the pragmas and extensions every connection needs. */
export function openDatabase(file: string): OpenedDatabase {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // A tenant's rows are spread over the whole file as tenants write in turns; a larger page cache (64 MiB)
  // and memory-mapped reads keep a retrieval from paying a file read per row.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  // A deleted memory leaves no bytes behind: freed cells and pages are overwritten with zeros (the keyword index
  // does the same inside its segments, migration 009), and ANALYZE keeps counts only, no sample rows (sqlite_stat4
  // would hold copies of keys and index terms that no delete reaches).
  sqlite.pragma('secure_delete = ON');
  // A write inside a transaction keeps the pages it changes in a statement journal, to undo the statement alone if it
  // fails; past 64 KiB SQLite moves that journal to a temporary file. A memory's insert (keyword index, fact index and
  // history included) went there, and writing the file cost it about 40% of its time. In memory, users' text is never
  // written to a temporary file that nothing erases either. The cost: a statement that changes a great many pages in
  // one go (a clear of a whole key) holds their old images in memory until it ends.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('analysis_limit = 1000');
  sqliteVec.load(sqlite);
  registerTenantTerms(sqlite);
  const changeContext = registerChangeContext(sqlite);
  // Refreshes the planner's statistics where they are missing or stale (cheap, bounded by SQLite), before the
  // first query; long-running servers repeat it (maintenance.ts).
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new RollbackAwareDialect(sqlite) });
  bindStoreDialect(db, sqliteDialect);
  bindChangeContext(db, changeContext);
  return { db, kind: 'sqlite', sqlite, close: () => db.destroy() };
}

/**
 * SQLite rolls a transaction back by itself after some errors (a full disk, an I/O error). Kysely's rollback would then
 * fail with "cannot rollback - no transaction is active" and throw that in place of the error that says what happened.
 */
class RollbackAwareDialect extends SqliteDialect {
  private readonly config: { database: SqliteDatabase };

  constructor(private readonly sqlite: SQLite.Database) {
    const config = { database: withStatementCache(sqlite) };
    super(config);
    this.config = config;
  }

  override createQueryCompiler() {
    return new RowLimitCompiler();
  }

  override createDriver() {
    const sqlite = this.sqlite;
    return new (class extends SqliteDriver {
      // A transaction takes the write lock when it begins, waiting for it (busy_timeout) while another process writes.
      // Deferred, one that read first would fail at its first write with SQLITE_BUSY, without waiting, whenever another
      // process (a worker of the same server, a tool) committed in between: its snapshot is stale by then.
      override async beginTransaction(connection: DatabaseConnection) {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }

      override async rollbackTransaction(connection: DatabaseConnection) {
        if (sqlite.inTransaction) await super.rollbackTransaction(connection);
      }
    })(this.config);
  }
}
