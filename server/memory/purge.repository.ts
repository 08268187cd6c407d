import type { Db } from '../db/open.ts';
import { DELETED_COLUMNS } from './memory.repository.ts';

/** What the purge deletes (purge.service.ts, purgeCutoffs). */
export interface PurgeCutoffs {
  /** Memories whose expiresAt is at or before this instant. */
  expiredBefore: number;
  /** Memories last written before this instant; null: retention is off. */
  writtenBefore: number | null;
}

/** Memories the purge would delete now: the total of its progress line. */
export async function countPurgeable(db: Db, c: PurgeCutoffs): Promise<number> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      eb.or([eb('expires_at', '<=', c.expiredBefore), ...(c.writtenBefore === null ? [] : [eb('updated_at', '<', c.writtenBefore)])]),
    )
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Deletes at most `limit` due memories (returned, each kind apart, as their tombstones record them), expired ones first, each kind read through its own index, so a batch costs
 * what it deletes whatever the backlog. The statements write before they read anything else, so the transaction
 * waits for another process's write lock instead of failing. Triggers take each memory's keyword entries, vector and
 * count with it and queue its Qdrant point's removal; summaries that covered it are queued for a rebuild.
 */
export async function deletePurgeable(db: Db, c: PurgeCutoffs, limit: number) {
  const deleteDue = async (due: 'expired' | 'old', n: number) =>
    db
      .deleteFrom('memories')
      .where('pk', 'in', (eb) => {
        const rows = eb.selectFrom('memories').select('pk');
        return (
          due === 'expired' ? rows.where('expires_at', '<=', c.expiredBefore) : rows.where('updated_at', '<', c.writtenBefore!)
        ).limit(n);
      })
      .returning(DELETED_COLUMNS)
      .execute();
  const expired = await deleteDue('expired', limit);
  const outOfRetention = expired.length < limit && c.writtenBefore !== null ? await deleteDue('old', limit - expired.length) : [];
  return { expired, outOfRetention };
}
