import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l2normalize } from '../../server/embedding/embedder.ts';
import { BREAKER_COOLDOWN_MS, BREAKER_THRESHOLD, QdrantIncompatibleError, QdrantIndex } from '../../server/vector/qdrantIndex.ts';
import type { QdrantConnection } from '../../server/vector/qdrantSettings.ts';
import type { VectorFilter, VectorItem, VectorSignature } from '../../server/vector/vectorIndex.ts';
import { type QdrantDouble, type RecordedRequest, startQdrantDouble } from '../doubles/qdrant.ts';

// QdrantIndex against the Qdrant double with the real @qdrant/js-client-rest client: what it asks Qdrant
// to create and search, read back from the requests the double received (each validated against Qdrant's
// OpenAPI document) and from what the double stores.

const COLLECTION = 'mnemo_test';
const SIG: VectorSignature = { source: 'static', model: 'test/topics', dimension: 4, quantization: 'none' };
const NOW = Date.now();
const DAY = 86_400_000;
const vec = (...xs: number[]) => l2normalize(new Float32Array(xs));

let qdrant: QdrantDouble;
beforeEach(async () => {
  qdrant = await startQdrantDouble();
});
afterEach(async () => {
  // Every answer the double gave conformed to the document.
  expect(qdrant.responseProblems).toEqual([]);
  await qdrant.close();
});

function open(over: Partial<QdrantConnection> = {}, clock?: () => number): QdrantIndex {
  return new QdrantIndex({ url: qdrant.url, collection: COLLECTION, apiKey: null, quantization: 'none', timeoutMs: 2000, ...over }, clock);
}

let nextPk = 1;
const item = (over: Partial<VectorItem> = {}): VectorItem => {
  const pk = nextPk++;
  return {
    pk,
    memoryId: `m-${pk}`,
    key: `key-${pk}`,
    apiKeyId: 'a',
    sessionId: null,
    type: 'factual',
    createdAt: NOW - DAY,
    updatedAt: NOW - DAY,
    expiresAt: null,
    archived: false,
    superseded: false,
    vector: vec(1, 0, 0, 0),
    ...over,
  };
};

const filter = (over: Partial<VectorFilter> = {}): VectorFilter => ({
  apiKeyId: 'a',
  sessionId: null,
  types: null,
  now: NOW,
  retentionCutoff: NOW - 30 * DAY,
  ...over,
});

const requestsTo = (method: string, path: RegExp): RecordedRequest[] =>
  qdrant.requests.filter((r) => r.method === method && path.test(r.path));
const lastQuery = () => requestsTo('POST', /\/points\/query$/).at(-1)!.body as Schemas['QueryRequest'];
const stored = () => qdrant.collections.get(COLLECTION);

