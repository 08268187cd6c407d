import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BREAKER_COOLDOWN_MS, BREAKER_THRESHOLD } from '../../server/vector/qdrantIndex.ts';
import { type QdrantDouble, type RecordedRequest, startQdrantDouble } from '../doubles/qdrant.ts';
import {
  QdrantCallsDocument as CALLS,
  QdrantCleanupDocument as CLEANUP,
  QdrantHealthCheckDocument as HEALTH,
  QdrantGetSettingsDocument as QDRANT_SETTINGS,
  type QdrantQuantization,
  type QdrantSettingsInput,
  QdrantSearchTestDocument as SEARCH_TEST,
  QdrantEngineStatusDocument as STATUS,
  QdrantUpdateSettingsDocument as UPDATE_QDRANT,
} from '../generated/graphql.ts';
import { type TestClock, testClock } from '../helpers/clock.ts';
import {
  CREATE_MEMORY,
  DELETE_MEMORY,
  GET_SETTINGS,
  IMPORT_MEMORIES,
  type MemoryInput,
  REINDEX_JOB,
  REINDEX_PROGRESS,
  RETRIEVE,
  RETRIEVE_PREVIEW,
  type RetrieveInput,
  START_REINDEX,
  SUMMARIZE,
  type TestRetrievalFragment,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
  QDRANT_WAITING as WAITING,
} from '../helpers/operations.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { type Operation, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { onPostgres } from '../helpers/vectorStore.ts';

// The Qdrant tier end to end: a real mnemo over HTTP, the real Qdrant client, and the Qdrant double (which
// validates every request against Qdrant's OpenAPI document). What reached Qdrant is read from the double's
// requests and stored collections. No worker runs: a test moves the outbox itself with tick(), which does
// what one round of the background worker does.

const COLLECTION = 'mnemo_memory';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const key = () => `k-${randomUUID().slice(0, 8)}`;
const models = topicModelDir();

interface QdrantApp extends TestApp {
  /** The double this app's Qdrant settings point at (once connected). */
  qdrant: QdrantDouble;
  /** The services' time; a test moves it forward instead of waiting out the breaker's cooldown. */
  clock: TestClock;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A mnemo with the topic model, MNEMO_QDRANT_* variables and a clock the test moves. Retention is
 * 90 days; the Qdrant double starts with `apiKey` when given.
 */
async function start(opts: { env?: Record<string, string>; apiKey?: string; batchSize?: number } = {}): Promise<QdrantApp> {
  const qdrant = await startQdrantDouble(opts.apiKey ? { apiKey: opts.apiKey } : {});
  cleanups.push(async () => {
    // Every answer the double gave conformed to Qdrant's document.
    expect(qdrant.responseProblems).toEqual([]);
    await qdrant.close();
  });
  const clock = testClock();
  const engine = topicEngine(models, opts.batchSize ? { MEMORY_EMBEDDING_BATCH_SIZE: String(opts.batchSize) } : {});
  const app = await startTestApp({ engine, env: opts.env ?? {}, clock: clock.now });
  cleanups.push(() => app.close());
  const { services, ok } = app;
  await ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 90 } });
  // Tests of the vector tier start once the model is loaded, as a running server soon is.
  await services.vectors.loadForJob();
  return { ...app, qdrant, clock };
}

/** An app with Qdrant configured at its double and selected as the vector store. */
async function startWithQdrant(input: QdrantSettingsInput = {}, opts: Parameters<typeof start>[0] = {}) {
  const app = await start(opts);
  await connect(app, input);
  return app;
}

const connect = (app: QdrantApp, input: QdrantSettingsInput = {}) =>
  app.ok(UPDATE_QDRANT, { input: { url: app.qdrant.url, enabled: true, ...input } }).then((d) => d.updateQdrantSettings);
