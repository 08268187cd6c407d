import type { DialectAdapter, Kysely, Migration, RawBuilder } from 'kysely';
import type { Db } from './open.ts';
import type { MemoryRow } from './schema.ts';
import type { RetrievalScope } from './scope.ts';

/** The stores mnemo keeps its data in: an embedded SQLite file, or a PostgreSQL server shared by replicas. */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * A store's keyword index: FTS5 on SQLite, postings in a B-tree on PostgreSQL, with one ranking contract (BM25 with
 * each key's own statistics; see db/sqlite/keywordSearch.ts and db/postgres/keywordSearch.ts).
 */
/**
 * Keyword search's answer: the ranked memories, each with the indices (into the searched words) of the words it holds,
 * and the key's own document frequencies of the words, which the relevance floor weighs (retrieval/keywordEvidence.ts).
 */
export interface KeywordHits {
  rows: (MemoryRow & { score: number; matched: number[] })[];
  /** The key's memories in the keyword index: the N of its statistics. */
  memories: number;
  /** Per searched word, how many of the key's memories hold it (0: none). */
  holding: number[];
}

export interface KeywordSearch {
  /** BM25-ranked memories in scope holding any of `words` (as searchWords gives them), best first. */
  keywordCandidates(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits>;
  /** The pks of memories holding every word of an admin search, the last as a prefix; null when there is no word. */
  listSearchMatches(text: string, apiKeyId: string | null): RawBuilder<number> | null;
  /** A real query against the index, and the number of memories it holds; for the engine status. */
  probeKeywordIndex(db: Db): Promise<number>;
  /** forgetApiKey: removes what the index keeps of the key beyond its memories' entries, which their deletes took. */
  forgetKey(db: Db, apiKeyId: string): Promise<void>;
}

/**
 * Who makes a change of memories and why, for the versions the history trigger keeps (migrations 020 and 008):
 * a token's id, 'extraction', 'import', 'admin' or 'system'; `at` is the writer's clock (the database's when absent).
 */
export interface ChangeContext {
  by: string;
  why: string;
  at?: number;
}

/** Bytes the store holds on disk, by part; a part the store cannot tell (PostgreSQL's WAL, a SQLite in memory) is absent. */
export type StoreSize = { db?: number; wal?: number };

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

/**
 * Everything that differs between stores, as one object per store: db/sqlite/dialect.ts and db/postgres/dialect.ts,
 * each assembled from the modules of its folder. The opener of a store (openDatabase, openPostgres) binds its dialect
 * to the Kysely instance it returns, and code reaches it with storeDialect(db): from the database or any transaction
 * on it, so repositories keep their one `db` argument and never ask which store they run on. A new store is a new
 * folder with its opener and dialect, and its name in StoreKind.
 *
 * The folders sit in db/, the lowest wing, so that every wing can reach its store's functions; they import nothing
 * above db/ (the store-independent pieces the keyword searches share, scope.ts, rankedHead.ts and searchWords.ts, are
 * in db/ for that reason). What a store's SQL cannot say, such as where its vectors live, is a plain field here, and
 * the wing concerned picks its own strategy by it.
 */
export interface StoreDialect {
  kind: StoreKind;
  /** The store's schema migrations, in order (migrations/, migrations/postgres/). */
  migrations: Record<string, Migration>;
  /**
   * Whether the store keeps every vector itself (sqlite-vec, in SQLite's file), Qdrant then holding a copy; if not,
   * Qdrant's collection is its only vector index (PostgreSQL, where pgvector is not assumed).
   */
  keepsVectors: boolean;
  /**
   * Whether reads sent together run side by side: PostgreSQL's pool gives each its own connection; SQLite's one
   * connection runs them one after the other, and interleaving their awaits only adds to each.
   */
  parallelReads: boolean;
  keywordSearch: KeywordSearch;
  /** The upsert's metadata on a clash of (api key, key): the stored object, the new one's top-level keys replacing its own. */
  mergedMetadata: RawBuilder<string>;
  /**
   * Runs `write` with `change` as the change context of the transaction `trx` (the history trigger's who and why),
   * putting back the context it found once done: db/sqlite/changeContext.ts, db/postgres/changeContext.ts.
   */
  withChange<T>(trx: Db, change: ChangeContext, write: () => Promise<T>): Promise<T>;
  /** The key's newest memories in scope (EXACT), newest updated first, at most `limit`. */
  newestInScope(db: Db, scope: RetrievalScope, limit: number): Promise<MemoryRow[]>;
  /** Adds [pk, count, lastAt] to each memory's access counter and last access, in one statement. */
  addMemoryAccess(db: Db, memories: readonly (readonly [number, number, number])[]): Promise<void>;
  /** Adds [apiKeyId, retrievals, hits] to each key's retrieval statistics, in one statement. */
  addKeyRetrievals(db: Db, keys: readonly (readonly [string, number, number])[]): Promise<void>;
  /** A standing fact (PROFILE_CATEGORIES), written as the predicate of the partial index memories_profile. */
  isProfileMemory: RawBuilder<boolean>;
  /** The value at `path` of the JSON text in `column` (null when absent). */
  jsonValue(column: string, path: readonly string[]): RawBuilder<unknown>;
  /**
   * A JSON array parameter as a table of its elements, one column `value` (each element as JSON, so `value ->> 0`
   * reads an inner array on both stores): one statement text whatever the array's length.
   */
  jsonArrayRows(json: string): RawBuilder<unknown>;
  /** `column` LIKE `pattern` (escape character `\`), ASCII letters in either case. */
  likeIgnoringAsciiCase(column: string, pattern: string): RawBuilder<boolean>;
  /** `column` starts with `prefix`, case-sensitive, as a range an index of the column reads (memories.key's on both stores). */
  startsWith(column: string, prefix: string): RawBuilder<boolean>;
  /** `column` equals `value`, compared as startsWith compares (the same index). */
  keyEquals(column: string, value: string): RawBuilder<boolean>;
  /** Run hourly by long-lived processes: keeps query plans right and the keyword index compact. */
  optimizeDatabase(db: Db): Promise<void>;
  /** Compacts the keyword index by up to `maxSteps` bounded steps. */
  mergeKeywordIndex(db: Db, maxSteps?: number): Promise<void>;
  /** Makes the database file alone hold everything (a shutdown); returns whether it could in full. */
  checkpointWal(db: Db): Promise<boolean>;
  /** What an erase does once its rows are gone, so that their bytes leave the files too (see db/maintenance.ts). */
  afterErase(db: Db): Promise<boolean>;
  /** What the database takes on disk. */
  storeSize(db: Db): Promise<StoreSize>;
  /** Asks the store itself what it is and where, with a real query. */
  describe(db: Db): Promise<StoreDescription>;
  /** The file the database lives in; null for an in-memory one, and on a server whose files are its own. */
  databaseFile(db: Db): Promise<string | null>;
}

// Keyed by the Kysely adapter, which a transaction shares with the database it was opened on.
const dialects = new WeakMap<DialectAdapter, StoreDialect>();

/** Binds a store's dialect to the database an opener just made; done once, when the store opens. */
export function bindStoreDialect<DB>(db: Kysely<DB>, dialect: StoreDialect): void {
  dialects.set(db.getExecutor().adapter, dialect);
}

/** The dialect of the store `db` (or a transaction on it) talks to. */
export function storeDialect<DB>(db: Kysely<DB>): StoreDialect {
  const dialect = dialects.get(db.getExecutor().adapter);
  if (!dialect) throw new Error('this database was not opened by a store opener (openDatabase, openPostgres)');
  return dialect;
}
