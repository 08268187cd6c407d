import type { Db } from '../db/open.ts';
import * as repo from './qdrant.repository.ts';
import type { QdrantService } from './qdrant.service.ts';
import { pointFields, type QdrantIndex } from './qdrantIndex.ts';
import { flagAll } from './vector.repository.ts';
import {
  contentHash,
  signatureKey,
  type VectorFilter,
  type VectorHit,
  type VectorIndex,
  type VectorIndexStatus,
  type VectorItem,
  type VectorSignature,
} from './vectorIndex.ts';

/** Queued changes of a key a search carries to Qdrant first; a larger backlog is the worker's (a reindex drains it all). */
const CATCH_UP_LIMIT = 500;

/** Why the PostgreSQL store has no vectors: it keeps none itself (pgvector is not assumed). */
export const NEEDS_QDRANT = 'PostgreSQL store: vectors need Qdrant';

/**
 * The vector index of the PostgreSQL store: Qdrant's collection, when Qdrant is configured and selected (vectorStore
 * QDRANT), and none otherwise (retrieval then answers from keyword search and says why). Embedded memories are written
 * to Qdrant directly; deletes and changes of filter fields reach it through the outbox (qdrantFeed.primary.ts).
 */
export class QdrantPrimaryIndex implements VectorIndex {
  readonly backend = 'qdrant' as const;

  constructor(private readonly deps: { db: Db; qdrant: QdrantService }) {}

  async unavailable(): Promise<string | null> {
    if (await this.deps.qdrant.active()) return null;
    const { url, enabled } = await this.deps.qdrant.settings();
    if (!url) return `${NEEDS_QDRANT} (none is configured: set its URL in the Qdrant settings and enable it)`;
    return enabled ? NEEDS_QDRANT : `${NEEDS_QDRANT} (it is configured but not enabled: enable it in the Qdrant settings)`;
  }

  async version(): Promise<string | null> {
    await this.index();
    return null;
  }

  async signature(): Promise<VectorSignature | null> {
    const index = await this.deps.qdrant.active();
    if (!index) return null;
    return (await index.signature()) ?? index.storedSignature();
  }

  /** A collection of another model is refused, as on SQLite's copy, unless `recreate` (a forced reindex) replaces it. */
  async prepare(signature: VectorSignature, opts: { recreate?: boolean } = {}): Promise<{ reset: boolean }> {
    const { fits, created } = await this.deps.qdrant.ensureCollection(await this.index(), signature, opts);
    if (!fits) throw new Error(this.deps.qdrant.incompatibleReason() ?? 'the Qdrant collection does not fit the model');
    return { reset: created };
  }

  /**
   * Stores vectors with the memories locked, so the point carries what each memory holds while it is written: a memory
   * deleted meanwhile, or whose content is no longer the text embedded, gets none. The outbox entries of the memories
   * stored are cleared in the same transaction: the point is newer than whatever they asked for.
   */
  async upsert(items: readonly VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    const index = await this.index();
    await this.deps.db.transaction().execute(async (trx) => {
      const rows = new Map(
        (
          await repo.lockMemories(
            trx,
            items.map((i) => i.pk),
          )
        ).map((r) => [r.pk, r]),
      );
      const stored = items.flatMap((i) => {
        const row = rows.get(i.pk);
        return row && (i.content === undefined || i.content === row.content)
          ? [{ ...pointFields(row), vector: i.vector, content: row.content }]
          : [];
      });
      await index.upsert(stored);
      await repo.clearOutboxEntries(
        trx,
        stored.map((s) => s.pk),
      );
    });
  }

  async delete(pks: readonly number[]): Promise<void> {
    await (await this.index()).delete(pks);
  }

  /**
   * Qdrant's nearest points, once the key's queued changes have reached it (sqlite-vec's filter columns change in the
   * write's transaction; Qdrant's payload must be as current before it filters), less those whose memory holds other
   * text by now: such a vector stays in Qdrant until the outbox removes it, and must not find the new text meanwhile.
   */
  async search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]> {
    const index = await this.index();
    await this.deps.qdrant.carryPendingOf(index, filter.apiKeyId, CATCH_UP_LIMIT);
    const hits = await index.search(vector, filter, k);
    const contents = await repo.contentsOf(
      this.deps.db,
      hits.map((h) => h.pk),
    );
    return hits.filter((h) => {
      const content = contents.get(h.pk);
      return content !== undefined && h.contentHash === contentHash(content);
    });
  }

  async count(): Promise<number> {
    const index = await this.deps.qdrant.active();
    return index ? index.count() : 0;
  }

  async reset(): Promise<void> {
    await (await this.index()).reset();
    await flagAll(this.deps.db);
  }

  /** While Qdrant cannot be reached, its rows count as 0 here; the Qdrant status says why. */
  async status(): Promise<VectorIndexStatus> {
    const index = await this.deps.qdrant.active();
    const signature = index ? await this.signature().catch(() => null) : null;
    return {
      backend: this.backend,
      signature: signature ? signatureKey(signature) : null,
      dimension: signature?.dimension ?? null,
      quantization: signature?.quantization ?? 'none',
      rows: index ? await index.count().catch(() => 0) : 0,
      lastResetAt: null,
    };
  }

  private async index(): Promise<QdrantIndex> {
    const index = await this.deps.qdrant.active();
    if (!index) throw new Error((await this.unavailable()) ?? NEEDS_QDRANT);
    return index;
  }
}
