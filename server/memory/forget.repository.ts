import type { Db } from '../db/open.ts';
import { SUMMARY_KEY_PREFIX } from './digest.ts';

/** Removes the key's retrieval statistics; returns how many retrievals they counted. */
export async function deleteRetrievalStats(db: Db, apiKeyId: string) {
  const row = await db.deleteFrom('retrieval_stats').where('api_key_id', '=', apiKeyId).returning('retrievals').executeTakeFirst();
  return row?.retrievals ?? 0;
}

/** The key's rows by kind: its own memories, originals archived by a summary, and summaries. */
export async function keyRows(db: Db, apiKeyId: string) {
  const summary = `${SUMMARY_KEY_PREFIX}%`;
  return db
    .selectFrom('memories')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('pk').filterWhere('archived_by', 'is not', null).as('archived'),
      eb.fn
        .count<number>('pk')
        .filterWhere((f) => f.and([f('archived_by', 'is', null), f('key', 'like', summary)]))
        .as('summaries'),
    ])
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirstOrThrow();
}

/** The key's row in memory_counts: the triggers count it down to 0 but leave it. */
export async function deleteMemoryCount(db: Db, apiKeyId: string) {
  await db.deleteFrom('memory_counts').where('api_key_id', '=', apiKeyId).execute();
}
