import type { Db } from '../db/open.ts';
import { storeKind } from '../db/store.ts';
import * as postgres from './keywordSearch.postgres.ts';
import * as sqlite from './keywordSearch.sqlite.ts';

/**
 * The keyword index of the store a database runs on: FTS5 on SQLite, postings in a B-tree on PostgreSQL, each module
 * with the same exports and the same ranking contract. The one place that picks between them.
 */
export function keywordSearch(db: Db): typeof sqlite {
  return { sqlite, postgres }[storeKind(db)];
}
