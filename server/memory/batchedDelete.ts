import { setTimeout as nextTimer } from 'node:timers/promises';
import type { Db } from '../db/open.ts';
import { writing } from './memory.service.ts';

/** Memories per transaction of a long delete: what a request waits for at most (see `npm run bench -- --only purge`). */
export const DELETE_BATCH_SIZE = 100;

export interface BatchedDelete {
  batches: number;
  /** The longest batch, in milliseconds: how long a request waited behind it at most. */
  longestBatchMs: number;
  /** Stopped by its signal before it was done. */
  stopped: boolean;
}

/**
 * Deletes in batches of one transaction each (with the summary rebuilds they cause) until a batch deletes fewer than
 * `size` rows, so requests take turns with the batches: none waits longer than one. Erasing a memory's terms from the
 * keyword index is most of a delete's cost (one to a few milliseconds a memory on a busy 2-core machine), too long to
 * hold every request behind one transaction when thousands go.
 */
export async function deleteInBatches<T>(
  db: Db,
  opts: { size: number; signal?: AbortSignal },
  batch: (trx: Db) => Promise<T>,
  deleted: (result: T) => number,
  onBatch?: (result: T, ms: number) => void,
): Promise<BatchedDelete> {
  const run: BatchedDelete = { batches: 0, longestBatchMs: 0, stopped: false };
  for (;;) {
    if (opts.signal?.aborted) return { ...run, stopped: true };
    const started = performance.now();
    const result = await writing(db, batch);
    const ms = performance.now() - started;
    run.batches++;
    run.longestBatchMs = Math.max(run.longestBatchMs, ms);
    onBatch?.(result, ms);
    if (deleted(result) < opts.size) return run;
    // Requests that arrived during the batch go first: a timer fires after the sockets read meanwhile and the timers due
    // meanwhile (setImmediate could run the next batch before them), and Kysely's lock is not first come, first served.
    await nextTimer(0);
  }
}
