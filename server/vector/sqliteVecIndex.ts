import type { Db } from '../db/open.ts';
import * as repo from './sqliteVec.repository.ts';
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

/**
 * The embedded vector store: a vec0 table partitioned by API key, so a KNN only ever scans one tenant's
 * vectors, with the other filters as metadata columns evaluated during the search. Vectors are keyed on
 * the memory's integer primary key, never on an implicit rowid.
 *
 * Every statement goes through Kysely (sqliteVec.repository.ts), which runs one query at a time on the shared
 * connection: a raw statement could otherwise land inside another request's open transaction.
 */
export class SqliteVecIndex implements VectorIndex {
  readonly backend = 'sqlite-vec' as const;

  private readonly db: Db;
  private readonly now: () => number;

  constructor(deps: { db: Db; now: () => number }) {
    this.db = deps.db;
    this.now = deps.now;
  }

  async signature(): Promise<VectorSignature | null> {
    const meta = await repo.vectorMeta(this.db);
    if (meta.source === null || meta.model === null || meta.dimension === null) return null;
    return { source: meta.source, model: meta.model, dimension: meta.dimension, quantization: meta.quantization as Quantization };
  }

  async prepare(signature: VectorSignature): Promise<{ reset: boolean }> {
    const meta = await repo.vectorMeta(this.db);
    const key = signatureKey(signature);
    if (meta.signature === key && (await repo.vectorTableExists(this.db))) return { reset: false };
    await repo.rebuildVectorTable(this.db, { ...signature, key }, this.now());
    return { reset: meta.signature !== null };
  }

  async unavailable(): Promise<string | null> {
    return null;
  }

  version(): Promise<string | null> {
    return repo.vectorExtensionVersion(this.db);
  }

  async upsert(items: readonly VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    await repo.upsertVectors(this.db, items, (await repo.vectorMeta(this.db)).quantization, this.now());
  }

  async delete(pks: readonly number[]): Promise<void> {
    if (pks.length === 0 || !(await repo.vectorTableExists(this.db))) return;
    await repo.deleteVectors(this.db, pks);
  }

  async search(vector: Float32Array, f: VectorFilter, k: number): Promise<VectorHit[]> {
    if (!(await repo.vectorTableExists(this.db))) return [];
    const rows = await repo.nearestVectors(this.db, vector, (await repo.vectorMeta(this.db)).quantization, f, k);
    return rows.map((r) => ({ pk: r.memory_pk, similarity: 1 - r.distance }));
  }

  async count(): Promise<number> {
    return (await repo.vectorTableExists(this.db)) ? repo.countVectors(this.db) : 0;
  }

  async reset(): Promise<void> {
    await repo.clearVectorTable(this.db, this.now());
  }

  async status(): Promise<VectorIndexStatus> {
    const meta = await repo.vectorMeta(this.db);
    return {
      backend: this.backend,
      signature: meta.signature,
      dimension: meta.dimension,
      quantization: meta.quantization as Quantization,
      rows: await this.count(),
      lastResetAt: meta.last_reset_at === null ? null : new Date(meta.last_reset_at),
    };
  }
}