const create = (app: QdrantApp, input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const retrieve = (app: QdrantApp, input: RetrieveInput) =>
  app.ok(RETRIEVE, { input: { strategy: 'SEMANTIC', ...input } }).then((d) => d.retrieve);
const contents = (r: TestRetrievalFragment) => r.items.map((i) => i.memory.content).sort();
const status = (app: QdrantApp) => app.ok(STATUS).then((d) => d.engineStatus.qdrant);
const importMemories = async (app: QdrantApp, memories: MemoryInput[]) => {
  expect((await app.ok(IMPORT_MEMORIES, { memories })).importMemories.rejected).toEqual([]);
};

/** One round of the background worker: embed what is flagged, then carry the outbox to Qdrant. */
async function tick(app: QdrantApp) {
  await app.services.vectors.embedPending({ limit: 500 });
  return app.services.vectors.syncRemote(500);
}

/** Runs a reindex job to its end, as the admin would start it. */
async function reindex(app: QdrantApp, force = false) {
  const { id } = (await app.ok(START_REINDEX, { force })).reindex;
  await app.services.reindex.idle();
  return (await app.ok(REINDEX_JOB, { id })).reindexJob!;
}

const outbox = (app: QdrantApp) =>
  app.database.db
    .selectFrom('qdrant_outbox as o')
    .leftJoin('memories as m', 'm.pk', 'o.pk')
    .select(['m.id', 'o.op'])
    .orderBy('o.pk')
    .execute();
/** The points the double holds, by memory id. */
function points(app: QdrantApp): Map<string, Record<string, unknown>> {
  const collection = app.qdrant.collections.get(COLLECTION);
  return new Map([...(collection?.points.values() ?? [])].map((p) => [String(p.payload.memory_id), p.payload]));
}
const requestsTo = (app: QdrantApp, method: string, pattern: RegExp): RecordedRequest[] =>
  app.qdrant.requests.filter((r) => r.method === method && pattern.test(r.path));
const pointWrites = (app: QdrantApp) => requestsTo(app, 'PUT', /\/points$/);
const lastQueryFilter = (app: QdrantApp) =>
  (
    requestsTo(app, 'POST', /\/points\/query$/).at(-1)!.body as {
      filter: { must: { key?: string; range?: { gt?: number; gte?: number } }[] };
    }
  ).filter;

async function createCollectionInDouble(app: QdrantApp, size: number) {
  await new QdrantClient({ url: app.qdrant.url, checkCompatibility: false }).createCollection(COLLECTION, {
    vectors: { size, distance: 'Cosine' },
  });
}

describe('the collection', () => {
  it("is created on first use with the embedding's dimension, Cosine distance and the model's signature", async () => {
    const app = await startWithQdrant();
    expect(app.qdrant.collections.has(COLLECTION)).toBe(false);
    await create(app, { apiKeyId: key(), content: 'I eat banana' });
    await tick(app);
    const collection = app.qdrant.collections.get(COLLECTION)!;
    expect([...collection.vectors.values()]).toEqual([{ size: 8, distance: 'Cosine' }]);
    expect(collection.createRequest.metadata).toEqual({ mnemo_signature: 'static:test/topics:8:none' });
  });

  it('has payload indexes on api_key_id (as the tenant), session_id, type, expires_at, updated_at, archived and superseded', async () => {
    const app = await startWithQdrant();
    await retrieve(app, { apiKeyId: key(), query: 'mango' });
    expect(Object.fromEntries(app.qdrant.collections.get(COLLECTION)!.payloadIndexes)).toEqual({
      api_key_id: { data_type: 'keyword', params: { type: 'keyword', is_tenant: true } },
      session_id: { data_type: 'keyword' },
      type: { data_type: 'keyword' },
      expires_at: { data_type: 'integer' },
      updated_at: { data_type: 'integer' },
      archived: { data_type: 'bool' },
      superseded: { data_type: 'bool' },
    });
  });

  it.each<[QdrantQuantization, Record<string, unknown>]>([
    ['INT8', { scalar: { type: 'int8', quantile: 0.99, always_ram: true } }],
    ['BINARY', { binary: { always_ram: true } }],
  ])('with %s quantization is created quantized, and searches ask for rescoring', async (quantization, config) => {
    const app = await startWithQdrant({ quantization });
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    expect(app.qdrant.collections.get(COLLECTION)!.createRequest.quantization_config).toEqual(config);
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(contents(r)).toEqual(['I eat banana']);
    const query = requestsTo(app, 'POST', /\/points\/query$/).at(-1)!.body as Record<string, unknown>;
    expect(query.params).toEqual({ quantization: { rescore: true, oversampling: 2 } });
  });
});

describe('SEMANTIC retrieval from Qdrant', () => {
  it('answers from Qdrant once the memories are synced', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await create(app, { apiKeyId, content: 'I write rust' });
    await tick(app);
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution).toMatchObject({ vectorStore: 'qdrant', fallback: false, fallbackReason: null });
    expect(requestsTo(app, 'POST', /\/points\/query$/)).toHaveLength(1);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('finds a memory written since the last sync: sqlite-vec answers until it reaches Qdrant, and says so', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I write rust' });
    await tick(app);
    await create(app, { apiKeyId, content: 'I eat banana' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution.vectorStore).toBe('sqlite-vec');
    expect(r.resolution.fallbackReason).toBe('Qdrant is catching up (changes to this key are still queued for it); sqlite-vec answered');
    await tick(app);
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).resolution.vectorStore).toBe('qdrant');
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('answers from sqlite-vec, not by the old meaning, while a content change is on its way to Qdrant', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.items).toEqual([]);
    expect(r.resolution.vectorStore).toBe('sqlite-vec');
  });

  it('keeps answering from Qdrant after a connection setting changes, without uploading the points again', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    const writes = pointWrites(app).length;
    await app.ok(UPDATE_QDRANT, { input: { timeoutMs: 4000 } });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution).toMatchObject({ vectorStore: 'qdrant', fallbackReason: null });
    expect(await tick(app)).toMatchObject({ processed: 0, failed: 0 });
    expect(pointWrites(app)).toHaveLength(writes);
  });

  it("never returns another key's memories, however close: the tenant is filtered inside Qdrant", async () => {
    const app = await startWithQdrant();
    const [mine, theirs] = [key(), key()];
    const other = await create(app, { apiKeyId: theirs, content: 'mango' });
    await create(app, { apiKeyId: mine, content: 'I write rust' });
    await tick(app);
    expect(points(app).has(other.id)).toBe(true);
    const r = await retrieve(app, { apiKeyId: mine, query: 'mango' });
    expect(r.items).toEqual([]);
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(lastQueryFilter(app).must).toContainEqual({ key: 'api_key_id', match: { value: mine } });
  });

  it('filters by session inside Qdrant: the session asked for and the key-wide memories', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana', sessionId: 's1' });
    await create(app, { apiKeyId, content: 'I eat apple', sessionId: 's2' });
    await create(app, { apiKeyId, content: 'I eat cherry' });
    await tick(app);
    const r = await retrieve(app, { apiKeyId, sessionId: 's1', query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana', 'I eat cherry']);
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(lastQueryFilter(app).must).toContainEqual({ key: 'session_id', match: { any: ['', 's1'] } });
  });

  it('filters by type inside Qdrant', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana', type: 'PROCEDURAL' });
    await create(app, { apiKeyId, content: 'I eat apple', type: 'EPISODIC' });
    await tick(app);
    const r = await retrieve(app, { apiKeyId, query: 'mango', types: ['PROCEDURAL'] });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(lastQueryFilter(app).must).toContainEqual({ key: 'type', match: { any: ['procedural'] } });
  });

  it('leaves out expired memories inside Qdrant, though their points are still there', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
    await tick(app);
    expect(points(app).get(m.id)!.expires_at).toBeLessThan(Date.now());
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.items).toEqual([]);
    expect(r.resolution.vectorStore).toBe('qdrant');
    const expiry = lastQueryFilter(app).must.find((c) => c.key === 'expires_at');
    expect(expiry?.range?.gt).toBeGreaterThan(points(app).get(m.id)!.expires_at as number);
  });

  it('leaves out memories written before the retention window inside Qdrant', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await importMemories(app, [
      { apiKeyId, content: 'I eat banana', key: 'old', createdAt: daysAgo(120) },
      { apiKeyId, content: 'I eat apple', key: 'recent', createdAt: daysAgo(1) },
    ]);
    await tick(app);
    expect(points(app).size).toBe(2);
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat apple']);
    const retention = lastQueryFilter(app).must.find((c) => c.key === 'updated_at');
    expect(retention?.range?.gte).toBeGreaterThan(Date.now() - 91 * DAY);
    expect(retention?.range?.gte).toBeLessThan(Date.now() - 89 * DAY);
  });

  it('leaves out memories archived by a summary inside Qdrant', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    // Facts said again and again: their summary is smaller than they are, so compaction goes ahead.
    await importMemories(
      app,
      Array.from({ length: 10 }, (_, i) => ({
        apiKeyId,
        content: i % 2 ? 'I eat banana' : 'I eat cherry',
        key: `k${i}`,
        createdAt: daysAgo(60),
      })),
    );
    await tick(app);
    const originals = [...points(app).keys()];
    expect((await app.ok(SUMMARIZE, { apiKeyId, olderThanDays: 30, dryRun: false })).summarize.summaries).toHaveLength(1);
    await tick(app);
    for (const id of originals) expect(points(app).get(id)!.archived).toBe(true);
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution.vectorStore).toBe('qdrant');
    for (const id of originals) expect(r.items.map((i) => i.memory.id)).not.toContain(id);
    expect(lastQueryFilter(app).must).toContainEqual({ key: 'archived', match: { value: false } });
  });

  it('honours a limit above 20: limit 50 returns 50 of 60 matches', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await importMemories(
      app,
      Array.from({ length: 60 }, (_, i) => ({ apiKeyId, key: `f${i}`, content: `banana ${i}` })),
    );
    await tick(app);
    const r = await retrieve(app, { apiKeyId, query: 'mango', limit: 50, maxTokens: 16_000 });
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(r.items).toHaveLength(50);
  });
});

