import { sql } from 'kysely';
import type { Db } from '../db/open.ts';

/** Memories whose vector is missing or stale, in primary-key order. */
export async function pendingMemories(db: Db, o: { limit: number; afterPk?: number; apiKeyId?: string }) {
  let q = db
    .selectFrom('memories')
    .selectAll()
    .where('needs_reindex', '=', 1)
    .where('pk', '>', o.afterPk ?? 0);
  if (o.apiKeyId !== undefined) q = q.where('api_key_id', '=', o.apiKeyId);
  return q.orderBy('pk').limit(o.limit).execute();
}

/** Clears flags only where the content is still what was embedded; `alsoDo` joins the transaction. */
export async function clearReindexFlags(db: Db, done: readonly { pk: number; content: string }[], alsoDo: (trx: Db) => Promise<unknown>) {
  if (done.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const d of done) {
      await trx.updateTable('memories').set({ needs_reindex: 0 }).where('pk', '=', d.pk).where('content', '=', d.content).execute();
    }
    await alsoDo(trx);
  });
}

export async function countPending(db: Db, afterPk = 0) {
  const { rows } = await sql<{ n: number }>`select count(*) as n from memories where needs_reindex = 1 and pk > ${afterPk}`.execute(db);
  return rows[0]?.n ?? 0;
}

export async function flagAll(db: Db) {
  await db.updateTable('memories').set({ needs_reindex: 1 }).where('needs_reindex', '=', 0).execute();
}
