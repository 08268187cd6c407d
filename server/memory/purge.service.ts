import { afterErase } from '../db/maintenance.ts';
import { LIMITS, parseInput, wholeNumber } from '../validation.ts';
import { type BatchedDelete, DELETE_BATCH_SIZE, deleteInBatches } from './batchedDelete.ts';
import type { MemoryDeps } from './memory.service.ts';
import * as repo from './purge.repository.ts';
import { purgeCutoffs } from './purgeRules.ts';
import { PURGE_AUTHORS, recordDeletions } from './tombstones.ts';

const batchSizeSchema = wholeNumber('batchSize', 1, LIMITS.purgeBatchRows);

export interface PurgeProgress {
  deleted: number;
  /** Due when the pass started. */
  total: number;
  /** How long the batch just done held the database, in milliseconds. */
  batchMs: number;
}

export interface PurgeOutcome extends BatchedDelete {
  expired: number;
  outOfRetention: number;
  /** Whether the write-ahead log was emptied afterwards (false: another process was reading it; the hourly maintenance does it). */
  walEmptied: boolean;
}

/** What the audit log records of a purge: counts only. */
export const purgeTarget = (o: PurgeOutcome) => ({ expired: o.expired, outOfRetention: o.outOfRetention, batches: o.batches });

/**
 * Deletes the memories that expired or left the retention window more than purgeGraceDays ago (each leaving its
 * tombstone, by 'purge' or 'retention'), with their keyword
 * entries, vectors and Qdrant points (queued in the outbox), in batches of one transaction each (batchedDelete.ts). A
 * summary that covered a purged memory is rebuilt from the originals that remain in the same batch, as after any
 * delete, and a purged summary's originals come back (and are purged in turn when they are due too). A plain function returning what it did: the CLI and the background pass
 * (jobs/purge.ts) call it.
 */
export async function purgeMemories(
  deps: Pick<MemoryDeps, 'db' | 'settings' | 'now'>,
  opts: { batchSize?: number; signal?: AbortSignal; onProgress?: (p: PurgeProgress) => void } = {},
): Promise<PurgeOutcome> {
  const size = parseInput(batchSizeSchema, opts.batchSize ?? DELETE_BATCH_SIZE);
  const cutoffs = purgeCutoffs(deps.now(), await deps.settings.get());
  const total = await repo.countPurgeable(deps.db, cutoffs);
  const purged = { expired: 0, outOfRetention: 0 };
  const run =
    total === 0
      ? { batches: 0, longestBatchMs: 0, stopped: false }
      : await deleteInBatches(
          deps.db,
          { size, signal: opts.signal },
          async (trx) => {
            const deleted = await repo.deletePurgeable(trx, cutoffs, size);
            const at = deps.now();
            await recordDeletions(trx, deleted.expired, PURGE_AUTHORS.expired, at);
            await recordDeletions(trx, deleted.outOfRetention, PURGE_AUTHORS.retention, at);
            return { expired: deleted.expired.length, outOfRetention: deleted.outOfRetention.length };
          },
          (b) => b.expired + b.outOfRetention,
          (b, batchMs) => {
            purged.expired += b.expired;
            purged.outOfRetention += b.outOfRetention;
            const deleted = purged.expired + purged.outOfRetention;
            opts.onProgress?.({ deleted, total: Math.max(total, deleted), batchMs });
          },
        );
  const walEmptied = purged.expired + purged.outOfRetention > 0 ? await afterErase(deps.db) : true;
  return { ...purged, ...run, walEmptied };
}
