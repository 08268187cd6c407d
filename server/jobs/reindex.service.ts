import { randomUUID } from 'node:crypto';
import { EventEmitter, on } from 'node:events';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/open.ts';
import type { ReindexJobStatus } from '../db/schema.ts';
import { badInput, notFound, unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
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

/** A job whose heartbeat is older than this was left running by a process that died: it is resumed. */
const STALE_AFTER_MS = 30_000;
const HEARTBEAT_MS = 10_000;
/** Consecutive batches that all fail before the job gives up (the memories stay flagged for later). */
const MAX_FAILED_BATCHES = 3;

export function toJob(row: JobRow, now = Date.now()): ReindexJob {
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
 * after a crash, cancellable, and observable through `watch`.
 */
export class ReindexRunner {
  private readonly events = new EventEmitter();
  private readonly loops = new Map<string, Promise<void>>();
  private readonly cancelled = new Set<string>();
  private stopping = false;

  constructor(private readonly deps: { db: Db; vectors: VectorService; logger: Logger; batchSize: number }) {
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
    const now = Date.now();
    let row: JobRow;
    try {
      row = await repo.insertRunningJob(this.deps.db, { id: randomUUID(), force, total: await vectorRepo.countPending(this.deps.db), now });
    } catch (error) {
      // Another caller won the race for the single running slot: follow its job.
      const winner = await repo.findRunningJob(this.deps.db);
      if (winner) return this.adopt(winner);
      throw error;
    }
    this.run(row);
    return toJob(row);
  }

  /** Resumes a job that a crashed or stopped process left running; called at start-up. */
  async resumeInterrupted(): Promise<ReindexJob | null> {
    const running = await repo.findRunningJob(this.deps.db);
    return running ? this.adopt(running) : null;
  }

  async cancel(id: string): Promise<ReindexJob> {
    const row = await repo.findJob(this.deps.db, id);
    if (!row) throw notFound(`no reindex job with id ${id}`);
    if (row.status !== 'running') return toJob(row);
    this.cancelled.add(id);
    // A job run by this process stops at its next batch; one left by a dead process is ended here.
    if (!this.loops.has(id)) await this.finish(id, 'cancelled');
    await this.loops.get(id);
    return this.get(id);
  }

  async get(id: string): Promise<ReindexJob> {
    const row = await repo.findJob(this.deps.db, id);
    if (!row) throw notFound(`no reindex job with id ${id}`);
    return toJob(row);
  }

  async latest(): Promise<ReindexJob | null> {
    const row = await repo.latestJob(this.deps.db);
    return row ? toJob(row) : null;
  }

  /** The job's state now, then after every batch, ending after the state in which it stops. */
  async *watch(id: string, signal?: AbortSignal): AsyncGenerator<ReindexJob> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    // Listen before reading, so no update between the read and the subscription is missed.
    const updates = on(this.events, id, { signal: controller.signal });
    try {
      let job = await this.get(id);
      yield job;
      while (job.status === 'running') {
        const next = await Promise.race([updates.next(), this.pollUnowned(id, controller.signal)]);
        if (!next || next.done) return;
        job = next.value[0] as ReindexJob;
        yield job;
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      signal?.removeEventListener('abort', abort);
      controller.abort();
    }
  }

  /** Waits for this process's loops to finish (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.loops.values());
  }

  /** Stops every loop of this process at its next batch; the jobs stay "running" and resume on restart. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
    this.stopping = false;
  }

  /** A job that could only fail batch after batch is refused up front, with the model's own answer. */
  private async probeModel() {
    const test = await this.deps.vectors.testEmbedding();
    if (test.ok) return;
    if (!test.called) throw badInput(`reindex not started: ${test.error}`);
    throw unavailable(`reindex not started: the embedding model failed a test call (${test.error})`);
  }

  private adopt(row: JobRow): ReindexJob {
    const owned = this.loops.has(row.id);
    const stale = Date.now() - row.updated_at > STALE_AFTER_MS;
    if (!owned && stale) {
      this.deps.logger.info({ job: row.id, lastPk: row.last_pk }, 'resuming an interrupted reindex job');
      this.run(row);
    }
    return toJob(row);
  }

  private run(row: JobRow) {
    const loop = this.loop(row)
      .catch(async (error: unknown) => {
        this.deps.logger.error({ err: error, job: row.id }, 'reindex job failed');
        await this.finish(row.id, 'failed', error instanceof Error ? error.message : String(error));
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
    const heartbeat = setInterval(() => void repo.touchJob(this.deps.db, start.id, Date.now()).catch(() => {}), HEARTBEAT_MS);
    try {
      const ready = await this.deps.vectors.loadForJob();
      if (!ready.ready) return void (await this.finish(start.id, 'failed', ready.reason));
      let lastPk = start.last_pk;
      // After a model or quantization change nothing is flagged until the index is prepared for the new
      // signature: without this a reindex would find no work and leave the old vectors in place. A rebuild flags
      // every memory, so the job starts over from the first one and counts them.
      if (await this.deps.vectors.ensurePrepared(ready.embedder)) {
        lastPk = 0;
        const row = await repo.setJobTotal(this.deps.db, start.id, await vectorRepo.countPending(this.deps.db), Date.now());
        this.events.emit(start.id, toJob(row));
      }
      let failedBatches = 0;
      for (;;) {
        if (this.stopping) return;
        if (this.cancelled.has(start.id)) return void (await this.finish(start.id, 'cancelled'));
        const batch = await this.deps.vectors.embedPending({ limit: this.deps.batchSize, afterPk: lastPk });
        if (batch.processed + batch.failed === 0) return void (await this.syncRemote(start, ready.embedder));
        lastPk = batch.lastPk;
        failedBatches = batch.processed === 0 ? failedBatches + 1 : 0;
        const row = await repo.recordBatch(this.deps.db, start.id, { ...batch, now: Date.now() });
        this.events.emit(start.id, toJob(row));
        if (failedBatches >= MAX_FAILED_BATCHES) return void (await this.finish(start.id, 'failed', batch.error));
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
    if (queued > 0) this.events.emit(start.id, toJob(await repo.setJobTotal(this.deps.db, start.id, queued, Date.now())));
    let failedBatches = 0;
    for (;;) {
      if (this.stopping) return;
      if (this.cancelled.has(start.id)) return void (await this.finish(start.id, 'cancelled'));
      const batch = await this.deps.vectors.syncRemote(this.deps.batchSize);
      if (batch.processed + batch.failed === 0) return void (await this.finish(start.id, 'completed'));
      failedBatches = batch.processed === 0 ? failedBatches + 1 : 0;
      const row = await repo.recordBatch(this.deps.db, start.id, { ...batch, now: Date.now() });
      this.events.emit(start.id, toJob(row));
      if (failedBatches >= MAX_FAILED_BATCHES) return void (await this.finish(start.id, 'failed', `Qdrant sync failed: ${batch.error}`));
      await yieldToEventLoop();
    }
  }

  private async finish(id: string, status: Exclude<ReindexJobStatus, 'running'>, error?: string | null) {
    const row = await repo.finishJob(this.deps.db, id, status, Date.now(), error);
    this.events.emit(id, toJob(row));
  }

  /** A job run by another process emits nothing here: follow it through the table instead. */
  private async pollUnowned(id: string, signal: AbortSignal): Promise<IteratorResult<[ReindexJob]> | null> {
    if (this.loops.has(id)) return new Promise(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (signal.aborted) return null;
    const row = await repo.findJob(this.deps.db, id);
    return row ? { done: false, value: [toJob(row)] } : null;
  }
}