describe('sync through the outbox', () => {
  it('queues nothing while vectorStore is not QDRANT, and sends Qdrant nothing', async () => {
    const app = await start();
    await app.ok(UPDATE_QDRANT, { input: { url: app.qdrant.url } });
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await retrieve(app, { apiKeyId, query: 'mango' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    await app.ok(DELETE_MEMORY, { id: m.id });
    await tick(app);
    expect(await outbox(app)).toEqual([]);
    expect(app.qdrant.requests).toEqual([]);
  });

  it('carries a new memory to Qdrant once it is embedded', async () => {
    const app = await startWithQdrant();
    const m = await create(app, { apiKeyId: key(), content: 'I eat banana', sessionId: 's1', type: 'PROCEDURAL' });
    await tick(app);
    expect(points(app).get(m.id)).toMatchObject({ session_id: 's1', type: 'procedural', archived: false });
    expect(await outbox(app)).toEqual([]);
  });

  it('removes the point of a memory whose content changed until the new content is embedded', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    expect(await outbox(app)).toEqual([{ id: m.id, op: 'delete' }]);
    await app.services.vectors.syncRemote(100);
    expect(points(app).has(m.id)).toBe(false);
    await tick(app);
    expect(points(app).has(m.id)).toBe(true);
    const r = await retrieve(app, { apiKeyId, query: 'python' });
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(contents(r)).toEqual(['I write rust']);
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).items).toEqual([]);
  });

  it('re-upserts the point of a memory whose metadata changed, with its current fields', async () => {
    const app = await startWithQdrant();
    const m = await create(app, { apiKeyId: key(), content: 'I eat banana' });
    await tick(app);
    // A copy: on PostgreSQL the double rewrites the stored payload in place.
    const before = { ...points(app).get(m.id)! };
    // On PostgreSQL, with no local copy of the vector, the point's fields are rewritten in place (set_payload).
    const rewrites = () => (onPostgres ? requestsTo(app, 'POST', /\/points\/payload$/) : pointWrites(app));
    const writes = rewrites().length;
    const updated = (await app.ok(UPDATE_MEMORY, { id: m.id, input: { metadata: { mood: 'hungry' } } })).updateMemory;
    expect(await outbox(app)).toEqual([{ id: m.id, op: 'upsert' }]);
    await tick(app);
    expect(rewrites()).toHaveLength(writes + 1);
    expect(points(app).get(m.id)!.updated_at).toBe(new Date(updated.updatedAt).getTime());
    expect(points(app).get(m.id)!.updated_at).not.toBe(before.updated_at);
  });

  it('re-upserts the point of a memory whose type or session changed, without embedding it again', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { type: 'PROCEDURAL', sessionId: 's9' } });
    await app.services.vectors.syncRemote(100);
    expect(points(app).get(m.id)).toMatchObject({ type: 'procedural', session_id: 's9' });
    const r = await retrieve(app, { apiKeyId, sessionId: 's9', query: 'mango', types: ['PROCEDURAL'] });
    expect(r.resolution.vectorStore).toBe('qdrant');
    expect(contents(r)).toEqual(['I eat banana']);
  });

  it('deletes the point of a deleted memory', async () => {
    const app = await startWithQdrant();
    const m = await create(app, { apiKeyId: key(), content: 'I eat banana' });
    await tick(app);
    await app.ok(DELETE_MEMORY, { id: m.id });
    expect(await outbox(app)).toEqual([{ id: null, op: 'delete' }]);
    await tick(app);
    expect(points(app).has(m.id)).toBe(false);
    expect(await outbox(app)).toEqual([]);
  });
});

