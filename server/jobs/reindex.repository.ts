import type { Db } from '../db/open.ts';
import type { ReindexJobStatus } from '../db/schema.ts';

export async function insertRunningJob(db: Db, job: { id: string; force: boolean; total: number; owner: string; now: number }) {
  return db
    .insertInto('reindex_jobs')
    .values({
      id: job.id,
      status: 'running',
      force: job.force ? 1 : 0,
      signature: null,
      total: job.total,
      started_at: job.now,
      updated_at: job.now,
      owner: job.owner,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findJob(db: Db, id: string) {
  return db.selectFrom('reindex_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRunningJob(db: Db) {
  return db.selectFrom('reindex_jobs').selectAll().where('status', '=', 'running').executeTakeFirst();
}

export async function latestJob(db: Db) {
  return db.selectFrom('reindex_jobs').selectAll().orderBy('started_at', 'desc').limit(1).executeTakeFirst();
}

/**
 * Makes `owner` the owner of a running job that `from` owned (null: no owner recorded); the job as it now is, or
 * undefined when it ended or another process claimed it first.
 */
export async function claimJob(db: Db, id: string, c: { from: string | null; owner: string; now: number }) {
  return db
    .updateTable('reindex_jobs')
    .set({ owner: c.owner, updated_at: c.now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('owner', c.from === null ? 'is' : '=', c.from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Adds a batch's counts; `lastPk` moves the resume point (the embedding phase only). Undefined when the job is no longer
 * `owner`'s (another process took it over) or no longer running (another process cancelled it): the batch is not counted
 * and the owner stops.
 */
export async function recordBatch(
  db: Db,
  id: string,
  owner: string,
  b: { processed: number; failed: number; lastPk?: number; error: string | null; now: number },
) {
  return db
    .updateTable('reindex_jobs')
    .set((eb) => ({
      processed: eb('processed', '+', b.processed),
      failed: eb('failed', '+', b.failed),
      ...(b.lastPk === undefined ? {} : { last_pk: b.lastPk }),
      error: b.error,
      updated_at: b.now,
    }))
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('owner', '=', owner)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Sets the work still to do: what is done so far plus `pending` (after a rebuild, or before the Qdrant phase). Undefined
 * when the job is no longer `owner`'s or no longer running.
 */
export async function setJobTotal(db: Db, id: string, owner: string, pending: number, now: number) {
  return db
    .updateTable('reindex_jobs')
    .set((eb) => ({ total: eb(eb('processed', '+', eb.ref('failed')), '+', pending), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('owner', '=', owner)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Moves a running job to a final state; a job that already ended keeps its state, and so does one that another process
 * took over from `owner` (when given: a job cancelled for a dead process has none).
 */
export async function finishJob(
  db: Db,
  id: string,
  f: { status: Exclude<ReindexJobStatus, 'running'>; now: number; error?: string | null; owner?: string },
) {
  await db
    .updateTable('reindex_jobs')
    .set({ status: f.status, finished_at: f.now, updated_at: f.now, ...(f.error === undefined ? {} : { error: f.error }) })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .$if(f.owner !== undefined, (qb) => qb.where('owner', '=', f.owner!))
    .execute();
  return db.selectFrom('reindex_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The owner's heartbeat. */
export async function touchJob(db: Db, id: string, owner: string, now: number) {
  await db.updateTable('reindex_jobs').set({ updated_at: now }).where('id', '=', id).where('owner', '=', owner).execute();
}

/** Reindex jobs by state, the work all of them did, and where the running one stands. */
export async function reindexFigures(db: Db) {
  const byState = await db
    .selectFrom('reindex_jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const totals = await db
    .selectFrom('reindex_jobs')
    .select([(eb) => eb.fn.sum<number | null>('processed').as('processed'), (eb) => eb.fn.sum<number | null>('failed').as('failed')])
    .executeTakeFirstOrThrow();
  const running = await db
    .selectFrom('reindex_jobs')
    .select(['total', 'processed', 'failed'])
    .where('status', '=', 'running')
    .executeTakeFirst();
  return { byState, processed: totals.processed ?? 0, failed: totals.failed ?? 0, running: running ?? null };
}
