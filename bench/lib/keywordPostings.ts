import * as postgresIndex from '../../server/db/postgres/keywordIndex.ts';
import * as sqliteIndex from '../../server/db/sqlite/keywordIndex.ts';
import type { BenchDb } from './benchDb.ts';

/**
 * Waits until the key's keyword postings are in memory, as on a server that has served the key a while (a large key's
 * are built behind its first search, which the store's own statement answers meanwhile); the time that took, or null
 * when they are not there within two minutes (a key beyond the postings' budget).
 */
export async function keywordPostingsBuilt(db: BenchDb, apiKeyId: string): Promise<number | null> {
  const { keywordIndexOf } = db.database.kind === 'sqlite' ? sqliteIndex : postgresIndex;
  const index = keywordIndexOf(db.database.db);
  const start = performance.now();
  while (performance.now() - start < 120_000) {
    if (await index.postings(db.database.db, apiKeyId)) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}