describe('backfill by reindex', () => {
  it('puts every memory that existed before Qdrant was enabled into Qdrant', async () => {
    const app = await start();
    const apiKeyId = key();
    await importMemories(
      app,
      Array.from({ length: 12 }, (_, i) => ({ apiKeyId, key: `m${i}`, content: `I eat banana on day ${i}` })),
    );
    // On PostgreSQL there is no vector store before Qdrant: the memories wait, flagged, and a reindex is refused.
    if (!onPostgres) expect((await reindex(app)).status).toBe('COMPLETED');
    const ids = (await app.database.db.selectFrom('memories').select('id').execute()).map((r) => r.id).sort();
    await connect(app);
    const job = await reindex(app);
    expect(job).toMatchObject({ status: 'COMPLETED', processed: 12, total: 12, failed: 0 });
    expect([...points(app).keys()].sort()).toEqual(ids);
    expect((await status(app)).pendingSync).toBe(0);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('counts the Qdrant phase in the same job and progress stream', async () => {
    const app = await startWithQdrant({}, { batchSize: 5 });
    await importMemories(
      app,
      Array.from({ length: 12 }, (_, i) => ({ apiKeyId: 'acme', key: `m${i}`, content: `I eat banana on day ${i}` })),
    );
    // Hold the job before its first batch until the stream is open, so no progress is missed. The first load is
    // the test call that reindex makes before it starts a job; the second is the job's own.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const load = app.services.vectors.loadForJob.bind(app.services.vectors);
    vi.spyOn(app.services.vectors, 'loadForJob')
      .mockImplementationOnce(load)
      .mockImplementationOnce(async () => {
        await held;
        return load();
      });
    const { id } = (await app.ok(START_REINDEX)).reindex;
    const stream = subscribe(app.url, REINDEX_PROGRESS, { jobId: id });
    cleanups.push(async () => stream.close());
    const first = (await stream.next())?.data?.reindexProgress;
    expect(first).toMatchObject({ status: 'RUNNING', processed: 0, total: 12 });
    release();
    const frames = [first!, ...(await stream.rest()).map((r) => r.data!.reindexProgress)];
    // 12 embedded in batches of 5, then the same 12 carried to Qdrant in batches of 5.
    expect(frames.map((f) => `${f.processed}/${f.total}`)).toEqual([
      '0/12',
      '5/12',
      '10/12',
      '12/12',
      '12/24',
      '17/24',
      '22/24',
      '24/24',
      '24/24',
    ]);
    expect(frames.at(-1)).toMatchObject({ status: 'COMPLETED', failed: 0 });
    expect(points(app).size).toBe(12);
  });
});

describe.runIf(onPostgres)('Qdrant as the only vector store (PostgreSQL)', () => {
  it('without Qdrant, SEMANTIC answers from keyword search and says vectors need Qdrant', async () => {
    const app = await start();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat mango' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/vector search unavailable \(PostgreSQL store: vectors need Qdrant \(none is configured/);
  });

  it('says Qdrant must be enabled when it is configured but not selected', async () => {
    const app = await start();
    await app.ok(UPDATE_QDRANT, { input: { url: app.qdrant.url } });
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat mango' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution.fallbackReason).toMatch(/PostgreSQL store: vectors need Qdrant \(it is configured but not enabled/);
    expect(app.qdrant.requests).toEqual([]);
  });

  it('refuses a reindex without Qdrant, saying why, and starts no job', async () => {
    const app = await start();
    const error = onlyError(await app.gql(START_REINDEX, { force: false }));
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toMatch(/^reindex not started: PostgreSQL store: vectors need Qdrant/);
    expect((await app.ok(REINDEX_JOB, {})).reindexJob).toBeNull();
  });

  it('writes a memory embedded by a retrieval straight to Qdrant, which answers', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution).toMatchObject({ vectorStore: 'qdrant', fallback: false, fallbackReason: null });
    expect(points(app).get(m.id)).toMatchObject({ api_key_id: apiKeyId, archived: false });
    expect(await outbox(app)).toEqual([]);
  });

  it('queues the removal of a changed memory’s point in the transaction of the change, and never finds it by the old text', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    expect(await outbox(app)).toEqual([{ id: m.id, op: 'delete' }]);
    // The old point is still in Qdrant until the outbox is carried: the search leaves it out all the same.
    expect(points(app).has(m.id)).toBe(true);
    const preview = (await app.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: 'mango', strategy: 'SEMANTIC' } })).retrievePreview;
    expect(preview.items).toEqual([]);
  });

  it('falls back to keyword search while Qdrant answers 503, naming Qdrant in the reason', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/vector search unavailable \(.*Service Unavailable.*\)/);
  });
});

