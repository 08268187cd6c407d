import { sql } from 'kysely';
import type { Db } from '../db/open.ts';

export async function outboxBatch(db: Db, limit: number) {
  return db.selectFrom('qdrant_outbox').selectAll().orderBy('enqueued_at').orderBy('pk').limit(limit).execute();
}

/** The oldest queued changes of one key's memories (a deleted memory's entry belongs to no key any more). */
export async function outboxBatchOf(db: Db, apiKeyId: string, limit: number) {
  return db
    .selectFrom('qdrant_outbox')
    .selectAll()
    .where('pk', 'in', (eb) => eb.selectFrom('memories').select('pk').where('api_key_id', '=', apiKeyId))
    .orderBy('enqueued_at')
    .orderBy('pk')
    .limit(limit)
    .execute();
}

/** Takes carried entries off the queue (those not queued again meanwhile); `alsoDo` joins the transaction. */
export async function removeFromOutbox(
  db: Db,
  done: readonly { pk: number; enqueued_at: number }[],
  alsoDo?: (trx: Db) => Promise<unknown>,
) {
  if (done.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const d of done) await trx.deleteFrom('qdrant_outbox').where('pk', '=', d.pk).where('enqueued_at', '=', d.enqueued_at).execute();
    await alsoDo?.(trx);
  });
}

/**
 * Queues these memories' stored vectors for Qdrant while Qdrant is the store (the flag the outbox triggers read);
 * run in the transaction that stores them, so a vector stored is never left behind in Qdrant.
 */
export async function enqueueStoredVectors(db: Db, pks: readonly number[], now: number) {
  if (pks.length === 0) return;
  await sql`insert into qdrant_outbox (pk, op, enqueued_at)
    select memory_pk, 'upsert', ${now} from memory_vec
    where memory_pk in (${sql.join(pks.map((pk) => BigInt(pk)))}) and (select enabled from qdrant_outbox_state) = 1
    on conflict (pk) do update set op = 'upsert', enqueued_at = excluded.enqueued_at`.execute(db);
}

/** Whether changes are queued for Qdrant now (vectorStore is QDRANT): the flag the outbox triggers read. */
export async function outboxEnabled(db: Db): Promise<boolean> {
  const row = await db.selectFrom('qdrant_outbox_state').select('enabled').where('id', '=', 1).executeTakeFirst();
  return row?.enabled === 1;
}

/**
 * Queues every memory that has a local vector: the backfill of a new or rebuilt collection. Its callers fill the
 * selected Qdrant only (never one that is merely configured), so the flag is not read here.
 */
export async function enqueueAllWithVectors(db: Db, now: number) {
  await sql`insert into qdrant_outbox (pk, op, enqueued_at) select memory_pk, 'upsert', ${now} from memory_vec where true
    on conflict (pk) do update set op = 'upsert', enqueued_at = excluded.enqueued_at`.execute(db);
}

/** Whether changes to memories of this key are still queued for Qdrant. */
export async function hasPendingFor(db: Db, apiKeyId: string) {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from qdrant_outbox o join memories m on m.pk = o.pk
    where m.api_key_id = ${apiKeyId} limit 1) as pending`.execute(db);
  return rows[0]?.n === 1;
}

export async function outboxSize(db: Db) {
  const { rows } = await sql<{ n: number }>`select count(*) as n from qdrant_outbox`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Local vectors as floats (int8-quantized ones scaled back to [-1, 1]) with the fields Qdrant's payload needs. */
export async function vectorsWithMemories(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return [];
  const { rows } = await sql<{
    pk: number;
    id: string;
    api_key_id: string;
    session_id: string | null;
    type: string;
    key: string;
    created_at: number;
    updated_at: number;
    expires_at: number | null;
    archived_by: string | null;
    valid_to: number | null;
    embedding: string;
    quantization: string;
  }>`select m.pk, m.id, m.api_key_id, m.session_id, m.type, m.key, m.created_at, m.updated_at, m.expires_at, m.archived_by,
      m.valid_to, vec_to_json(v.embedding) as embedding, (select quantization from memory_vec_meta where id = 1) as quantization
    from memory_vec v join memories m on m.pk = v.memory_pk
    where v.memory_pk in (${sql.join([...pks])})`.execute(db);
  return rows;
}

/** Which of these ids still belong to a memory. */
export async function existingPks(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return new Set<number>();
  const rows = await db.selectFrom('memories').select('pk').where('pk', 'in', pks).execute();
  return new Set(rows.map((r) => r.pk));
}

/** Changes queued for Qdrant, and when the oldest of them was queued (null when none is). */
export async function outboxBacklog(db: Db) {
  const row = await db
    .selectFrom('qdrant_outbox')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min<number | null>('enqueued_at').as('oldest')])
    .executeTakeFirstOrThrow();
  return { size: row.n, oldest: row.oldest };
}

/** A memory's fields as a Qdrant point carries them. */
const POINT_COLUMNS = [
  'pk',
  'id',
  'key',
  'api_key_id',
  'session_id',
  'type',
  'created_at',
  'updated_at',
  'expires_at',
  'archived_by',
  'valid_to',
  'content',
] as const;

/**
 * These memories, locked until the transaction ends (PostgreSQL only): a write to one of them waits, so what is sent to
 * Qdrant meanwhile is what they hold, and the outbox entry a write queues comes after it. Locked in primary-key order,
 * as every holder of several of them does, so two holders never wait on each other.
 */
export async function lockMemories(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return [];
  return db.selectFrom('memories').select(POINT_COLUMNS).where('pk', 'in', pks).orderBy('pk').forUpdate().execute();
}

/** The queued entries of these memories, locked (PostgreSQL only; after their memories: the triggers' order). */
export async function lockOutboxEntries(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return [];
  return db.selectFrom('qdrant_outbox').selectAll().where('pk', 'in', pks).orderBy('pk').forUpdate().execute();
}

/** Removes these memories' queued entries: whatever they asked for, Qdrant holds now. */
export async function clearOutboxEntries(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return;
  await db.deleteFrom('qdrant_outbox').where('pk', 'in', pks).execute();
}

/** These memories' texts, by primary key (a memory gone is absent). */
export async function contentsOf(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('memories').select(['pk', 'content']).where('pk', 'in', pks).execute();
  return new Map(rows.map((r) => [r.pk, r.content]));
}