describe('the collection', () => {
  it("is created on first use with the embedding's dimension, Cosine distance and the model's signature", async () => {
    // A new collection holds no vector yet: reset tells the caller to fill it.
    await expect(open().prepare(SIG)).resolves.toEqual({ reset: true });
    const created = stored()!;
    expect([...created.vectors]).toEqual([['', { size: 4, distance: 'Cosine' }]]);
    expect(created.createRequest.metadata).toEqual({ mnemo_signature: 'static:test/topics:4:none' });
    expect(created.createRequest.quantization_config).toBeUndefined();
  });

  it('gets a payload index on every field searches filter on, the tenant field marked is_tenant', async () => {
    await open().prepare(SIG);
    expect(Object.fromEntries(stored()!.payloadIndexes)).toEqual({
      api_key_id: { data_type: 'keyword', params: { type: 'keyword', is_tenant: true } },
      session_id: { data_type: 'keyword' },
      type: { data_type: 'keyword' },
      expires_at: { data_type: 'integer' },
      updated_at: { data_type: 'integer' },
      archived: { data_type: 'bool' },
      superseded: { data_type: 'bool' },
    });
  });

  it('is not created again when it exists and fits', async () => {
    await open().prepare(SIG);
    await expect(open().prepare(SIG)).resolves.toEqual({ reset: false });
    expect(requestsTo('PUT', new RegExp(`^/collections/${COLLECTION}$`))).toHaveLength(1);
  });

  it('with INT8 quantization asks for scalar int8 quantization', async () => {
    await open({ quantization: 'int8' }).prepare(SIG);
    expect(stored()!.createRequest.quantization_config).toEqual({ scalar: { type: 'int8', quantile: 0.99, always_ram: true } });
  });

  it('with BINARY quantization asks for binary quantization', async () => {
    await open({ quantization: 'binary' }).prepare(SIG);
    expect(stored()!.createRequest.quantization_config).toEqual({ binary: { always_ram: true } });
  });

  it('of another dimension is reported with the fix, and nothing is written to it', async () => {
    const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
    await client.createCollection(COLLECTION, { vectors: { size: 3, distance: 'Cosine' } });
    const before = qdrant.requests.length;
    const error = await open()
      .prepare(SIG)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(QdrantIncompatibleError);
    expect((error as Error).message).toMatch(/holds 3-dimensional Cosine vectors, but the embedder makes static:test\/topics:4:none/);
    expect((error as Error).message).toMatch(/reindex\(force: true\)/);
    // Only reads: no point, index or collection was written.
    expect(qdrant.requests.slice(before).map((r) => r.method)).toEqual(['GET', 'GET']);
    expect([...stored()!.vectors.values()]).toEqual([{ size: 3, distance: 'Cosine' }]);
  });

  it('of another distance is reported too', async () => {
    const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
    await client.createCollection(COLLECTION, { vectors: { size: 4, distance: 'Dot' } });
    await expect(open().prepare(SIG)).rejects.toThrow(/4-dimensional Dot vectors/);
  });

  it('made by another model of the same dimension is reported, never mixed', async () => {
    await open().prepare({ ...SIG, model: 'another/model' });
    const error = await open()
      .prepare(SIG)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(QdrantIncompatibleError);
    expect((error as Error).message).toMatch(/of static:another\/model:4:none, but the embedder makes static:test\/topics:4:none/);
  });

  it('is recreated for the signature on request', async () => {
    const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
    await client.createCollection(COLLECTION, { vectors: { size: 3, distance: 'Cosine' } });
    const index = open();
    await index.recreate(SIG);
    expect([...stored()!.vectors.values()]).toEqual([{ size: 4, distance: 'Cosine' }]);
    expect(stored()!.payloadIndexes.size).toBe(7);
    await expect(index.signature()).resolves.toEqual(SIG);
  });
});

describe('points', () => {
  it('carry the memory id as point id and every filter field in the payload', async () => {
    const index = open();
    await index.prepare(SIG);
    const m = item({ sessionId: 's1', type: 'procedural', expiresAt: NOW + DAY, archived: true });
    await index.upsert([m]);
    const point = stored()!.points.get(String(m.pk))!;
    expect(point.payload).toEqual({
      memory_id: m.memoryId,
      api_key_id: 'a',
      session_id: 's1',
      type: 'procedural',
      key: m.key,
      created_at: m.createdAt,
      expires_at: NOW + DAY,
      updated_at: m.updatedAt,
      archived: true,
      superseded: false,
    });
  });

  it('of memories without session or expiry get the comparable stand-ins "" and MAX_SAFE_INTEGER', async () => {
    const index = open();
    await index.prepare(SIG);
    const m = item();
    await index.upsert([m]);
    expect(stored()!.points.get(String(m.pk))!.payload).toMatchObject({ session_id: '', expires_at: Number.MAX_SAFE_INTEGER });
  });

  it('are deleted by id', async () => {
    const index = open();
    await index.prepare(SIG);
    const [a, b] = [item(), item()];
    await index.upsert([a!, b!]);
    await index.delete([a!.pk]);
    expect([...stored()!.points.keys()]).toEqual([String(b!.pk)]);
    await expect(index.count()).resolves.toBe(1);
  });

  it('are listed page by page', async () => {
    const index = open();
    await index.prepare(SIG);
    const items = Array.from({ length: 7 }, () => item());
    await index.upsert(items);
    const pages: number[][] = [];
    for await (const ids of index.pointIds(3)) pages.push(ids);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(items.map((i) => i.pk));
  });

  it('of expired and out-of-retention memories are deleted and counted; the others stay', async () => {
    const index = open();
    await index.prepare(SIG);
    const live = item({ expiresAt: NOW + DAY });
    const expired = item({ expiresAt: NOW - 1000 });
    const old = item({ updatedAt: NOW - 100 * DAY });
    await index.upsert([live, expired, old, item()]);
    await expect(index.deleteStale(NOW, NOW - 90 * DAY)).resolves.toBe(2);
    expect(stored()!.points.has(String(expired.pk))).toBe(false);
    expect(stored()!.points.has(String(old.pk))).toBe(false);
    expect(stored()!.points.size).toBe(2);
  });
});