describe('outage and recovery', () => {
  /** An app whose memories are all in Qdrant, which then starts answering 503 to everything. */
  async function synced() {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await create(app, { apiKeyId, content: 'I write rust' });
    await tick(app);
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).resolution.vectorStore).toBe('qdrant');
    return { app, apiKeyId };
  }

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('answers from sqlite-vec while Qdrant answers 503, naming Qdrant in the reason', async () => {
    const { app, apiKeyId } = await synced();
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution).toMatchObject({ vectorStore: 'sqlite-vec', tiers: ['VECTOR'] });
    expect(r.resolution.fallbackReason).toMatch(/^Qdrant unavailable \(.*Service Unavailable.*\); sqlite-vec answered$/);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)(`opens the breaker after ${BREAKER_THRESHOLD} failures; retrieval then stops calling Qdrant`, async () => {
    const { app, apiKeyId } = await synced();
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD; i++) await retrieve(app, { apiKeyId, query: 'mango' });
    expect((await status(app)).breaker).toBe('open');
    const seen = app.qdrant.requests.length;
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(app.qdrant.requests.length).toBe(seen);
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution.fallbackReason).toMatch(/Qdrant unavailable \(circuit open after 3 failures/);
  });

  it('counts the failed calls in the status with the last error, and not the calls the open breaker refused', async () => {
    const { app, apiKeyId } = await synced();
    const calls = async () => (await app.ok(CALLS)).engineStatus.qdrant.calls!;
    const before = await calls();
    expect(before.failures).toBe(0);
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD + 2; i++) await retrieve(app, { apiKeyId, query: 'mango' });
    const after = await calls();
    expect(after.failures).toBe(BREAKER_THRESHOLD);
    expect(after.calls).toBe(before.calls + BREAKER_THRESHOLD);
    expect(after.lastError).toMatch(/Service Unavailable/);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('closes the breaker after the cooldown on a successful call, and SEMANTIC answers from Qdrant again', async () => {
    const { app, apiKeyId } = await synced();
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD; i++) await retrieve(app, { apiKeyId, query: 'mango' });
    app.qdrant.clearFaults();
    // Still open before the cooldown has passed, though Qdrant is back.
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).resolution.vectorStore).toBe('sqlite-vec');
    app.clock.skip(BREAKER_COOLDOWN_MS);
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution).toMatchObject({ vectorStore: 'qdrant', fallbackReason: null });
    expect(contents(r)).toEqual(['I eat banana']);
    expect((await status(app)).breaker).toBe('closed');
  });

  it('loses no write made during the outage: it reaches Qdrant once Qdrant is back', async () => {
    const { app, apiKeyId } = await synced();
    const gone = [...points(app).keys()][1]!;
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    const added = await create(app, { apiKeyId, content: 'I eat cherry' });
    await app.ok(DELETE_MEMORY, { id: gone });
    for (let i = 0; i < BREAKER_THRESHOLD + 1; i++) expect((await tick(app)).processed).toBe(0);
    // Both writes wait. The delete is queued in the outbox. The new memory's vector: on SQLite sqlite-vec holds it and
    // the outbox queues it for Qdrant; on PostgreSQL, where Qdrant is the only vector store, the memory waits to be embedded.
    const { engineStatus } = await app.ok(WAITING);
    expect([engineStatus.vectorStore.pendingReindex, engineStatus.qdrant.pendingSync]).toEqual(onPostgres ? [1, 1] : [0, 2]);
    app.qdrant.clearFaults();
    app.clock.skip(BREAKER_COOLDOWN_MS);
    await tick(app);
    expect(points(app).has(added.id)).toBe(true);
    expect(points(app).has(gone)).toBe(false);
    const after = (await app.ok(WAITING)).engineStatus;
    expect([after.vectorStore.pendingReindex, after.qdrant.pendingSync]).toEqual([0, 0]);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('falls back when Qdrant hangs beyond the timeout', async () => {
    const { app, apiKeyId } = await synced();
    await app.ok(UPDATE_QDRANT, { input: { timeoutMs: 300 } });
    app.qdrant.fault({ type: 'hang', path: /\/points\/query$/ });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution.vectorStore).toBe('sqlite-vec');
    expect(r.resolution.fallbackReason).toMatch(/^Qdrant unavailable/);
  });
});

