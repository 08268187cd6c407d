import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionResult } from 'graphql';
import { NetworkError } from 'graphql-sse';
import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReindexRunner } from '../../server/jobs/reindex.service.ts';
import { createLogger } from '../../server/logger.ts';
import { startModelApi } from '../doubles/modelApi.ts';
import { startQdrantDouble } from '../doubles/qdrant.ts';
import {
  ReindexCancelDocument as CANCEL,
  type ReindexProgressSubscription,
  ReindexEngineStatusDocument as STATUS,
} from '../generated/graphql.ts';
import { holdEmbeddings, releaseHeldEmbeddings } from '../helpers/holdEmbeddings.ts';
import {
  IMPORT_MEMORIES,
  UPSERT_PROVIDER as PROVIDER,
  REINDEX_JOB,
  REINDEX_PROGRESS,
  RETRIEVE,
  RETRIEVE_PREVIEW,
  START_REINDEX,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { onlyError, type TestApp } from '../helpers/testApp.ts';
import { openTestStore } from '../helpers/testStore.ts';
import { topicEngine, topicModelDir, writeTopicModel } from '../helpers/topicModel.ts';
import { onPostgres, startVectorApp, type VectorApp } from '../helpers/vectorStore.ts';

/** Small batches, so a job over a few dozen memories takes several steps that the tests can watch. */
const BATCH = 5;
const models = topicModelDir();
const engine = (env: Record<string, string> = {}, modelsDir = models) =>
  topicEngine(modelsDir, { MEMORY_EMBEDDING_BATCH_SIZE: String(BATCH), ...env });

let app: VectorApp;
beforeAll(async () => {
  app = await startVectorApp({ engine: engine() });
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());
afterEach(async () => {
  releaseHeldEmbeddings();
  vi.restoreAllMocks();
  // Every test leaves no job running behind it.
  await app.services.reindex.idle();
});

const key = () => `k-${randomUUID().slice(0, 8)}`;
const startJob = (target: TestApp, force = false) => target.ok(START_REINDEX, { force }).then((d) => d.reindex);

async function importMemories(target: TestApp, count: number, apiKeyId = key()) {
  const fruit = ['banana', 'apple', 'mango', 'cherry', 'papaya'];
  const memories = Array.from({ length: count }, (_, i) => ({
    apiKeyId,
    key: `m${i}`,
    content: `I eat ${fruit[i % fruit.length]} on day ${i}`,
  }));
  const report = (await target.ok(IMPORT_MEMORIES, { memories })).importMemories;
  expect(report.rejected).toEqual([]);
  return apiKeyId;
}

/**
 * What the store holds: memories, vectors, distinct vector keys, vectors of existing memories, memories still flagged.
 * Vectors are read from sqlite-vec's table, or on PostgreSQL from the Qdrant double (points are keyed by the memory).
 */
async function counts(target: VectorApp) {
  const db = target.database.db;
  const memories = (await db.selectFrom('memories').select(['pk', 'needs_reindex']).execute()).map((m) => m);
  const base = { memories: memories.length, pending: memories.filter((m) => m.needs_reindex === 1).length };
  if (target.qdrant) {
    const pks = new Set(memories.map((m) => m.pk));
    const points = [...(target.qdrant.collections.get('mnemo_memory')?.points.values() ?? [])].map((p) => Number(p.id));
    return {
      ...base,
      vectors: points.length,
      distinctVectors: new Set(points).size,
      vectorsOfMemories: points.filter((pk) => pks.has(pk)).length,
    };
  }
  const get = (q: string) => (target.database.sqlite.prepare(q).get() as { n: number }).n;
  // The vector table is created by the first embedding.
  if (get(`select count(*) as n from sqlite_master where name = 'memory_vec'`) === 0) {
    return { ...base, vectors: 0, distinctVectors: 0, vectorsOfMemories: 0 };
  }
  return {
    ...base,
    vectors: get('select count(*) as n from memory_vec'),
    distinctVectors: get('select count(distinct memory_pk) as n from memory_vec'),
    vectorsOfMemories: get('select count(*) as n from memory_vec where memory_pk in (select pk from memories)'),
  };
}

/** Every memory has exactly one vector and none is waiting for one. */
async function expectFullyIndexed(target: VectorApp, memories: number) {
  expect(await counts(target)).toEqual({ memories, vectors: memories, distinctVectors: memories, vectorsOfMemories: memories, pending: 0 });
}

/** A running job as another process would have left it in the jobs table. */
async function insertJob(
  target: TestApp,
  job: { id: string; total: number; processed?: number; lastPk?: number; startedAt: number; updatedAt: number; owner?: string },
) {
  await target.database.db
    .insertInto('reindex_jobs')
    .values({
      id: job.id,
      status: 'running',
      force: 0,
      total: job.total,
      processed: job.processed ?? 0,
      failed: 0,
      last_pk: job.lastPk ?? 0,
      started_at: job.startedAt,
      updated_at: job.updatedAt,
      owner: job.owner ?? null,
    })
    .execute();
}

/**
 * Cancels a job whose embedding is held, and lets it go on only once the cancellation is registered, so the
 * job ends after exactly the batch it was embedding.
 */
async function cancelWhileHeld(target: TestApp, hold: { open(): void }, jobId: string) {
  const cancel = target.services.reindex.cancel.bind(target.services.reindex);
  let called!: () => void;
  const calledPromise = new Promise<void>((resolve) => (called = resolve));
  vi.spyOn(target.services.reindex, 'cancel').mockImplementation((id) => {
    const result = cancel(id);
    called();
    return result;
  });
  const cancelling = target.ok(CANCEL, { jobId });
  await calledPromise;
  // cancel() looks the job up (SQLite answers within the same turn of the event loop), then marks it.
  await new Promise((resolve) => setImmediate(resolve));
  hold.open();
  return (await cancelling).cancelReindex;
}

/** reindexProgress of one job, read as Memory Studio reads it. */
const watch = (target: TestApp, jobId: string, token?: string | null) => subscribe(target.url, REINDEX_PROGRESS, { jobId }, token);

const jobsOf = (results: ExecutionResult<ReindexProgressSubscription>[]) =>
  results.flatMap((r) => (r.data ? [r.data.reindexProgress] : []));
const codesOf = (results: ExecutionResult[]) => results.flatMap((r) => r.errors ?? []).map((e) => e.extensions?.code);

describe('reindex progress over SSE', () => {
  it('sends the current state first, then each batch, and completes when the job is done', async () => {
    await importMemories(app, 23);
    const pending = (await counts(app)).pending;
    expect(pending).toBe(23);
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    expect(job).toMatchObject({ status: 'RUNNING', processed: 0, total: pending, force: false });

    const stream = watch(app, job.id);
    const first = await stream.next();
    expect(first?.data?.reindexProgress).toMatchObject({ id: job.id, status: 'RUNNING', processed: 0, total: pending });

    hold.open();
    // Resolves once the server completes the stream.
    const updates = jobsOf(await stream.rest());
    const last = updates.at(-1)!;
    expect(last).toMatchObject({ id: job.id, status: 'COMPLETED', processed: pending, total: pending, failed: 0, error: null });
    expect(last.finishedAt).not.toBeNull();
    // One update per batch of 5, in order: 5, 10, 15, 20, 23, then the final state.
    expect(updates.map((u) => u.processed)).toEqual([5, 10, 15, 20, 23, 23]);
    expect(updates.slice(0, -1).every((u) => u.status === 'RUNNING')).toBe(true);
    const times = updates.map((u) => Date.parse(u.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('sends only the final state of a job that has already ended, then completes', async () => {
    await importMemories(app, 3);
    const job = await startJob(app);
    await app.services.reindex.idle();
    const results = await watch(app, job.id).rest();
    expect(results).toHaveLength(1);
    expect(jobsOf(results)).toEqual([expect.objectContaining({ id: job.id, status: 'COMPLETED', processed: 3, total: 3 })]);
  });

  it('answers NOT_FOUND for a job that does not exist', async () => {
    const results = await watch(app, randomUUID()).rest();
    expect(codesOf(results)).toEqual(['NOT_FOUND']);
    expect(jobsOf(results)).toEqual([]);
  });
});

describe('one job at a time', () => {
  it('returns the running job to a second reindex request', async () => {
    await importMemories(app, 12);
    const hold = await holdEmbeddings(app);
    const first = await startJob(app);
    const second = await startJob(app);
    expect(second.id).toBe(first.id);
    expect(second.status).toBe('RUNNING');
    hold.open();
  });

  it('starts one job for two requests made at the same time', async () => {
    await importMemories(app, 12);
    const jobs = () => app.database.db.selectFrom('reindex_jobs').select('id').execute();
    const before = (await jobs()).length;
    const hold = await holdEmbeddings(app);
    const [a, b] = await Promise.all([startJob(app), startJob(app)]);
    expect(a.id).toBe(b.id);
    expect(await jobs()).toHaveLength(before + 1);
    hold.open();
    await app.services.reindex.idle();
    await expectFullyIndexed(app, (await counts(app)).memories);
  });

  it('starts a new job once the previous one has ended', async () => {
    await importMemories(app, 2);
    const first = await startJob(app);
    await app.services.reindex.idle();
    const second = await startJob(app);
    expect(second.id).not.toBe(first.id);
  });
});

describe('what a job embeds', () => {
  it('embeds every memory that has no vector, once', async () => {
    await importMemories(app, 17);
    const job = await startJob(app);
    await app.services.reindex.idle();
    const done = (await app.ok(REINDEX_JOB, { id: job.id })).reindexJob;
    expect(done).toMatchObject({ status: 'COMPLETED', processed: job.total, total: job.total, failed: 0 });
    await expectFullyIndexed(app, (await counts(app)).memories);
  });

  it('has nothing to do when every memory already has its vector', async () => {
    await importMemories(app, 4);
    await startJob(app);
    await app.services.reindex.idle();
    const job = await startJob(app);
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({ status: 'COMPLETED', total: 0, processed: 0 });
  });

  it('re-embeds every memory with force, and still keeps one vector per memory', async () => {
    await importMemories(app, 6);
    await startJob(app);
    await app.services.reindex.idle();
    const { memories } = await counts(app);
    const job = await startJob(app, true);
    expect(job).toMatchObject({ force: true, total: memories });
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({
      status: 'COMPLETED',
      force: true,
      processed: memories,
      total: memories,
    });
    await expectFullyIndexed(app, memories);
  });

  it('reports the latest job when no id is given', async () => {
    await importMemories(app, 1);
    const job = await startJob(app);
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, {})).reindexJob?.id).toBe(job.id);
  });
});

describe('cancelling', () => {
  it('stops a running job after its current batch; the rest stay flagged for later', async () => {
    await importMemories(app, 30);
    const total = (await counts(app)).pending;
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    await hold.reached;
    const cancelled = await cancelWhileHeld(app, hold, job.id);
    expect(cancelled).toMatchObject({ id: job.id, status: 'CANCELLED', processed: BATCH, total });
    expect(cancelled.finishedAt).not.toBeNull();
    expect((await counts(app)).pending).toBe(total - BATCH);

    const next = await startJob(app);
    expect(next.id).not.toBe(job.id);
    await app.services.reindex.idle();
    await expectFullyIndexed(app, (await counts(app)).memories);
  });

  it('tells a watcher that the job was cancelled and completes the stream', async () => {
    await importMemories(app, 30);
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    const stream = watch(app, job.id);
    expect((await stream.next())?.data?.reindexProgress.status).toBe('RUNNING');
    await cancelWhileHeld(app, hold, job.id);
    const updates = jobsOf(await stream.rest());
    expect(updates.at(-1)).toMatchObject({ id: job.id, status: 'CANCELLED' });
  });

  it('leaves a finished job as it was', async () => {
    await importMemories(app, 2);
    const { pending } = await counts(app);
    const job = await startJob(app);
    await app.services.reindex.idle();
    expect((await app.ok(CANCEL, { jobId: job.id })).cancelReindex).toMatchObject({ status: 'COMPLETED', processed: pending });
  });

  it('answers NOT_FOUND for a job that does not exist', async () => {
    expect(onlyError(await app.gql(CANCEL, { jobId: randomUUID() })).extensions?.code).toBe('NOT_FOUND');
  });
});

describe('admin only', () => {
  it('refuses a gateway token on reindex, cancelReindex, reindexJob and engineStatus', async () => {
    const token = await app.mintToken();
    const bound = await app.mintToken({ apiKeyId: key() });
    for (const t of [token, bound]) {
      for (const [doc, vars] of [
        [START_REINDEX, { force: true }],
        [CANCEL, { jobId: randomUUID() }],
        [REINDEX_JOB, {}],
        [STATUS, {}],
      ] as const) {
        const res = await app.gql<Record<string, unknown> | null>(doc, vars, t);
        expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
        // Null data, or a nullable field left null: nothing about any job.
        expect(Object.values(res.data ?? {}).every((v) => v === null)).toBe(true);
      }
    }
    // Nothing was started on the gateway's behalf.
    expect(await app.database.db.selectFrom('reindex_jobs').select('id').where('status', '=', 'running').execute()).toEqual([]);
  });

  it('refuses a gateway token on the reindexProgress subscription without sending job data', async () => {
    await importMemories(app, 12);
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    const token = await app.mintToken();
    const results = await watch(app, job.id, token).rest();
    hold.open();
    expect(codesOf(results)).toEqual(['FORBIDDEN']);
    expect(jobsOf(results)).toEqual([]);
    expect(JSON.stringify(results)).not.toContain(job.id);
  });

  it('refuses a subscription without a token', async () => {
    const refused = await watch(app, randomUUID(), null)
      .next()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NetworkError);
    const response = (refused as NetworkError<Response>).response!;
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('UNAUTHENTICATED');
  });
});

describe('surviving a crash', () => {
  it('resumes a job stopped midway in a new process on the same database, losing and duplicating nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-crash-'));
    try {
      // On PostgreSQL both processes share one Qdrant, as they share the database.
      const qdrant = onPostgres ? await startQdrantDouble() : undefined;
      const first = await startVectorApp({ dir, engine: engine(), qdrant });
      await importMemories(first, 40);
      const hold = await holdEmbeddings(first);
      const job = await startJob(first);
      await hold.reached;
      // The process is told to stop while its first batch is embedding: it ends after that batch.
      const stopping = first.services.reindex.stop();
      hold.open();
      await stopping;
      const stopped = (await first.ok(REINDEX_JOB, { id: job.id })).reindexJob;
      expect(stopped).toMatchObject({ status: 'RUNNING', processed: BATCH, total: 40 });
      await first.close();
      // A process that died stops beating its heartbeat: its job looks abandoned after 30 s.
      const raw = await openTestStore(dir);
      await raw.db
        .updateTable('reindex_jobs')
        .set({ updated_at: Date.now() - 60_000 })
        .where('id', '=', job.id)
        .execute();
      await raw.close();

      const second = await startVectorApp({ dir, engine: engine(), qdrant });
      try {
        const resumed = await second.services.reindex.resumeInterrupted();
        expect(resumed?.id).toBe(job.id);
        await second.services.reindex.idle();
        expect((await second.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({
          status: 'COMPLETED',
          processed: 40,
          total: 40,
          failed: 0,
        });
        await expectFullyIndexed(second, 40);
      } finally {
        await second.close();
        await qdrant?.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes over an abandoned job from where it stopped when a reindex is requested', async () => {
    await importMemories(app, 20);
    const { pending } = await counts(app);
    // Half of the work was done by a process that then died, leaving its job "running".
    const half = await app.services.vectors.embedPending({ limit: Math.floor(pending / 2) });
    const now = Date.now();
    const id = randomUUID();
    await insertJob(app, {
      id,
      total: pending,
      processed: half.processed,
      lastPk: half.lastPk,
      startedAt: now - 120_000,
      updatedAt: now - 60_000,
    });

    const job = await startJob(app);
    expect(job.id).toBe(id);
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id })).reindexJob).toMatchObject({ status: 'COMPLETED', processed: pending, total: pending });
    await expectFullyIndexed(app, (await counts(app)).memories);
  });

  it('leaves a job whose process is alive to that process', async () => {
    await importMemories(app, 3);
    const now = Date.now();
    const id = randomUUID();
    // Another process's job with a fresh heartbeat.
    await insertJob(app, { id, total: 3, startedAt: now, updatedAt: now });
    try {
      const job = await startJob(app);
      expect(job.id).toBe(id);
      expect(await app.services.reindex.resumeInterrupted()).toMatchObject({ id, processed: 0 });
      await app.services.reindex.idle();
      expect((await counts(app)).pending).toBe(3);
    } finally {
      // End it as that process would, so the next test can start its own job.
      await app.database.db
        .updateTable('reindex_jobs')
        .set({ status: 'cancelled', finished_at: Date.now() })
        .where('id', '=', id)
        .execute();
      await startJob(app);
      await app.services.reindex.idle();
    }
  });
});

