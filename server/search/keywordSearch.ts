import type { Db } from '../db/open.ts';
import { type KeywordSearch, storeDialect } from '../db/storeDialect.ts';

/**
 * The keyword index of the store a database runs on: FTS5 on SQLite, postings in a B-tree on PostgreSQL, each with
 * the same ranking contract (db/sqlite/keywordSearch.ts, db/postgres/keywordSearch.ts).
 */
export function keywordSearch(db: Db): KeywordSearch {
  return storeDialect(db).keywordSearch;
}