describe('a collection that does not fit the model', () => {
  it('is reported in the engine status with the fix', async () => {
    const app = await start();
    await createCollectionInDouble(app, 3);
    await connect(app);
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await retrieve(app, { apiKeyId, query: 'mango' });
    const s = await status(app);
    expect(s).toMatchObject({ configured: true, enabled: true, compatible: false, ready: true });
    expect(s.incompatibleReason).toMatch(/holds 3-dimensional Cosine vectors/);
    expect(s.incompatibleReason).toMatch(/static:test\/topics:8:none/);
    expect(s.incompatibleReason).toMatch(/Fix: run reindex\(force: true\)/);
  });

  it('is never written to, neither by the worker nor by a reindex', async () => {
    const app = await start();
    await createCollectionInDouble(app, 3);
    await connect(app);
    await create(app, { apiKeyId: key(), content: 'I eat banana' });
    await tick(app);
    const job = await reindex(app);
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatch(/3-dimensional/);
    expect(pointWrites(app)).toEqual([]);
    expect(requestsTo(app, 'PUT', /\/index$/)).toEqual([]);
    expect(app.qdrant.collections.get(COLLECTION)!.points.size).toBe(0);
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('leaves retrieval to sqlite-vec, which says why', async () => {
    const app = await start();
    await createCollectionInDouble(app, 3);
    await connect(app);
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.resolution.vectorStore).toBe('sqlite-vec');
    expect(r.resolution.fallbackReason).toMatch(/Qdrant collection does not fit the model.*3-dimensional/);
  });

  it('is recreated for the model by reindex(force: true), which then fills it', async () => {
    const app = await start();
    await createCollectionInDouble(app, 3);
    await connect(app);
    const apiKeyId = key();
    const m = await create(app, { apiKeyId, content: 'I eat banana' });
    const job = await reindex(app, true);
    expect(job).toMatchObject({ status: 'COMPLETED', error: null });
    expect([...app.qdrant.collections.get(COLLECTION)!.vectors.values()]).toEqual([{ size: 8, distance: 'Cosine' }]);
    expect(points(app).has(m.id)).toBe(true);
    expect(await status(app)).toMatchObject({ compatible: true, incompatibleReason: null, points: 1 });
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).resolution.vectorStore).toBe('qdrant');
  });
});

describe('settings', () => {
  it('enabling selects QDRANT as the vector store; disabling returns it to AUTO', async () => {
    const app = await start();
    expect((await connect(app)).enabled).toBe(true);
    expect((await app.ok(GET_SETTINGS)).memorySettings.vectorStore).toBe('QDRANT');
    expect((await app.ok(UPDATE_QDRANT, { input: { enabled: false } })).updateQdrantSettings.enabled).toBe(false);
    expect((await app.ok(GET_SETTINGS)).memorySettings.vectorStore).toBe('AUTO');
  });

  it('cannot enable Qdrant without a URL', async () => {
    const app = await start();
    const res = await app.gql(UPDATE_QDRANT, { input: { enabled: true } });
    expect(onlyError(res).extensions?.code).toBe('BAD_USER_INPUT');
    expect(onlyError(res).message).toMatch(/set a Qdrant url/);
  });

  it('saves nothing of a patch it refuses for want of a URL', async () => {
    const app = await start();
    const before = (await app.ok(QDRANT_SETTINGS)).qdrantSettings;
    const res = await app.gql(UPDATE_QDRANT, { input: { enabled: true, collection: 'elsewhere', timeoutMs: 900 } });
    expect(onlyError(res).extensions?.code).toBe('BAD_USER_INPUT');
    expect((await app.ok(QDRANT_SETTINGS)).qdrantSettings).toEqual(before);
  });

  it('sends the API key set through updateQdrantSettings in the api-key header', async () => {
    const app = await start({ apiKey: 'qd-key-4f1e2b' });
    await connect(app, { apiKey: 'qd-key-4f1e2b' });
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    await tick(app);
    // The double refuses any request without the right key (401).
    expect(app.qdrant.requests.every((r) => r.status === undefined || r.status < 400)).toBe(true);
    expect(points(app).size).toBe(1);
    expect((await retrieve(app, { apiKeyId, query: 'mango' })).resolution.vectorStore).toBe('qdrant');
  });

  it('never returns the API key: only hasApiKey', async () => {
    const secret = 'qd-key-SECRET-77aa';
    const app = await start({ apiKey: secret });
    const saved = await connect(app, { apiKey: secret });
    expect(saved.hasApiKey).toBe(true);
    await tick(app);
    const everything = JSON.stringify([saved, await app.ok(QDRANT_SETTINGS), await app.ok(STATUS), await app.ok(HEALTH)]);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain('SECRET');
  });

  // SQLite only: sqlite-vec's copy answers while Qdrant lags or fails; on PostgreSQL Qdrant is the only vector store (see 'Qdrant as the only vector store').
  it.skipIf(onPostgres)('removes the API key on an empty string', async () => {
    const app = await start({ apiKey: 'qd-key-4f1e2b' });
    await connect(app, { apiKey: 'qd-key-4f1e2b' });
    const cleared = (await app.ok(UPDATE_QDRANT, { input: { apiKey: '' } })).updateQdrantSettings;
    expect(cleared.hasApiKey).toBe(false);
    // Without the key the double answers 401, so retrieval falls back.
    const apiKeyId = key();
    await create(app, { apiKeyId, content: 'I eat banana' });
    const r = await retrieve(app, { apiKeyId, query: 'mango' });
    expect(r.resolution.vectorStore).toBe('sqlite-vec');
    expect(r.resolution.fallbackReason).toMatch(/Qdrant unavailable/);
  });

  it('keeps the API key when a later update omits it', async () => {
    const app = await start({ apiKey: 'qd-key-4f1e2b' });
    await connect(app, { apiKey: 'qd-key-4f1e2b' });
    expect((await app.ok(UPDATE_QDRANT, { input: { timeoutMs: 2000 } })).updateQdrantSettings.hasApiKey).toBe(true);
  });

  it('shows the MNEMO_QDRANT_* overrides as fromEnvironment, and they win over stored values', async () => {
    const app = await start({
      env: {
        MNEMO_QDRANT_URL: 'http://qdrant.internal:6333',
        MNEMO_QDRANT_COLLECTION: 'from_env',
        MNEMO_QDRANT_API_KEY: 'env-key-9',
        MNEMO_QDRANT_TIMEOUT_MS: '1500',
      },
    });
    await app.ok(UPDATE_QDRANT, { input: { url: 'http://elsewhere:6333', collection: 'stored' } });
    const view = (await app.ok(QDRANT_SETTINGS)).qdrantSettings;
    expect(view).toEqual({
      enabled: false,
      url: 'http://qdrant.internal:6333',
      collection: 'from_env',
      hasApiKey: true,
      quantization: 'NONE',
      timeoutMs: 1500,
      fromEnvironment: ['url', 'collection', 'apiKey', 'timeoutMs'],
    });
    expect(JSON.stringify(view)).not.toContain('env-key-9');
  });

  it('takes host and port instead of a URL', async () => {
    const app = await start();
    const view = (await app.ok(UPDATE_QDRANT, { input: { host: 'qdrant.local', port: 6334, https: true } })).updateQdrantSettings;
    expect(view.url).toBe('https://qdrant.local:6334');
  });
});