describe('search', () => {
  /** Points of several kinds, all pointing the same way as the query, so only the filter tells them apart. */
  async function seeded(over: Partial<QdrantConnection> = {}) {
    const index = open(over);
    await index.prepare(SIG);
    const points = {
      plain: item(),
      otherKey: item({ apiKeyId: 'b' }),
      session1: item({ sessionId: 's1' }),
      session2: item({ sessionId: 's2' }),
      procedural: item({ type: 'procedural' }),
      expired: item({ expiresAt: NOW - 1000 }),
      expiresLater: item({ expiresAt: NOW + DAY }),
      outOfRetention: item({ updatedAt: NOW - 60 * DAY }),
      archived: item({ archived: true }),
      superseded: item({ superseded: true }),
    };
    await index.upsert(Object.values(points));
    const pkNames = new Map(Object.entries(points).map(([name, p]) => [p.pk, name]));
    const names = async (f: Partial<VectorFilter>, k = 100) =>
      (await index.search(vec(1, 0, 0, 0), filter(f), k)).map((h) => pkNames.get(h.pk)).sort();
    return { index, points, names };
  }

  it('filters inside Qdrant by tenant, archiving, validity, expiry and retention', async () => {
    const { names } = await seeded();
    expect(await names({})).toEqual(['expiresLater', 'plain', 'procedural', 'session1', 'session2']);
    expect(lastQuery().filter).toEqual({
      must: [
        { key: 'api_key_id', match: { value: 'a' } },
        { key: 'archived', match: { value: false } },
        { key: 'expires_at', range: { gt: NOW } },
        { key: 'updated_at', range: { gte: NOW - 30 * DAY } },
      ],
      must_not: [{ key: 'superseded', match: { value: true } }],
    });
  });

  it('keeps superseded points when searching the past (asOf), for SQL to check their validity then', async () => {
    const { names } = await seeded();
    expect(await names({ asOf: NOW - DAY })).toEqual(['expiresLater', 'plain', 'procedural', 'session1', 'session2', 'superseded']);
  });

  it('counts a point stored before validity existed (no "superseded" in its payload) as current', async () => {
    const index = open();
    await index.prepare(SIG);
    const old = item({ superseded: undefined });
    await index.upsert([old]);
    expect(stored()!.points.get(String(old.pk))!.payload).not.toHaveProperty('superseded');
    expect((await index.search(vec(1, 0, 0, 0), filter({}), 10)).map((h) => h.pk)).toEqual([old.pk]);
  });

  it("never returns another key's points, however close", async () => {
    const { names, points } = await seeded();
    expect(await names({ apiKeyId: 'b' })).toEqual(['otherKey']);
    expect(await names({ apiKeyId: 'c' })).toEqual([]);
    expect(lastQuery().filter?.must).toContainEqual({ key: 'api_key_id', match: { value: 'c' } });
    expect(points.otherKey.vector).toEqual(points.plain.vector);
  });

  it('filters a session to its own and the key-wide points', async () => {
    const { names } = await seeded();
    expect(await names({ sessionId: 's1' })).toEqual(['expiresLater', 'plain', 'procedural', 'session1']);
    expect(lastQuery().filter?.must).toContainEqual({ key: 'session_id', match: { any: ['', 's1'] } });
  });

  it('filters by type', async () => {
    const { names } = await seeded();
    expect(await names({ types: ['procedural'] })).toEqual(['procedural']);
    expect(lastQuery().filter?.must).toContainEqual({ key: 'type', match: { any: ['procedural'] } });
  });

  it('leaves out points expired by the time of the query', async () => {
    const { names } = await seeded();
    expect(await names({ now: NOW + 2 * DAY })).not.toContain('expiresLater');
  });

  it('honours the retention cutoff it is given', async () => {
    const { names } = await seeded();
    expect(await names({ retentionCutoff: NOW - 90 * DAY })).toContain('outOfRetention');
  });

  it('asks for the limit it is given, and gets it', async () => {
    const index = open();
    await index.prepare(SIG);
    await index.upsert(Array.from({ length: 60 }, (_, i) => item({ vector: vec(1, i / 100, 0, 0) })));
    const hits = await index.search(vec(1, 0, 0, 0), filter(), 50);
    expect(hits).toHaveLength(50);
    expect(lastQuery().limit).toBe(50);
    // Nearest first, with the cosine similarity as the score.
    expect(hits[0]!.similarity).toBeCloseTo(1, 5);
    expect(hits.map((h) => h.similarity)).toEqual([...hits.map((h) => h.similarity)].sort((x, y) => y - x));
  });

  it('without quantization sends no search params', async () => {
    const { names } = await seeded();
    await names({});
    expect(lastQuery().params).toBeUndefined();
  });

  it('with INT8 quantization asks Qdrant to rescore with the original vectors', async () => {
    const { names } = await seeded({ quantization: 'int8' });
    expect(await names({})).toHaveLength(5);
    expect(lastQuery().params).toEqual({ quantization: { rescore: true, oversampling: 2 } });
  });

  it('with BINARY quantization asks Qdrant to rescore with the original vectors', async () => {
    const { names } = await seeded({ quantization: 'binary' });
    expect(await names({})).toHaveLength(5);
    expect(lastQuery().params).toEqual({ quantization: { rescore: true, oversampling: 2 } });
  });
});

