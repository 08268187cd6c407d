import { setTimeout as nextTimer } from 'node:timers/promises';
import { emptyWalNow } from '../db/maintenance.ts';
import { parseInput, wholeNumber } from '../validation.ts';
import { type MemoryDeps, writing } from './memory.service.ts';
import * as repo from './purge.repository.ts';
import { purgeCutoffs } from './purgeRules.ts';

/** Memories per transaction: what a retrieval waits for at most while a purge runs (see `npm run bench -- --only purge`). */
export const PURGE_BATCH_SIZE = 100;
const batchSizeSchema = wholeNumber('batchSize', 1, 10_000);

export interface PurgeProgress {
  deleted: number;
  /** Due when the pass started. */
  total: number;
  /** How long the batch just done held the database, in milliseconds. */
  batchMs: number;
}

export interface PurgeOutcome {
  expired: number;
  outOfRetention: number;
  batches: number;
  /** The longest batch, in milliseconds: how long a request waited behind the purge at most. */
  longestBatchMs: number;
  /** Whether the write-ahead log was emptied afterwards (false: another process was reading it; the hourly maintenance does it). */
  walEmptied: boolean;
  /** Stopped by its signal before it was done (the next pass goes on). */
  stopped: boolean;
}

/**
 * Deletes the memories that expired or left the retention window more than purgeGraceDays ago, with their keyword
 * entries, vectors and Qdrant points (queued in the outbox), in batches of one transaction each: requests take turns
 * with the batches, so none waits longer than one batch. A summary that covered a purged memory is rebuilt from the
 * originals that remain in the same batch, as after any delete, and a purged summary's originals come back (and are
 * purged in turn when they are due too). A plain function returning what it did: the CLI and the background pass
 * (jobs/purge.ts) call it.
 */
export async function purgeMemories(
  deps: Pick<MemoryDeps, 'db' | 'settings' | 'now'>,
  opts: { batchSize?: number; signal?: AbortSignal; onProgress?: (p: PurgeProgress) => void } = {},
): Promise<PurgeOutcome> {
  const batchSize = parseInput(batchSizeSchema, opts.batchSize ?? PURGE_BATCH_SIZE);
  const cutoffs = purgeCutoffs((deps.now ?? Date.now)(), await deps.settings.get());
  const total = await repo.countPurgeable(deps.db, cutoffs);
  const outcome: PurgeOutcome = { expired: 0, outOfRetention: 0, batches: 0, longestBatchMs: 0, walEmptied: true, stopped: false };
  for (let done = total === 0; !done; ) {
    if (opts.signal?.aborted) {
      outcome.stopped = true;
      break;
    }
    const started = performance.now();
    const batch = await writing(deps.db, (trx) => repo.deletePurgeable(trx, cutoffs, batchSize));
    const batchMs = performance.now() - started;
    outcome.longestBatchMs = Math.max(outcome.longestBatchMs, batchMs);
    outcome.batches++;
    outcome.expired += batch.expired;
    outcome.outOfRetention += batch.outOfRetention;
    const deleted = outcome.expired + outcome.outOfRetention;
    opts.onProgress?.({ deleted, total: Math.max(total, deleted), batchMs });
    done = batch.expired + batch.outOfRetention < batchSize;
    // Requests that arrived during the batch go first: a timer fires after the sockets read meanwhile and the timers due
    // meanwhile (setImmediate could run the next batch before them), and Kysely's lock is not first come, first served.
    if (!done) await nextTimer(0);
  }
  if (outcome.expired + outcome.outOfRetention > 0) outcome.walEmptied = await emptyWalNow(deps.db);
  return outcome;
}
