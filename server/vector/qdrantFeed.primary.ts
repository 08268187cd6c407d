import type { Db } from '../db/open.ts';
import * as repo from './qdrant.repository.ts';
import { pointFields, type QdrantIndex } from './qdrantIndex.ts';
import { flagAll } from './vector.repository.ts';

/**
 * How Qdrant follows a store that keeps no vectors (PostgreSQL), where it is the only vector store: vectors are written
 * to it directly when memories are embedded (QdrantPrimaryIndex), so the outbox carries the rest, queued by the triggers
 * in the transaction of the change: a delete removes the point (a deleted memory, or new content whose old vector must not be found), an
 * upsert rewrites the point's filter fields (type, session, expiry, updated_at, archiving) and keeps its vector.
 */

/** What a new (empty) collection receives: every memory, flagged to be embedded into it by the worker or a reindex. */
export async function fillCollection(db: Db, _now: number) {
  await flagAll(db);
}

/**
 * Carries a batch of queued changes to Qdrant with the memories locked (a write to one of them waits, and queues its own
 * entry after this one is gone), then takes the batch's entries off the queue in the same transaction.
 */
export async function carryOutbox(db: Db, index: QdrantIndex, batch: readonly { pk: number }[], alsoDo?: (trx: Db) => Promise<unknown>) {
  await db.transaction().execute(async (trx) => {
    const pks = batch.map((b) => b.pk);
    const rows = new Map((await repo.lockMemories(trx, pks)).map((r) => [r.pk, r]));
    // Read again under the lock: an embedding that stored a point meanwhile took its entry off the queue.
    const entries = await repo.lockOutboxEntries(trx, pks);
    await index.delete(entries.filter((e) => e.op === 'delete' || !rows.has(e.pk)).map((e) => e.pk));
    await index.setPayloads(entries.flatMap((e) => (e.op === 'upsert' && rows.has(e.pk) ? [pointFields(rows.get(e.pk)!)] : [])));
    await repo.clearOutboxEntries(
      trx,
      entries.map((e) => e.pk),
    );
    await alsoDo?.(trx);
  });
}
