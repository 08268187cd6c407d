import type { Db } from '../db/open.ts';
import { keywordSearch } from '../search/keywordSearch.ts';
import { SUMMARY_KEY_PREFIX } from './digest.ts';
import { hasSummaryKey } from './summary.repository.ts';

/** Removes the key's retrieval statistics; returns how many retrievals they counted. */
export async function deleteRetrievalStats(db: Db, apiKeyId: string) {
  const row = await db.deleteFrom('retrieval_stats').where('api_key_id', '=', apiKeyId).returning('retrievals').executeTakeFirst();
  return row?.retrievals ?? 0;
}

/**
 * Deletes up to `limit` rows of the key and says what they were: its own memories, originals archived by a summary,
 * summaries. Summaries go last: deleting one brings back the originals it archived (a trigger), which would then no
 * longer count as archived; an original always has a smaller pk than its summary, so within the last batches too it
 * goes first. The triggers take keyword entries, vectors and counts with each row and queue its Qdrant point's removal.
 */
export async function deleteKeyBatch(db: Db, apiKeyId: string, limit: number) {
  const rows = await db
    .deleteFrom('memories')
    .where('pk', 'in', (eb) =>
      eb.selectFrom('memories').select('pk').where('api_key_id', '=', apiKeyId).orderBy(hasSummaryKey).orderBy('pk').limit(limit),
    )
    .returning(['archived_by', 'key'])
    .execute();
  const summaries = rows.filter((r) => r.archived_by === null && r.key.startsWith(SUMMARY_KEY_PREFIX)).length;
  const archived = rows.filter((r) => r.archived_by !== null).length;
  return { rows: rows.length, archived, summaries };
}

/** What the keyword index keeps of the key besides its memories' entries (SQLite: its change feed's rows). */
export async function deleteKeywordTraces(db: Db, apiKeyId: string) {
  await keywordSearch(db).forgetKey(db, apiKeyId);
}

/** The key's row in memory_counts: the triggers count it down to 0 but leave it. */
export async function deleteMemoryCount(db: Db, apiKeyId: string) {
  await db.deleteFrom('memory_counts').where('api_key_id', '=', apiKeyId).execute();
}

/** The key's injection log; returns how many entries it held. */
export async function deleteInjectionLog(db: Db, apiKeyId: string) {
  const result = await db.deleteFrom('injection_log').where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The key's daily usage of the extraction model; returns how many days it counted. */
export async function deleteExtractionModelUsage(db: Db, apiKeyId: string) {
  const result = await db.deleteFrom('extraction_model_usage').where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The key's evaluation sets, with their questions and runs (on delete cascade); returns how many sets. */
export async function deleteEvaluationSets(db: Db, apiKeyId: string) {
  const result = await db.deleteFrom('evaluation_sets').where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
