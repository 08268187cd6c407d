import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import {
  type Quantization,
  signatureKey,
  type VectorFilter,
  type VectorHit,
  type VectorIndex,
  type VectorIndexStatus,
  type VectorItem,
  type VectorSignature,
} from './vectorIndex.ts';

/** vec0 metadata columns cannot be NULL: "never expires" and "no session" get sentinels. */
const NEVER = BigInt(Number.MAX_SAFE_INTEGER);
const NO_SESSION = '';
/** sqlite-vec's ceiling for k. */
export const MAX_K = 4096;

/**
 * The embedded vector store: a vec0 table partitioned by API key, so a KNN only ever scans one tenant's
 * vectors, with the other filters as metadata columns evaluated during the search. Vectors are keyed on
 * the memory's integer primary key, never on an implicit rowid.
 *
 * Every statement goes through Kysely, which runs one query at a time on the shared connection: a raw
 * statement could otherwise land inside another request's open transaction.
 */
export class SqliteVecIndex implements VectorIndex {
  readonly backend = 'sqlite-vec' as const;

  constructor(private readonly db: Db) {}

  async signature(): Promise<VectorSignature | null> {
    const meta = await this.meta();
    if (meta.source === null || meta.model === null || meta.dimension === null) return null;
    return { source: meta.source, model: meta.model, dimension: meta.dimension, quantization: meta.quantization as Quantization };
  }

  async prepare(signature: VectorSignature): Promise<{ reset: boolean }> {
    const meta = await this.meta();
    const key = signatureKey(signature);
    if (meta.signature === key && (await this.tableExists())) return { reset: false };
    await this.db.transaction().execute(async (trx) => {
      await dropTable(trx);
      await sql
        .raw(
          `create virtual table memory_vec using vec0(
            memory_pk integer primary key,
            api_key_id text partition key,
            type text,
            session_id text,
            expires_at integer,
            updated_at integer,
            archived integer,
            embedding ${signature.quantization === 'int8' ? 'int8' : 'float'}[${Math.trunc(signature.dimension)}] distance_metric=cosine
          )`,
        )
        .execute(trx);
      // Kept in step with memories inside the same transaction as the change itself: a deleted memory
      // never leaves its vector behind, and filters see expiry, session, type and archiving at once.
      await sql`create trigger memory_vec_delete after delete on memories begin
        delete from memory_vec where memory_pk = old.pk;
      end`.execute(trx);
      await sql`create trigger memory_vec_stale after update of content on memories
        when old.content is not new.content begin
        delete from memory_vec where memory_pk = old.pk;
      end`.execute(trx);
      await sql`create trigger memory_vec_filters after update of type, session_id, expires_at, updated_at, archived_by on memories
        when old.content is new.content begin
        update memory_vec set type = new.type, session_id = coalesce(new.session_id, ''),
          expires_at = coalesce(new.expires_at, ${sql.lit(Number(NEVER))}), updated_at = new.updated_at,
          archived = new.archived_by is not null
        where memory_pk = new.pk;
      end`.execute(trx);
      await trx
        .updateTable('memory_vec_meta')
        .set({
          signature: key,
          source: signature.source,
          model: signature.model,
          dimension: signature.dimension,
          quantization: signature.quantization,
          last_reset_at: Date.now(),
        })
        .where('id', '=', 1)
        .execute();
      await trx.updateTable('memories').set({ needs_reindex: 1 }).where('needs_reindex', '=', 0).execute();
    });
    return { reset: meta.signature !== null };
  }