describe('jobs of other processes', () => {
  /** A pid that ran on this host and runs no more. */
  const deadPid = () => {
    const child = spawnSync(process.execPath, ['-e', '']);
    return child.pid!;
  };
  /** A running job as another process would have left it: owned by `owner`, heartbeat `beatAgoMs` ago. */
  async function leaveJob(target: TestApp, owner: string, total: number, beatAgoMs = 0) {
    const id = randomUUID();
    const now = Date.now();
    await insertJob(target, { id, total, startedAt: now - beatAgoMs, updatedAt: now - beatAgoMs, owner });
    return id;
  }
  const setJob = (id: string, set: string) => sql`update reindex_jobs set ${sql.raw(set)} where id = ${id}`.execute(app.database.db);
  /** One read of a followed job (FOLLOW_MS of fake time), then a turn of the real event loop for its SSE event. */
  const followRead = async () => {
    await vi.advanceTimersByTimeAsync(500);
    await new Promise((resolve) => setImmediate(resolve));
  };
  /** `done`, once the reads of the job it waits for have happened. */
  async function afterReads<T>(done: Promise<T>): Promise<T> {
    let settled = false;
    const watched = done.finally(() => {
      settled = true;
    });
    while (!settled) await followRead();
    return watched;
  }

  it('takes over at once a job whose owner process is gone, though its heartbeat is fresh', async () => {
    await importMemories(app, 6);
    const { pending } = await counts(app);
    const id = await leaveJob(app, `${hostname()}:${deadPid()}:0a1b2c3d`, pending);
    const job = await startJob(app);
    expect(job).toMatchObject({ id, status: 'RUNNING' });
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id })).reindexJob).toMatchObject({ status: 'COMPLETED', processed: pending });
  });

  it('leaves a heartbeating job of a live process on this host to it', async () => {
    await importMemories(app, 2);
    const id = await leaveJob(app, `${hostname()}:${process.pid}:another1`, 2);
    try {
      expect(await startJob(app)).toMatchObject({ id, processed: 0 });
      await app.services.reindex.idle();
      expect((await counts(app)).pending).toBeGreaterThanOrEqual(2);
    } finally {
      await setJob(id, `status = 'cancelled', finished_at = updated_at`);
      await startJob(app);
      await app.services.reindex.idle();
    }
  });

  it('stops a job running here once another process cancelled it, leaving the batch it was embedding flagged and uncounted', async () => {
    await importMemories(app, 30);
    const total = (await counts(app)).pending;
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    await hold.reached;
    // What cancelReindex does on a replica that does not run the job.
    await setJob(job.id, `status = 'cancelled', finished_at = updated_at`);
    hold.open();
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({ status: 'CANCELLED', processed: 0 });
    expect((await counts(app)).pending).toBe(total);
    await startJob(app);
    await app.services.reindex.idle();
  });

  it('leaves a batch embedded after another process took the job over flagged, for the new owner to embed and count', async () => {
    await importMemories(app, 30);
    const total = (await counts(app)).pending;
    const hold = await holdEmbeddings(app);
    const job = await startJob(app);
    await hold.reached;
    // What a replica does when it takes over a job whose heartbeat stopped.
    await setJob(job.id, `owner = 'another-process'`);
    hold.open();
    await app.services.reindex.idle();
    expect((await app.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({ status: 'RUNNING', processed: 0, total });
    expect((await counts(app)).pending).toBe(total);
    await setJob(job.id, `status = 'cancelled', finished_at = updated_at`);
  });

  it('tells a watcher only of changes of state, not of heartbeats, and ends its stream with the job', async () => {
    const id = await leaveJob(app, `${hostname()}:${process.pid}:another2`, 10);
    // The server reads a job run elsewhere every FOLLOW_MS (500 ms) on an interval; the test moves that time itself.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const sub = subscribe(app.url, REINDEX_PROGRESS, { jobId: id });
    try {
      expect((await sub.next())?.data?.reindexProgress).toMatchObject({ status: 'RUNNING', processed: 0 });
      // A heartbeat before each of four reads of the job: nothing new to tell, so the next event is the next step.
      for (let beat = 1; beat <= 4; beat++) {
        await setJob(id, `updated_at = updated_at + ${beat}`);
        await followRead();
      }
      await setJob(id, 'processed = 4');
      expect((await afterReads(sub.next()))?.data?.reindexProgress).toMatchObject({ status: 'RUNNING', processed: 4 });
      await setJob(id, `status = 'completed', processed = 10, finished_at = updated_at`);
      expect((await afterReads(sub.rest())).map((r) => r.data?.reindexProgress.status)).toEqual(['COMPLETED']);
    } finally {
      sub.close();
      vi.useRealTimers();
      // A failed test leaves no running job behind for the next one.
      await setJob(
        id,
        `status = case when status = 'running' then 'cancelled' else status end, finished_at = coalesce(finished_at, updated_at)`,
      );
    }
  });

  it('never tells a watcher an older state when a read of the job outlasts the follow interval', async () => {
    const id = await leaveJob(app, `${hostname()}:${process.pid}:another3`, 10);
    const reads = holdableReads();
    // A runner as another process would follow the job: on a connection of its own, whose reads can be held.
    const store = await openTestStore(app.dir);
    const follower = new ReindexRunner({
      db: store.db.withPlugin(reads.plugin),
      now: Date.now,
      vectors: app.services.vectors,
      logger: createLogger('silent'),
      batchSize: BATCH,
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const watch = follower.watch(id);
    const seen: number[] = [];
    try {
      seen.push((await watch.next()).value!.processed);
      await setJob(id, 'processed = 2');
      const slow = reads.holdNext();
      await vi.advanceTimersByTimeAsync(500);
      await slow.holding;
      // The job moves on, and the interval comes round again, while that read of "2 processed" is still out.
      await setJob(id, 'processed = 4');
      await vi.advanceTimersByTimeAsync(500);
      await reads.othersDone();
      slow.release();
      await setJob(id, `status = 'completed', processed = 10, finished_at = updated_at`);
      for (let next = await afterReads(watch.next()); !next.done; next = await afterReads(watch.next())) seen.push(next.value.processed);
      // The held read's state, then the job's end: never "4" before "2".
      expect(seen).toEqual([0, 2, 10]);
    } finally {
      await watch.return(undefined);
      vi.useRealTimers();
      await store.close();
      await setJob(
        id,
        `status = case when status = 'running' then 'cancelled' else status end, finished_at = coalesce(finished_at, updated_at)`,
      );
    }
  });

  it('takes over the job of a dead process that a watcher follows, and the watcher sees it through to the end', async () => {
    await importMemories(app, 6);
    const { pending } = await counts(app);
    const id = await leaveJob(app, `${hostname()}:${deadPid()}:4e5f6a7b`, pending);
    const sub = subscribe(app.url, REINDEX_PROGRESS, { jobId: id });
    try {
      const events = (await sub.rest()).map((r) => r.data?.reindexProgress);
      expect(events.at(-1)).toMatchObject({ status: 'COMPLETED', processed: pending });
      // Every event told something new.
      const states = events.map((e) => `${e?.status}|${e?.processed}|${e?.total}`);
      expect(new Set(states).size).toBe(states.length);
    } finally {
      sub.close();
    }
    await app.services.reindex.idle();
  });
});

describe('failures', () => {
  /** An app whose embeddings come from the model API double, through a provider named "double". */
  async function withRemoteModel(api: { baseUrl: string; apiKey: string | null }) {
    const target = await startVectorApp({ engine: engine() });
    await target.ok(PROVIDER, {
      input: { id: 'double', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'embed-1', kind: 'EMBEDDING' }] },
    });
    await target.ok(UPDATE_SETTINGS, { input: { embeddingProviderModel: 'double/embed-1', embeddingSource: 'REMOTE' } });
    return target;
  }

  it('refuses to start without a model to embed with, says why, changes nothing and keeps the memories flagged', async () => {
    const bare = await startVectorApp();
    try {
      await bare.ok(UPDATE_SETTINGS, { input: { staticEnabled: false } });
      await importMemories(bare, 3);
      const error = onlyError(await bare.gql(START_REINDEX, { force: true }));
      expect(error.extensions?.code).toBe('BAD_USER_INPUT');
      expect(error.message).toMatch(/^reindex not started: .*keyword search only/);
      expect((await bare.ok(REINDEX_JOB, {})).reindexJob).toBeNull();
      expect((await counts(bare)).pending).toBe(3);
    } finally {
      await bare.close();
    }
  });

  it("refuses to start when a test call to the model fails, with the model's answer, and starts no job", async () => {
    const api = await startModelApi();
    const target = await withRemoteModel(api);
    try {
      await importMemories(target, 4);
      api.inject({ kind: 'status', status: 401, message: 'Incorrect API key provided' });
      const error = onlyError(await target.gql(START_REINDEX, {}));
      expect(error.extensions?.code).toBe('UNAVAILABLE');
      expect(error.message).toMatch(
        /^reindex not started: the embedding model failed a test call \(.*HTTP 401: Incorrect API key provided\)$/,
      );
      expect((await target.ok(REINDEX_JOB, {})).reindexJob).toBeNull();
      expect((await counts(target)).pending).toBe(4);
      // The test call was one request, not a job's worth of retries.
      expect(api.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(1);
    } finally {
      await target.close();
      await api.close();
    }
  });

  it('refuses to start when the model API cannot be reached', async () => {
    const api = await startModelApi();
    const target = await withRemoteModel(api);
    await api.close();
    try {
      await importMemories(target, 2);
      const error = onlyError(await target.gql(START_REINDEX, {}));
      expect(error.extensions?.code).toBe('UNAVAILABLE');
      expect(error.message).toMatch(/ECONNREFUSED/);
    } finally {
      await target.close();
    }
  });

  it('gives up after three batches in a row fail, keeping their memories flagged, and says why', async () => {
    // The model's context is shorter than its settings say: the test call's short text passes, every memory fails.
    const api = await startModelApi({ maxInputTokens: 5 });
    const target = await withRemoteModel(api);
    try {
      await importMemories(target, 20);
      const job = await startJob(target);
      await target.services.reindex.idle();
      const failed = (await target.ok(REINDEX_JOB, { id: job.id })).reindexJob;
      expect(failed).toMatchObject({ status: 'FAILED', processed: 0, failed: 3 * BATCH, total: 20 });
      expect(failed?.error).toMatch(/HTTP 400: .*maximum context length/);
      expect((await counts(target)).pending).toBe(20);
    } finally {
      await target.close();
      await api.close();
    }
  });
});

// sqlite-vec's table is rebuilt for a new signature; on PostgreSQL a Qdrant collection of another model is refused until
// reindex(force: true) recreates it (qdrant.test.ts).
describe.skipIf(onPostgres)('a new embedding signature (sqlite-vec)', () => {
  it('rebuilds the vector table for a model of another dimension, and a reindex refills it with every memory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-switch-'));
    try {
      // A second model with the same topics in 16 dimensions.
      writeTopicModel(models, 'test/topics16', 16);
      const before = await startVectorApp({ dir, engine: engine() });
      await before.ok(UPDATE_SETTINGS, { input: { enabled: true } });
      const apiKeyId = await importMemories(before, 12);
      await startJob(before);
      await before.services.reindex.idle();
      await expectFullyIndexed(before, 12);
      expect((await before.ok(STATUS)).engineStatus.vectorStore).toMatchObject({ signature: 'static:test/topics:8:none', dimension: 8 });
      await before.close();

      const after = await startVectorApp({ dir, engine: engine({ MEMORY_STATIC_MODEL: 'test/topics16' }) });
      try {
        const job = await startJob(after);
        await after.services.reindex.idle();
        expect((await after.ok(REINDEX_JOB, { id: job.id })).reindexJob).toMatchObject({ status: 'COMPLETED', processed: 12, total: 12 });
        await expectFullyIndexed(after, 12);
        const status = (await after.ok(STATUS)).engineStatus;
        expect(status.vectorStore).toMatchObject({
          signature: 'static:test/topics16:16:none',
          dimension: 16,
          signatureMatches: true,
          rows: 12,
          pendingReindex: 0,
        });
        expect(status.vectorStore.lastResetAt).not.toBeNull();
        const r = (await after.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: 'mango', strategy: 'SEMANTIC' } })).retrievePreview;
        expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: false });
        expect(r.items).toHaveLength(12);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds the vector table when MEMORY_VEC_QUANTIZATION changes, and a reindex refills it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-quant-'));
    try {
      const before = await startVectorApp({ dir, engine: engine() });
      const apiKeyId = await importMemories(before, 9);
      await startJob(before);
      await before.services.reindex.idle();
      await expectFullyIndexed(before, 9);
      await before.close();

      const after = await startVectorApp({ dir, engine: engine({ MEMORY_VEC_QUANTIZATION: 'int8' }) });
      try {
        await startJob(after);
        await after.services.reindex.idle();
        await expectFullyIndexed(after, 9);
        expect((await after.ok(STATUS)).engineStatus.vectorStore).toMatchObject({
          signature: 'static:test/topics:8:int8',
          quantization: 'int8',
          signatureMatches: true,
        });
        const r = (await after.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: 'mango', strategy: 'SEMANTIC' } })).retrievePreview;
        expect(r.items).toHaveLength(9);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('flags every memory when the vector table is rebuilt, so retrievals backfill them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-flags-'));
    try {
      const before = await startVectorApp({ dir, engine: engine() });
      await importMemories(before, 5);
      await startJob(before);
      await before.services.reindex.idle();
      await before.close();

      const after = await startVectorApp({ dir, engine: engine({ MEMORY_VEC_QUANTIZATION: 'int8' }) });
      try {
        await after.services.vectors.loadForJob();
        // A preview changes nothing: it falls back instead of rebuilding.
        const preview = await after.ok(RETRIEVE_PREVIEW, { input: { apiKeyId: key(), query: 'mango', strategy: 'SEMANTIC' } });
        expect(preview.retrievePreview.resolution.fallback).toBe(true);
        expect(await counts(after)).toMatchObject({ memories: 5, vectors: 5, pending: 0 });
        // The first gateway retrieval with the new signature notices the change and rebuilds.
        await after.ok(RETRIEVE, { input: { apiKeyId: key(), query: 'mango', strategy: 'SEMANTIC', maxTokens: 500 } });
        expect((await counts(after)).memories).toBe(5);
        expect((await counts(after)).vectors + (await counts(after)).pending).toBe(5);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A Kysely plugin whose next read can be held once it has its rows, as a busy database holds a query: how a test makes
 * one read of a job outlast the next.
 */
function holdableReads() {
  let next: { holding: () => void; released: Promise<void> } | undefined;
  const reading = new Set<unknown>();
  const whenNoneInFlight: (() => void)[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode') reading.add(args.queryId);
      return args.node;
    },
    async transformResult(args) {
      if (!reading.delete(args.queryId)) return args.result;
      if (reading.size === 0) for (const resolve of whenNoneInFlight.splice(0)) resolve();
      const held = next;
      next = undefined;
      if (held) {
        held.holding();
        await held.released;
      }
      return args.result;
    },
  };
  return {
    plugin,
    /** Holds the next read that gets its rows until `release`; `holding` resolves once it does. */
    holdNext() {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holding = new Promise<void>((resolve) => {
        next = { holding: resolve, released };
      });
      return { holding, release };
    },
    /** Resolves once every read started so far, but a held one, has its rows. */
    othersDone(): Promise<void> {
      return reading.size === 0 ? Promise.resolve() : new Promise((resolve) => whenNoneInFlight.push(resolve));
    },
  };
}
