import type { Db } from '../db/open.ts';

/** A batch of background work: how many items went, how many could not, and why. */
export interface BatchResult {
  processed: number;
  failed: number;
  error: string | null;
}

/**
 * Counts a batch of work (a reindex job's progress) inside the transaction that commits the work, so a process killed
 * between the two can leave neither done-and-uncounted work nor a count of work not done. Returns false to refuse the
 * count (the job is no longer this process's): the work is then rolled back, for the job's new owner to do and count.
 */
export type BatchCounter<T> = (db: Db, batch: T) => Promise<boolean>;

/** The count was refused: the batch's work was rolled back. */
export class BatchRefused extends Error {}

/** `batch`, once `count` (when given) has taken it; throws BatchRefused when it refuses. */
export async function counted<T>(count: BatchCounter<T> | undefined, db: Db, batch: T): Promise<T> {
  if (count && !(await count(db, batch))) throw new BatchRefused();
  return batch;
}