describe('the API key', () => {
  it('is sent in the api-key header', async () => {
    await qdrant.close();
    qdrant = await startQdrantDouble({ apiKey: 'qd-secret-1' });
    await open({ apiKey: 'qd-secret-1' }).prepare(SIG);
    expect(stored()).toBeDefined();
  });

  it('missing, makes every call fail with 401', async () => {
    await qdrant.close();
    qdrant = await startQdrantDouble({ apiKey: 'qd-secret-1' });
    await expect(open().prepare(SIG)).rejects.toMatchObject({ status: 401 });
    expect(stored()).toBeUndefined();
  });
});

describe('health', () => {
  it("reports Qdrant's /readyz as ready", async () => {
    const health = await open().health();
    expect(health).toMatchObject({ ready: true, error: null });
    expect(health.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reports not ready with the reason', async () => {
    qdrant.fault({ type: 'not_ready' });
    await expect(open().health()).resolves.toMatchObject({ ready: false, error: 'HTTP 503: some shards are not ready' });
  });

  it('reports an unreachable Qdrant', async () => {
    const url = qdrant.url;
    await qdrant.close();
    const index = new QdrantIndex({ url, collection: COLLECTION, apiKey: null, quantization: 'none', timeoutMs: 2000 });
    const health = await index.health();
    expect(health.ready).toBe(false);
    expect(health.error).toBeTruthy();
    qdrant = await startQdrantDouble();
  });
});

describe('failures', () => {
  it('gives up on a call that hangs beyond the timeout', async () => {
    const index = open({ timeoutMs: 300 });
    await index.prepare(SIG);
    qdrant.fault({ type: 'hang', path: /\/points\/query$/ });
    await expect(index.search(vec(1, 0, 0, 0), filter(), 10)).rejects.toThrow();
    expect(index.breaker.lastError()).toBeTruthy();
  });

  it(`opens the breaker after ${BREAKER_THRESHOLD} failures: calls then stop reaching Qdrant`, async () => {
    const index = open();
    await index.prepare(SIG);
    qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD; i++)
      await expect(index.search(vec(1, 0, 0, 0), filter(), 10)).rejects.toThrow(/Service Unavailable/);
    expect(index.breaker.state()).toBe('open');
    const seen = qdrant.requests.length;
    await expect(index.search(vec(1, 0, 0, 0), filter(), 10)).rejects.toThrow(/circuit open after 3 failures/);
    expect(qdrant.requests.length).toBe(seen);
  });

  it('lets one trial call through after the cooldown; its success closes the breaker', async () => {
    let now = 1_000_000;
    const index = open({}, () => now);
    await index.prepare(SIG);
    await index.upsert([item()]);
    qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD; i++) await expect(index.count()).rejects.toThrow();
    qdrant.clearFaults();
    now += BREAKER_COOLDOWN_MS - 1;
    expect(index.breaker.state()).toBe('open');
    now += 1;
    expect(index.breaker.state()).toBe('half_open');
    await expect(index.count()).resolves.toBe(1);
    expect(index.breaker.state()).toBe('closed');
  });

  it('opens again at once when the trial call fails', async () => {
    let now = 1_000_000;
    const index = open({}, () => now);
    await index.prepare(SIG);
    qdrant.fault({ type: 'unavailable', times: Infinity });
    for (let i = 0; i < BREAKER_THRESHOLD; i++) await expect(index.count()).rejects.toThrow();
    now += BREAKER_COOLDOWN_MS;
    await expect(index.count()).rejects.toThrow(/Service Unavailable/);
    expect(index.breaker.state()).toBe('open');
  });
});
