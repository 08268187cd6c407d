import type { Db } from '../db/open.ts';
import * as repo from './qdrant.repository.ts';
import { pointFields, type QdrantIndex } from './qdrantIndex.ts';

/**
 * How Qdrant follows a store that keeps its own vectors (SQLite's sqlite-vec), of which it is a copy: a queued upsert
 * carries the memory's local vector with its fields, a queued delete removes the point.
 */

/** What a new (empty) collection receives: every local vector, queued. */
export async function fillCollection(db: Db, now: number) {
  await repo.enqueueAllWithVectors(db, now);
}

/** Carries a batch of queued changes to Qdrant, and takes them off the queue unless they were queued again meanwhile. */
export async function carryOutbox(
  db: Db,
  index: QdrantIndex,
  batch: readonly { pk: number; op: string; enqueued_at: number }[],
  alsoDo?: (trx: Db) => Promise<unknown>,
) {
  await index.delete(batch.filter((b) => b.op === 'delete').map((d) => d.pk));
  const rows = await repo.vectorsWithMemories(
    db,
    batch.filter((b) => b.op === 'upsert').map((u) => u.pk),
  );
  await index.upsert(rows.map((r) => ({ ...pointFields(r), vector: toFloats(r.embedding, r.quantization) })));
  // An upsert whose memory has no local vector yet is dropped here: storing that vector queues it again.
  await repo.removeFromOutbox(db, batch, alsoDo);
}

function toFloats(json: string, quantization: string): Float32Array {
  const values = JSON.parse(json) as number[];
  // vec_quantize_int8(…, 'unit') maps [-1, 1] onto [-128, 127].
  return Float32Array.from(quantization === 'int8' ? values.map((v) => v / 127) : values);
}
