import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import { rowCount } from '../db/rowCount.ts';
import type { MemoryRow, MemoryTypeValue } from '../db/schema.ts';
import { isActive } from '../db/scope.ts';
import { storedFactSignatures } from './factIndex.ts';

/**
 * Up to `limit` active, current memories of exactly this key, session (null: key-wide ones only) and type that hold one
 * of the fact index's `hashes` (factIndex.ts factProbe): a probe of the index's primary key, never a scan of the key.
 * Two statements, the memories asked for only when the index holds any: most new facts restate nothing, and the probe
 * alone costs PostgreSQL's planner a tenth of the join. Each row also says whether a memory of the key already holds
 * `key` (keyTaken): the new text's own key, which makes it an upsert rather than a paraphrase.
 */
export async function memoriesWithFactSignatures(
  db: Db,
  s: { apiKeyId: string; sessionId: string | null; type: MemoryTypeValue; now: number; retentionCutoff: number; key: string },
  hashes: readonly number[],
  limit: number,
) {
  if (hashes.length === 0) return [];
  // Written as SQL: every fact written asks both, and building them cost more than the database's probe of its primary
  // key.
  const { rows: indexed } = await sql<{ memory_pk: number }>`
    select memory_pk from memory_fact_signatures where signature in (${sql.join(hashes)})`.execute(db);
  if (indexed.length === 0) return [];
  // The rows are chosen by pk: expressions of the other columns keep SQLite from walking the key's rows through its own
  // indexes instead (as memory.repository's other pk lookups do).
  const { rows } = await sql<MemoryRow & { keyTaken: number | boolean }>`
    select *, exists (select pk from memories as holder where holder.api_key_id = ${s.apiKeyId} and holder.key = ${s.key}) as "keyTaken"
    from memories
    where pk in (${sql.join(indexed.map((r) => r.memory_pk))})
      and memories.api_key_id || '' = ${s.apiKeyId} and memories.type || '' = ${s.type}
      and coalesce(memories.session_id, '') = ${s.sessionId ?? ''}
      and archived_by is null and valid_to is null and ${isActive(s.now, s.retentionCutoff)}
    limit ${rowCount(limit)}`.execute(db);
  return rows;
}

/** Memories per statement when stored memories are indexed. */
const BATCH = 500;

/**
 * Sets memories.fact_signatures of the stored memories after pk `after` (every one by default), in batches by pk, and
 * with it (by trigger) their rows of the index: for a store the index is new to, or memories written around the
 * server's write path (a bench's seed).
 */
export async function backfillFactSignatures(db: Db, o: { after?: number } = {}) {
  for (let after = o.after ?? 0; ; ) {
    const memories = await db
      .selectFrom('memories')
      .select(['pk', 'api_key_id', 'type', 'content', 'metadata'])
      .where('pk', '>', after)
      .orderBy('pk')
      .limit(BATCH)
      .execute();
    const run = async (trx: Db) => {
      for (const m of memories) {
        const signatures = storedFactSignatures(m);
        if (signatures !== null) await trx.updateTable('memories').set({ fact_signatures: signatures }).where('pk', '=', m.pk).execute();
      }
    };
    await (db.isTransaction ? run(db) : db.transaction().execute(run));
    if (memories.length < BATCH) return;
    after = memories[memories.length - 1]!.pk;
  }
}