describe('qdrantHealth', () => {
  it('reports a ready Qdrant with the latency', async () => {
    const app = await startWithQdrant();
    const health = (await app.ok(HEALTH)).qdrantHealth;
    expect(health).toMatchObject({ ready: true, error: null });
    expect(health.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a Qdrant that is not ready, with its answer', async () => {
    const app = await startWithQdrant();
    app.qdrant.fault({ type: 'not_ready' });
    expect((await app.ok(HEALTH)).qdrantHealth).toMatchObject({ ready: false, error: 'HTTP 503: some shards are not ready' });
    expect(await status(app)).toMatchObject({ ready: false, error: 'HTTP 503: some shards are not ready' });
  });

  it('never shows the API key, even when a proxy in front of Qdrant echoes the request headers in its error page', async () => {
    const proxy = createServer((req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(
        `<html>\n<h1>502 Bad Gateway</h1>\n<pre>${JSON.stringify(req.headers, null, 2)}</pre>\n${'<p>upstream down</p>'.repeat(200)}</html>`,
      );
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(() => resolve())));
    const app = await start();
    const apiKey = 'qdrant-proxy-key-7';
    await connect(app, { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, apiKey });
    const search = onlyError(await app.gql(SEARCH_TEST, { apiKeyId: key(), query: 'mango' }));
    const health = (await app.ok(HEALTH)).qdrantHealth;
    const qdrant = await status(app);
    expect(search.message).toBe('Qdrant search failed: Bad Gateway');
    expect(qdrant.error).toBe(health.error);
    expect(health.error).toMatch(/^HTTP 502: <html> <h1>502 Bad Gateway<\/h1> <pre>\{ .*"api-key": "\[redacted\]"/);
    expect(health.error).not.toContain(apiKey);
    expect(health.error).toMatch(/… \(\d+ more characters\)$/);
  });

  it('says when Qdrant is not configured', async () => {
    const app = await start();
    expect((await app.ok(HEALTH)).qdrantHealth).toEqual({ ready: false, latencyMs: 0, error: 'Qdrant is not configured' });
    expect(await status(app)).toMatchObject({ configured: false, url: null, points: null });
  });
});

describe('qdrantSearchTest', () => {
  it("searches Qdrant alone within the API key given, with scores and the memories' content", async () => {
    const app = await startWithQdrant();
    const [mine, theirs] = [key(), key()];
    const banana = await create(app, { apiKeyId: mine, content: 'I eat banana' });
    await create(app, { apiKeyId: mine, content: 'I write rust' });
    await create(app, { apiKeyId: theirs, content: 'mango' });
    await tick(app);
    const { hits, latencyMs } = (await app.ok(SEARCH_TEST, { apiKeyId: mine, query: 'mango' })).qdrantSearchTest;
    expect(hits[0]).toMatchObject({ memory: { id: banana.id, apiKeyId: mine, content: 'I eat banana' } });
    expect(hits[0]!.score).toBeGreaterThan(0.5);
    expect(hits.every((h) => h.memory.apiKeyId === mine)).toBe(true);
    expect(latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('requires apiKeyId', async () => {
    const app = await startWithQdrant();
    const res = await app.gqlRaw(`mutation { qdrantSearchTest(query: "mango") { latencyMs } }`);
    expect(onlyError(res).message).toMatch(/argument "apiKeyId" of type "String!" is required/);
  });

  it('honours topK, above 20 too: 50 of 60 matches', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await importMemories(
      app,
      Array.from({ length: 60 }, (_, i) => ({ apiKeyId, key: `f${i}`, content: `banana ${i}` })),
    );
    await tick(app);
    const search = async (topK: number) => (await app.ok(SEARCH_TEST, { apiKeyId, query: 'mango', topK })).qdrantSearchTest.hits;
    expect(await search(50)).toHaveLength(50);
    expect(await search(3)).toHaveLength(3);
  });

  it('is admin-only: a gateway token bound to the key is FORBIDDEN', async () => {
    const app = await startWithQdrant();
    const token = await app.mintToken({ apiKeyId: 'acme' });
    const res = await app.gql(SEARCH_TEST, { apiKeyId: 'acme', query: 'mango' }, token);
    expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
  });

  it('says UNAVAILABLE, not BAD_USER_INPUT, while Qdrant cannot be reached', async () => {
    const app = await startWithQdrant();
    app.qdrant.fault({ type: 'unavailable', times: Infinity });
    const error = onlyError(await app.gql(SEARCH_TEST, { apiKeyId: key(), query: 'mango' }));
    expect(error.extensions?.code).toBe('UNAVAILABLE');
    expect(error.message).toMatch(/^Qdrant search failed: .*Service Unavailable/);
  });

  it('says BAD_USER_INPUT while Qdrant is not configured', async () => {
    const app = await start();
    const error = onlyError(await app.gql(SEARCH_TEST, { apiKeyId: key(), query: 'mango' }));
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe('Qdrant search failed: Qdrant is not configured');
  });
});

describe('qdrantCleanup', () => {
  it('deletes the points of expired and out-of-retention memories and orphans, and returns the count', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    const live = await create(app, { apiKeyId, content: 'I eat banana' });
    const expired = await create(app, { apiKeyId, content: 'I eat apple' });
    await importMemories(app, [{ apiKeyId, key: 'old', content: 'I eat cherry', createdAt: daysAgo(120) }]);
    await tick(app);
    await app.ok(UPDATE_MEMORY, { id: expired.id, input: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
    await tick(app);
    // A point whose memory is gone: written straight into Qdrant, as a crash between the two stores could leave.
    const vector = Array.from({ length: 8 }, (_, i) => (i === 0 ? 1 : 0));
    await new QdrantClient({ url: app.qdrant.url, checkCompatibility: false }).upsert(COLLECTION, {
      wait: true,
      points: [
        {
          id: 999_999,
          vector,
          payload: { memory_id: 'gone', api_key_id: apiKeyId, expires_at: Number.MAX_SAFE_INTEGER, updated_at: Date.now() },
        },
      ],
    });
    expect(points(app).size).toBe(4);
    expect((await app.ok(CLEANUP)).qdrantCleanup).toBe(3);
    expect([...points(app).keys()]).toEqual([live.id]);
    expect((await app.ok(CLEANUP)).qdrantCleanup).toBe(0);
  });

  it('says UNAVAILABLE while Qdrant cannot be reached, and deletes nothing', async () => {
    const app = await startWithQdrant();
    await create(app, { apiKeyId: key(), content: 'I eat banana' });
    await tick(app);
    app.qdrant.fault({ type: 'reset', times: Infinity });
    const error = onlyError(await app.gql(CLEANUP));
    expect(error.extensions?.code).toBe('UNAVAILABLE');
    expect(error.message).toMatch(/^Qdrant cleanup failed: /);
    app.qdrant.clearFaults();
    expect(points(app).size).toBe(1);
  });

  it('keeps points whose memory still exists', async () => {
    const app = await startWithQdrant();
    const apiKeyId = key();
    await importMemories(
      app,
      Array.from({ length: 5 }, (_, i) => ({ apiKeyId, key: `m${i}`, content: `I eat banana ${i}` })),
    );
    await tick(app);
    expect((await app.ok(CLEANUP)).qdrantCleanup).toBe(0);
    expect(points(app).size).toBe(5);
  });
});

describe('bad input', () => {
  const cases: [string, Operation, Record<string, unknown>, RegExp][] = [
    ['topK 0', SEARCH_TEST, { apiKeyId: 'a', query: 'mango', topK: 0 }, /topK must be 1 to 100/],
    ['topK 101', SEARCH_TEST, { apiKeyId: 'a', query: 'mango', topK: 101 }, /topK must be 1 to 100/],
    ['an empty query', SEARCH_TEST, { apiKeyId: 'a', query: '   ' }, /query must not be empty/],
    ['a URL that is not http(s)', UPDATE_QDRANT, { input: { url: 'ftp://qdrant:6333' } }, /url must be an http\(s\) URL/],
    ['a URL that is no URL', UPDATE_QDRANT, { input: { url: 'qdrant' } }, /url must be an http\(s\) URL/],
    ['port 0', UPDATE_QDRANT, { input: { host: 'qdrant', port: 0 } }, /port must be 1 to 65535/],
    ['a timeout below 100 ms', UPDATE_QDRANT, { input: { timeoutMs: 50 } }, /timeoutMs must be at least 100/],
    ['a collection name with a slash', UPDATE_QDRANT, { input: { collection: 'a/b' } }, /collection must be letters/],
  ];

  it.each(cases)('rejects %s with BAD_USER_INPUT', async (_name, query, variables, message) => {
    const app = await startWithQdrant();
    const before = (await app.ok(QDRANT_SETTINGS)).qdrantSettings;
    const res = await app.gql(query, variables);
    const error = onlyError(res);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toMatch(message);
    expect((await app.ok(QDRANT_SETTINGS)).qdrantSettings).toEqual(before);
  });
});
