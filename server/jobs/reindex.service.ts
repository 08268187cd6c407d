import { randomUUID } from 'node:crypto';
import { EventEmitter, on } from 'node:events';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/open.ts';
import type { ReindexJobStatus } from '../db/schema.ts';
import { badInput, notFound, unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { instanceIsGone, newInstanceId } from '../processInstance.ts';
import { type BatchCounter, BatchRefused, type BatchResult } from '../vector/batchCount.ts';
import * as vectorRepo from '../vector/vector.repository.ts';
import type { VectorService } from '../vector/vector.service.ts';
import * as repo from './reindex.repository.ts';

export interface ReindexJob {
  id: string;
  status: ReindexJobStatus;
  force: boolean;
  total: number;
  processed: number;
  failed: number;
  error: string | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** Memories per second since the job started. */
  rate: number;
  /** Seconds left at the current rate; null when unknown. */
  etaSeconds: number | null;
}

type JobRow = NonNullable<Awaited<ReturnType<typeof repo.findJob>>>;

/**
 * A job whose owner is not known to be gone (it ran on another host, or recorded no owner) is taken over once its
 * heartbeat is older than this.
 */
const STALE_AFTER_MS = 20_000;
const HEARTBEAT_MS = 5_000;
/** How often a server looks for a job left by a process that died or hangs. */
const STALE_CHECK_MS = 5_000;
/** How often watchers of another process's job read it (once per job, however many watchers). */
const FOLLOW_MS = 500;
/** Consecutive batches that all fail before the job gives up (the memories stay flagged for later). */
const MAX_FAILED_BATCHES = 3;

export function toJob(row: JobRow, now: number): ReindexJob {
  const done = row.processed + row.failed;
  const end = row.finished_at ?? now;
  const seconds = Math.max(0.001, (end - row.started_at) / 1000);
  const rate = row.processed / seconds;
  const remaining = Math.max(0, row.total - done);
  return {
    id: row.id,
    status: row.status,
    force: row.force === 1,
    total: Math.max(row.total, done),
    processed: row.processed,
    failed: row.failed,
    error: row.error,
    startedAt: new Date(row.started_at),
    updatedAt: new Date(row.updated_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
    rate,
    etaSeconds: row.status !== 'running' ? 0 : rate > 0 ? remaining / rate : null,
  };
}

/**
 * Re-embeds flagged memories as a job: one at a time (a unique index allows one running row, across
 * processes), in short batches so reads and writes keep flowing, resumable from its last primary key
 * after a crash, cancellable, and observable through `watch`. Each job records its owner (this runner's instance
 * id): a job whose owner is gone (its pid runs no more) is taken over at once, one whose owner stopped beating its
 * heartbeat after STALE_AFTER_MS.
 */
export class ReindexRunner {
  /** This runner among the processes that share the database. */
  readonly instanceId = newInstanceId();
  private readonly events = new EventEmitter();
  private readonly loops = new Map<string, Promise<void>>();
  private readonly cancelled = new Set<string>();
  /** Jobs run elsewhere that watchers here follow: one reader per job, whatever the number of watchers. */
  private readonly followed = new Map<string, { watchers: number; timer: NodeJS.Timeout; state: string; reading: boolean }>();
  private stopping = false;

  constructor(private readonly deps: { db: Db; now: () => number; vectors: VectorService; logger: Logger; batchSize: number }) {
    this.events.setMaxListeners(0);
  }

  /**
   * Starts a job, or returns the one already running (and takes it over if its process died). A new job is not
   * started, and nothing is changed, when the model cannot embed: BAD_USER_INPUT when there is none to use (or it
   * does not load), UNAVAILABLE when one real call to it fails; the message says why.
   */
  async start(force: boolean): Promise<ReindexJob> {
    const running = await repo.findRunningJob(this.deps.db);
    if (running) return this.adopt(running);
    await this.probeModel();
    if (force) await vectorRepo.flagAll(this.deps.db);
    const now = this.deps.now();
    let row: JobRow;
    try {
      const total = await vectorRepo.countPending(this.deps.db);
      row = await repo.insertRunningJob(this.deps.db, { id: randomUUID(), force, total, owner: this.instanceId, now });
    } catch (error) {
      // Another caller won the race for the single running slot: follow its job.
      const winner = await repo.findRunningJob(this.deps.db);
      if (winner) return this.adopt(winner);
      throw error;
    }
    if (!this.stopping) this.run(row);
    return toJob(row, this.deps.now());
  }

  /** Resumes a job that a crashed, hung or stopped process left running; called at start-up and by `watchForAbandoned`. */
  async resumeInterrupted(): Promise<ReindexJob | null> {
    const running = await repo.findRunningJob(this.deps.db);
    return running ? this.adopt(running) : null;
  }

  /** Looks for an abandoned job every STALE_CHECK_MS (a server runs this); returns the function that stops it. */
  watchForAbandoned(): () => void {
    const timer = setInterval(() => {
      this.resumeInterrupted().catch((err: unknown) => this.deps.logger.warn({ err }, 'checking for an abandoned reindex job failed'));
    }, STALE_CHECK_MS).unref();
    return () => clearInterval(timer);
  }

  async cancel(id: string): Promise<ReindexJob> {
    const row = await repo.findJob(this.deps.db, id);
    if (!row) throw notFound(`no reindex job with id ${id}`);
    if (row.status !== 'running') return toJob(row, this.deps.now());
    this.cancelled.add(id);
    // A job run by this process stops at its next batch; one left by a dead process is ended here.
    if (!this.loops.has(id)) await this.finish(id, { status: 'cancelled' });
    await this.loops.get(id);
    return this.get(id);
  }

  async get(id: string): Promise<ReindexJob> {
    const row = await repo.findJob(this.deps.db, id);
    if (!row) throw notFound(`no reindex job with id ${id}`);
    return toJob(row, this.deps.now());
  }

  /** Whether a job runs, in this process or in another one on the same database. */
  async runningAnywhere(): Promise<boolean> {
    return (await repo.findRunningJob(this.deps.db)) !== undefined;
  }

  async latest(): Promise<ReindexJob | null> {
    const row = await repo.latestJob(this.deps.db);
    return row ? toJob(row, this.deps.now()) : null;
  }

  /**
   * The job's state now, then each change of it (a batch, a new total, the end), ending after the state in which it
   * stops. A job run by another process is read every FOLLOW_MS; watching it also takes it over when its owner is gone.
   */
  async *watch(id: string, signal?: AbortSignal): AsyncGenerator<ReindexJob> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    // Listen before reading, so no update between the read and the subscription is missed.
    const updates = on(this.events, id, { signal: controller.signal });
    this.follow(id);
    try {
      let job = await this.get(id);
      yield job;
      while (job.status === 'running') {
        const next = await updates.next();
        if (next.done) return;
        const update = next.value[0] as ReindexJob;
        if (stateOf(update) === stateOf(job)) continue;
        job = update;
        yield job;
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      signal?.removeEventListener('abort', abort);
      controller.abort();
      this.unfollow(id);
    }
  }

  /** Waits for this process's loops to finish (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.loops.values());
  }

  /**
   * Stops every loop of this process at its next batch, for good (the process is shutting down): the jobs stay "running"
   * and resume at the next start, or in another process once this one is gone.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  /** A job that could only fail batch after batch is refused up front, with the model's own answer. */
  private async probeModel() {
    const blocked = await this.deps.vectors.index.unavailable();
    if (blocked) throw badInput(`reindex not started: ${blocked}`);
    const test = await this.deps.vectors.testEmbedding();
    if (test.ok) return;
    if (!test.called) throw badInput(`reindex not started: ${test.error}`);
    throw unavailable(`reindex not started: the embedding model failed a test call (${test.error})`);
  }

  /** Takes a running job over when its owner is gone or silent, and runs it here; returns it as it is after that. */
  private async adopt(row: JobRow): Promise<ReindexJob> {
    if (this.stopping || this.loops.has(row.id) || !this.abandoned(row)) return toJob(row, this.deps.now());
    const claimed = await repo.claimJob(this.deps.db, row.id, { from: row.owner, owner: this.instanceId, now: this.deps.now() });
    if (!claimed) {
      // It ended, or another process claimed it first.
      const current = await repo.findJob(this.deps.db, row.id);
      return toJob(current ?? row, this.deps.now());
    }
    if (this.loops.has(row.id)) return toJob(claimed, this.deps.now());
    this.deps.logger.info({ job: row.id, lastPk: row.last_pk, previousOwner: row.owner }, 'resuming an interrupted reindex job');
    this.run(claimed);
    return toJob(claimed, this.deps.now());
  }

  /** Whether no process runs the job: its owner is gone, or silent for too long. */
  private abandoned(row: JobRow): boolean {
    return instanceIsGone(row.owner) || this.deps.now() - row.updated_at > STALE_AFTER_MS;
  }

  private follow(id: string) {
    const followed = this.followed.get(id);
    if (followed) return void followed.watchers++;
    const timer = setInterval(() => void this.readFollowed(id), FOLLOW_MS);
    this.followed.set(id, { watchers: 1, timer, state: '', reading: false });
  }

  private unfollow(id: string) {
    const followed = this.followed.get(id);
    if (!followed || --followed.watchers > 0) return;
    clearInterval(followed.timer);
    this.followed.delete(id);
  }

  /** One read of a followed job run elsewhere: its watchers hear of a change of state, and an abandoned job is taken over. */
  private async readFollowed(id: string) {
    const followed = this.followed.get(id);
    // A read that outlasts FOLLOW_MS (a busy database) would overlap the next one and could end after it: its older
    // state would reach the watchers last, and their progress would go backwards. The tick is skipped instead.
    if (!followed || followed.reading || this.loops.has(id)) return;
    followed.reading = true;
    try {
      const row = await repo.findJob(this.deps.db, id);
      if (!row || this.followed.get(id) !== followed) return;
      const job = toJob(row, this.deps.now());
      if (stateOf(job) !== followed.state) {
        followed.state = stateOf(job);
        this.events.emit(id, job);
      }
      if (row.status === 'running') await this.adopt(row);
    } catch (err) {
      this.deps.logger.warn({ err, job: id }, 'reading a reindex job failed');
    } finally {
      followed.reading = false;
    }
  }

  private run(row: JobRow) {
    const loop = this.loop(row)
      .catch(async (error: unknown) => {
        if (error instanceof NotOurs || error instanceof BatchRefused) {
          return void this.deps.logger.warn({ job: row.id }, 'another process took this reindex job over or ended it; it stops here');
        }
        this.deps.logger.error({ err: error, job: row.id }, 'reindex job failed');
        await this.finishOwn(row.id, 'failed', error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        this.loops.delete(row.id);
        this.cancelled.delete(row.id);
      });
    this.loops.set(row.id, loop);
  }

  private async loop(start: JobRow) {
    const resumeWorker = this.deps.vectors.pauseWorker();
    // The heartbeat tells other processes this job is alive even while one slow batch is embedding.
    const beat = () => void repo.touchJob(this.deps.db, start.id, this.instanceId, this.deps.now()).catch(() => {});
    const heartbeat = setInterval(beat, HEARTBEAT_MS);
    try {
      const ready = await this.deps.vectors.loadForJob();
      if (!ready.ready) return void (await this.finishOwn(start.id, 'failed', ready.reason));
      let lastPk = start.last_pk;
      // After a model or quantization change nothing is flagged until the index is prepared for the new
      // signature: without this a reindex would find no work and leave the old vectors in place. A rebuild flags
      // every memory, so the job starts over from the first one and counts them. A forced job may replace a Qdrant
      // collection of another model where Qdrant is the index (PostgreSQL).
      if (await this.deps.vectors.ensurePrepared(ready.embedder, { recreate: start.force === 1 })) {
        lastPk = 0;
        const pending = await vectorRepo.countPending(this.deps.db);
        this.progress(start.id, await repo.setJobTotal(this.deps.db, start.id, this.instanceId, pending, this.deps.now()));
      }
      const counter = this.counter(start.id);
      let failedBatches = 0;
      for (;;) {
        if (this.stopping) return;
        if (this.cancelled.has(start.id)) return void (await this.finishOwn(start.id, 'cancelled'));
        const batch = await this.deps.vectors.embedPending({ limit: this.deps.batchSize, afterPk: lastPk, count: counter.count });
        if (batch.processed + batch.failed === 0) return void (await this.syncRemote(start, ready.embedder));
        lastPk = batch.lastPk;
        failedBatches = batch.processed === 0 ? failedBatches + 1 : 0;
        this.progress(start.id, counter.row);
        if (failedBatches >= MAX_FAILED_BATCHES) return void (await this.finishOwn(start.id, 'failed', batch.error));
        // Lets requests, SSE pings and other timers run between batches.
        await yieldToEventLoop();
      }
    } finally {
      clearInterval(heartbeat);
      resumeWorker();
    }
  }

  /**
   * Second phase when Qdrant is the store: every local vector is queued and carried to Qdrant (a backfill of
   * memories it never saw), counted in the same job so the same progress stream shows it.
   */
  private async syncRemote(start: JobRow, embedder: Parameters<VectorService['prepareRemote']>[0]) {
    const queued = await this.deps.vectors.prepareRemote(embedder, { recreate: start.force === 1 });
    if (queued > 0) this.progress(start.id, await repo.setJobTotal(this.deps.db, start.id, this.instanceId, queued, this.deps.now()));
    const counter = this.counter(start.id);
    let failedBatches = 0;
    for (;;) {
      if (this.stopping) return;
      if (this.cancelled.has(start.id)) return void (await this.finishOwn(start.id, 'cancelled'));
      const batch = await this.deps.vectors.syncRemote(this.deps.batchSize, counter.count);
      if (batch.processed + batch.failed === 0) return void (await this.finishOwn(start.id, 'completed'));
      failedBatches = batch.processed === 0 ? failedBatches + 1 : 0;
      this.progress(start.id, counter.row);
      if (failedBatches >= MAX_FAILED_BATCHES) return void (await this.finishOwn(start.id, 'failed', `Qdrant sync failed: ${batch.error}`));
      await yieldToEventLoop();
    }
  }

  /**
   * Counts each batch of job `id` in the transaction of the batch's work (batchCount.ts); `row` is the job as the last
   * count left it, for progress().
   */
  private counter(id: string) {
    const counter: { row?: JobRow; count: BatchCounter<BatchResult & { lastPk?: number }> } = {
      count: async (db, batch) => {
        counter.row = await repo.recordBatch(db, id, this.instanceId, { ...batch, now: this.deps.now() });
        return counter.row !== undefined;
      },
    };
    return counter;
  }

  /**
   * Tells watchers of a step of a job run here; a step that was not recorded means another process owns the job now,
   * or ended it (a cancel sent to another replica).
   */
  private progress(id: string, row: JobRow | undefined) {
    if (!row) throw new NotOurs();
    this.events.emit(id, toJob(row, this.deps.now()));
  }

  /** Ends a job run here, unless another process took it over meanwhile. */
  private async finishOwn(id: string, status: Exclude<ReindexJobStatus, 'running'>, error?: string | null) {
    await this.finish(id, { status, error, owner: this.instanceId });
  }

  private async finish(id: string, f: { status: Exclude<ReindexJobStatus, 'running'>; error?: string | null; owner?: string }) {
    const row = await repo.finishJob(this.deps.db, id, { ...f, now: this.deps.now() });
    this.events.emit(id, toJob(row, this.deps.now()));
  }
}

/** Thrown inside a loop whose job another process took over or ended: the loop stops and leaves the job as it is. */
class NotOurs extends Error {}

/** What a watcher is told about: a job's state without its timestamps (a heartbeat is no news). */
function stateOf(job: ReindexJob): string {
  return `${job.status}|${job.total}|${job.processed}|${job.failed}|${job.error ?? ''}`;
}

/* The reindex operations that resolvers and tools call; the runner above owns the loops they start and watch. */

/** A job by id, or the latest one (null before the first). */
export function reindexJob(deps: { reindex: ReindexRunner }, id: string | null): Promise<ReindexJob | null> {
  return id ? deps.reindex.get(id) : deps.reindex.latest();
}

export function startReindex(deps: { reindex: ReindexRunner }, force: boolean): Promise<ReindexJob> {
  return deps.reindex.start(force);
}

export function cancelReindex(deps: { reindex: ReindexRunner }, id: string): Promise<ReindexJob> {
  return deps.reindex.cancel(id);
}

export function watchReindex(deps: { reindex: ReindexRunner }, id: string): AsyncGenerator<ReindexJob> {
  return deps.reindex.watch(id);
}
