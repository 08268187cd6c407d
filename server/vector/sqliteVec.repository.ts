import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { createVectorTriggers, dropVectorTriggers, NEVER_EXPIRES, VEC_VALIDITY } from '../db/triggers.ts';
import { enqueueStoredVectors } from './qdrant.repository.ts';
import { flagAll } from './vector.repository.ts';
import type { VectorFilter, VectorItem, VectorSignature } from './vectorIndex.ts';

/** vec0 metadata columns cannot be NULL: "no session" gets a sentinel, as "never expires" does. */
const NO_SESSION = '';
/** sqlite-vec's ceiling for k. */
export const MAX_K = 4096;

export function vectorMeta(db: Db) {
  return db.selectFrom('memory_vec_meta').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

export async function vectorTableExists(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'memory_vec'`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** The sqlite-vec extension's version: answers only when the extension is loaded. */
export async function vectorExtensionVersion(db: Db): Promise<string | null> {
  const { rows } = await sql<{ v: string }>`select vec_version() as v`.execute(db);
  return rows[0]?.v ?? null;
}

/**
 * Builds the vec0 table for a signature (dropping the old one, with its triggers), records the signature and
 * flags every memory for reindexing, in one transaction.
 */
export async function rebuildVectorTable(db: Db, signature: VectorSignature & { key: string }, now: number) {
  await db.transaction().execute(async (trx) => {
    await dropVectorTable(trx);
    await sql
      .raw(
        `create virtual table memory_vec using vec0(
          memory_pk integer primary key,
          api_key_id text partition key,
          type text,
          session_id text,
          expires_at integer,
          updated_at integer,
          -- 0: current; 1: archived by a summary; 2: no longer true (valid_to set): see VEC_VALIDITY.
          archived integer,
          embedding ${signature.quantization === 'int8' ? 'int8' : 'float'}[${Math.trunc(signature.dimension)}] distance_metric=cosine
        )`,
      )
      .execute(trx);
    await createVectorTriggers(trx);
    await trx
      .updateTable('memory_vec_meta')
      .set({
        signature: signature.key,
        source: signature.source,
        model: signature.model,
        dimension: signature.dimension,
        quantization: signature.quantization,
        last_reset_at: now,
      })
      .where('id', '=', 1)
      .execute();
    await flagAll(trx);
  });
}

/** Drops the vec0 table and forgets its signature; every memory is flagged for reindexing. */
export async function clearVectorTable(db: Db, now: number) {
  await db.transaction().execute(async (trx) => {
    await dropVectorTable(trx);
    await trx
      .updateTable('memory_vec_meta')
      .set({ signature: null, source: null, model: null, dimension: null, last_reset_at: now })
      .where('id', '=', 1)
      .execute();
    await flagAll(trx);
  });
}

/**
 * Stores vectors. Filter fields are read from the memories table inside the insert rather than taken from the
 * item, so a change made while the vector was being computed is never overwritten, and a memory deleted
 * meanwhile gets no vector. Each vector stored is queued for Qdrant in the same transaction while Qdrant is
 * the store, as the outbox triggers queue every other change (db/triggers.ts).
 */
export async function upsertVectors(db: Db, items: readonly VectorItem[], quantization: string, now: number) {
  if (items.length === 0) return;
  const embedding = (v: Float32Array) => (quantization === 'int8' ? sql`vec_quantize_int8(${v}, 'unit')` : sql`${v}`);
  const pks = sql.join(items.map((i) => BigInt(i.pk)));
  await db.transaction().execute(async (trx) => {
    // vec0 has no reliable INSERT OR REPLACE: delete, then insert.
    await sql`delete from memory_vec where memory_pk in (${pks})`.execute(trx);
    for (const i of items) {
      // A memory whose content changed while its old text was embedded gets no vector (its flag stays set,
      // so it is embedded again); storing it would let the old meaning find the new text.
      const unchanged = i.content === undefined ? sql`` : sql`and content = ${i.content}`;
      await sql`insert into memory_vec (memory_pk, api_key_id, type, session_id, expires_at, updated_at, archived, embedding)
        select pk, api_key_id, type, coalesce(session_id, ${NO_SESSION}), coalesce(expires_at, ${NEVER_EXPIRES}), updated_at,
          ${VEC_VALIDITY}, ${embedding(i.vector)}
        from memories where pk = ${i.pk} ${unchanged}`.execute(trx);
    }
    await enqueueStoredVectors(
      trx,
      items.map((i) => i.pk),
      now,
    );
  });
}

export async function deleteVectors(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return;
  await sql`delete from memory_vec where memory_pk in (${sql.join(pks.map((pk) => BigInt(pk)))})`.execute(db);
}

/** The k nearest vectors of one tenant that pass the filters, evaluated by vec0 during the search. */
export async function nearestVectors(db: Db, query: Float32Array, quantization: string, f: VectorFilter, k: number) {
  const vector = quantization === 'int8' ? sql`vec_quantize_int8(${query}, 'unit')` : sql`${query}`;
  const sessions = f.sessionId === null ? sql`` : sql`and session_id in (${NO_SESSION}, ${f.sessionId})`;
  const types = f.types && f.types.length > 0 ? sql`and type in (${sql.join([...f.types])})` : sql``;
  // The past (asOf) is current and superseded vectors alike, checked against each memory's validity in SQL afterwards.
  const validity = f.asOf == null ? sql`archived = 0` : sql`archived <> 1`;
  const { rows } = await sql<{ memory_pk: number; distance: number }>`
    select memory_pk, distance from memory_vec
    where embedding match ${vector} and k = ${Math.min(Math.max(1, Math.trunc(k)), MAX_K)}
      and api_key_id = ${f.apiKeyId} ${sessions} ${types}
      and expires_at > ${BigInt(f.now)} and updated_at >= ${BigInt(f.retentionCutoff)} and ${validity}
    order by distance`.execute(db);
  return rows;
}

/**
 * Vectors of one key's memories in sqlite-vec (point lookups from the key's rows: a filter on the partition key would
 * scan every vector). None on PostgreSQL, which keeps no vectors of its own (they live in Qdrant).
 */
export async function countVectorsOfKey(db: Db, apiKeyId: string): Promise<number> {
  if (!storeDialect(db).keepsVectors || !(await vectorTableExists(db))) return 0;
  const { rows } = await sql<{ n: number }>`select count(*) as n from memories m join memory_vec v on v.memory_pk = m.pk
    where m.api_key_id = ${apiKeyId}`.execute(db);
  return rows[0]?.n ?? 0;
}

export async function countVectors(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from memory_vec`.execute(db);
  return rows[0]?.n ?? 0;
}

async function dropVectorTable(db: Db) {
  await dropVectorTriggers(db);
  await sql`drop table if exists memory_vec`.execute(db);
}