  /**
   * Filter fields are read from the memories table inside the insert rather than taken from the item,
   * so a change made while the vector was being computed is never overwritten, and a memory deleted
   * meanwhile gets no vector.
   */
  async upsert(items: readonly VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    const quantization = (await this.meta()).quantization;
    const embedding = (v: Float32Array) => (quantization === 'int8' ? sql`vec_quantize_int8(${v}, 'unit')` : sql`${v}`);
    await this.db.transaction().execute(async (trx) => {
      // vec0 has no reliable INSERT OR REPLACE: delete, then insert.
      await sql`delete from memory_vec where memory_pk in (${sql.join(items.map((i) => BigInt(i.pk)))})`.execute(trx);
      for (const i of items) {
        // A memory whose content changed while its old text was embedded gets no vector (its flag stays set,
        // so it is embedded again); storing it would let the old meaning find the new text.
        const unchanged = i.content === undefined ? sql`` : sql`and content = ${i.content}`;
        await sql`insert into memory_vec (memory_pk, api_key_id, type, session_id, expires_at, updated_at, archived, embedding)
          select pk, api_key_id, type, coalesce(session_id, ${NO_SESSION}), coalesce(expires_at, ${NEVER}), updated_at,
            archived_by is not null, ${embedding(i.vector)}
          from memories where pk = ${i.pk} ${unchanged}`.execute(trx);
      }
    });
  }

  async delete(pks: readonly number[]): Promise<void> {
    if (pks.length === 0 || !(await this.tableExists())) return;
    await sql`delete from memory_vec where memory_pk in (${sql.join(pks.map((pk) => BigInt(pk)))})`.execute(this.db);
  }

  async search(vector: Float32Array, f: VectorFilter, k: number): Promise<VectorHit[]> {
    if (!(await this.tableExists())) return [];
    const quantization = (await this.meta()).quantization;
    const query = quantization === 'int8' ? sql`vec_quantize_int8(${vector}, 'unit')` : sql`${vector}`;
    const sessions = f.sessionId === null ? sql`` : sql`and session_id in (${NO_SESSION}, ${f.sessionId})`;
    const types = f.types && f.types.length > 0 ? sql`and type in (${sql.join([...f.types])})` : sql``;
    const { rows } = await sql<{ memory_pk: number; distance: number }>`
      select memory_pk, distance from memory_vec
      where embedding match ${query} and k = ${Math.min(Math.max(1, Math.trunc(k)), MAX_K)}
        and api_key_id = ${f.apiKeyId} ${sessions} ${types}
        and expires_at > ${BigInt(f.now)} and updated_at >= ${BigInt(f.retentionCutoff)} and archived = 0
      order by distance`.execute(this.db);
    return rows.map((r) => ({ pk: r.memory_pk, similarity: 1 - r.distance }));
  }

  async count(): Promise<number> {
    if (!(await this.tableExists())) return 0;
    const { rows } = await sql<{ n: number }>`select count(*) as n from memory_vec`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  async reset(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await dropTable(trx);
      await trx
        .updateTable('memory_vec_meta')
        .set({ signature: null, source: null, model: null, dimension: null, last_reset_at: Date.now() })
        .where('id', '=', 1)
        .execute();
      await trx.updateTable('memories').set({ needs_reindex: 1 }).where('needs_reindex', '=', 0).execute();
    });
  }

  async status(): Promise<VectorIndexStatus> {
    const meta = await this.meta();
    return {
      backend: this.backend,
      signature: meta.signature,
      dimension: meta.dimension,
      quantization: meta.quantization as Quantization,
      rows: await this.count(),
      lastResetAt: meta.last_reset_at === null ? null : new Date(meta.last_reset_at),
    };
  }

  private meta() {
    return this.db.selectFrom('memory_vec_meta').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }

  private async tableExists(): Promise<boolean> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'memory_vec'`.execute(this.db);
    return (rows[0]?.n ?? 0) > 0;
  }
}

async function dropTable(db: Db) {
  await sql`drop trigger if exists memory_vec_delete`.execute(db);
  await sql`drop trigger if exists memory_vec_stale`.execute(db);
  await sql`drop trigger if exists memory_vec_filters`.execute(db);
  await sql`drop table if exists memory_vec`.execute(db);
}
