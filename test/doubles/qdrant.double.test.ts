import { QdrantClient, QdrantClientTimeoutError, type Schemas } from '@qdrant/js-client-rest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type QdrantDouble, startQdrantDouble } from './qdrant.ts';

// The Qdrant double is driven here with the real client, so what the client sends must pass the double's
// validation against Qdrant's OpenAPI document, and what the double answers must satisfy the client.

const COLLECTION = 'memories';
const UUID = 'f5a1c0de-0000-4000-8000-00000000000a';

let qdrant: QdrantDouble;
let client: QdrantClient;

beforeEach(async () => {
  qdrant = await startQdrantDouble();
  client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
});

afterEach(async () => {
  // Every answer of every test was checked against the document on its way out.
  expect(qdrant.responseProblems).toEqual([]);
  await qdrant.close();
});

async function createCollection(distance: Schemas['Distance'] = 'Cosine', size = 4): Promise<void> {
  await client.createCollection(COLLECTION, { vectors: { size, distance } });
}

/** Four points in two tenants, with payloads shaped for the filter tests. */
async function seed(): Promise<void> {
  await createCollection();
  await client.upsert(COLLECTION, {
    points: [
      { id: 1, vector: [1, 0, 0, 0], payload: { tenant: 'a', kind: 'fact', tags: ['x', 'y'], score: 5, at: '2024-05-01T10:00:00Z' } },
      { id: 2, vector: [0.9, 0.1, 0, 0], payload: { tenant: 'a', kind: 'note', score: 2, note: null } },
      { id: 3, vector: [0, 1, 0, 0], payload: { tenant: 'b', kind: 'fact', tags: [], score: 9, at: '2024-06-01T00:00:00Z' } },
      {
        id: UUID.toUpperCase(), // stored and answered in lower case, as Qdrant does
        vector: [0, 0, 1, 0],
        payload: {
          tenant: 'a',
          kind: 'fact',
          meta: { lang: 'en' },
          items: [
            { name: 'p', n: 1 },
            { name: 'q', n: 2 },
          ],
        },
      },
    ],
  });
}

async function idsMatching(filter: Schemas['Filter']): Promise<Schemas['ExtendedPointId'][]> {
  const { points } = await client.scroll(COLLECTION, { filter, limit: 100 });
  return points.map((point) => point.id);
}

/** The error the client throws for a non-2xx answer (ApiError of openapi-typescript-fetch). */
async function failure(promise: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return error as { status: number; data: unknown };
}

/** What the client throws for one of Qdrant's ErrorResponses. */
function qdrantError(status: number, error: unknown): object {
  return { status, data: { status: { error }, result: null } };
}

const tenantIs = (tenant: string): Schemas['FieldCondition'] => ({ key: 'tenant', match: { value: tenant } });

function raw(path: string, init: { method: string; body?: unknown; headers?: Record<string, string> }): Promise<Response> {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return fetch(qdrant.url + path, { method: init.method, body, headers: { 'content-type': 'application/json', ...init.headers } });
}

describe('collections', () => {
  it('creates a collection with payload indexes and describes it in CollectionInfo', async () => {
    const created = await client.createCollection(COLLECTION, {
      vectors: { size: 384, distance: 'Cosine' },
      quantization_config: { scalar: { type: 'int8', quantile: 0.99, always_ram: true } },
      hnsw_config: { payload_m: 16, m: 0 },
    });
    expect(created).toBe(true);
    const index = await client.createPayloadIndex(COLLECTION, {
      field_name: 'api_key_hash',
      field_schema: { type: 'keyword', is_tenant: true },
      wait: true,
    });
    expect(index).toEqual({ operation_id: expect.any(Number), status: 'completed' });
    await client.createPayloadIndex(COLLECTION, { field_name: 'created_at', field_schema: 'integer', wait: true });
    await client.upsert(COLLECTION, {
      points: [
        { id: 1, vector: new Array(384).fill(0.1), payload: { api_key_hash: 'k1', created_at: 10 } },
        { id: 2, vector: new Array(384).fill(0.2), payload: { api_key_hash: 'k2' } },
      ],
    });

    const info = await client.getCollection(COLLECTION);
    expect(info).toMatchObject({
      status: 'green',
      optimizer_status: 'ok',
      points_count: 2,
      segments_count: expect.any(Number),
      config: {
        params: { vectors: { size: 384, distance: 'Cosine' } },
        hnsw_config: { m: 0, payload_m: 16, ef_construct: 100 },
        quantization_config: { scalar: { type: 'int8', quantile: 0.99, always_ram: true } },
      },
      payload_schema: {
        api_key_hash: { data_type: 'keyword', params: { type: 'keyword', is_tenant: true }, points: 2 },
        created_at: { data_type: 'integer', points: 1 },
      },
    });
    expect(await client.collectionExists(COLLECTION)).toEqual({ exists: true });
    expect(await client.getCollections()).toEqual({ collections: [{ name: COLLECTION }] });
  });

  it('refuses a second collection of the same name and drops collections', async () => {
    await createCollection();
    const again = await failure(createCollection());
    expect(again).toMatchObject(qdrantError(400, `Wrong input: Collection \`${COLLECTION}\` already exists!`));
    expect(await client.deleteCollection(COLLECTION)).toBe(true);
    expect(await client.deleteCollection(COLLECTION)).toBe(false);
    expect(await client.collectionExists(COLLECTION)).toEqual({ exists: false });
  });

  it('answers 404 in Qdrant’s words for a collection that does not exist', async () => {
    for (const call of [client.getCollection('nope'), client.query('nope', { query: [1, 0, 0, 0] }), client.count('nope')]) {
      const error = await failure(call);
      expect(error).toMatchObject(qdrantError(404, "Not found: Collection `nope` doesn't exist!"));
    }
  });
});

describe('points', () => {
  it('queries with a tenant filter, ranking by cosine similarity', async () => {
    await seed();
    const { points } = await client.query(COLLECTION, {
      query: [2, 0, 0, 0], // not unit length: Cosine ignores magnitude
      filter: { must: [tenantIs('a')] },
      with_payload: true,
      limit: 10,
    });
    expect(points.map((p) => p.id)).toEqual([1, 2, UUID]);
    expect(points[0]).toMatchObject({ score: expect.closeTo(1, 6), version: expect.any(Number), payload: { tenant: 'a' } });
    expect(points[1]?.score).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 6);
    expect(points[2]?.score).toBeCloseTo(0, 6);
  });

  it('honours limit, offset, score_threshold, with_payload (off by default) and {nearest}', async () => {
    await seed();
    const bare = await client.query(COLLECTION, { query: { nearest: [1, 0, 0, 0] }, limit: 2 });
    expect(bare.points.map((p) => p.id)).toEqual([1, 2]);
    expect(bare.points[0]).not.toHaveProperty('payload');

    const page = await client.query(COLLECTION, { query: [1, 0, 0, 0], limit: 2, offset: 1, params: { hnsw_ef: 64, exact: false } });
    expect(page.points.map((p) => p.id)).toEqual([2, 3]);

    const close = await client.query(COLLECTION, { query: [1, 0, 0, 0], score_threshold: 0.5, with_payload: ['kind'] });
    expect(close.points.map((p) => [p.id, p.payload])).toEqual([
      [1, { kind: 'fact' }],
      [2, { kind: 'note' }],
    ]);
  });

  it('queries by the id of a stored point, leaving that point out', async () => {
    await seed();
    const { points } = await client.query(COLLECTION, { query: 1, limit: 1 });
    expect(points.map((p) => p.id)).toEqual([2]);
  });

  it('ranks by Dot product, and by Euclid distance ascending with score_threshold as an upper bound', async () => {
    await client.createCollection('dot', { vectors: { size: 2, distance: 'Dot' } });
    await client.createCollection('euclid', { vectors: { size: 2, distance: 'Euclid' } });
    const points = [
      { id: 1, vector: [1, 1] },
      { id: 2, vector: [3, 0] },
      { id: 3, vector: [0, 0.5] },
    ];
    await client.upsert('dot', { points });
    await client.upsert('euclid', { points });

    const dot = await client.query('dot', { query: [1, 0] });
    expect(dot.points.map((p) => [p.id, p.score])).toEqual([
      [2, 3],
      [1, 1],
      [3, 0],
    ]);
    const euclid = await client.query('euclid', { query: [0, 0], score_threshold: 2 });
    expect(euclid.points.map((p) => p.id)).toEqual([3, 1]);
    expect(euclid.points[1]?.score).toBeCloseTo(Math.SQRT2, 6);
  });

  it('upserts a PointsBatch and replaces points on a second upsert', async () => {
    await createCollection();
    const first = await client.upsert(COLLECTION, {
      batch: {
        ids: [1, 2],
        vectors: [
          [1, 0, 0, 0],
          [0, 1, 0, 0],
        ],
        payloads: [{ v: 1 }, null],
      },
    });
    expect(first.status).toBe('completed');
    await client.upsert(COLLECTION, { points: [{ id: 1, vector: [0, 0, 1, 0], payload: { v: 2 } }] });
    const records = await client.retrieve(COLLECTION, { ids: [1, 2, 99], with_vector: true });
    expect(records).toEqual([
      { id: 1, payload: { v: 2 }, vector: [0, 0, 1, 0] },
      { id: 2, payload: {}, vector: [0, 1, 0, 0] },
    ]);
  });

  it('counts and scrolls in id order with next_page_offset', async () => {
    await seed();
    expect(await client.count(COLLECTION)).toEqual({ count: 4 });
    expect(await client.count(COLLECTION, { filter: { must: [tenantIs('b')] }, exact: true })).toEqual({ count: 1 });

    const first = await client.scroll(COLLECTION, { limit: 2, with_payload: false });
    expect(first).toEqual({ points: [{ id: 1 }, { id: 2 }], next_page_offset: 3 });
    const second = await client.scroll(COLLECTION, { limit: 2, offset: first.next_page_offset ?? undefined });
    expect(second.points.map((p) => p.id)).toEqual([3, UUID]);
    expect(second.points[0]?.payload).toMatchObject({ tenant: 'b' }); // scroll returns payloads by default
    expect(second.next_page_offset).toBeNull();
  });

  it('deletes by ids and by filter', async () => {
    await seed();
    const byIds = await client.delete(COLLECTION, { points: [1, UUID], wait: true });
    expect(byIds).toEqual({ operation_id: expect.any(Number), status: 'completed' });
    expect(await idsMatching({})).toEqual([2, 3]);

    const byFilter = await client.delete(COLLECTION, { filter: { must: [tenantIs('b')] } });
    expect(byFilter.status).toBe('acknowledged'); // no wait=true: Qdrant only acknowledges
    expect(await idsMatching({})).toEqual([2]);
  });

  it('sets payload by ids, by filter and under a key, and overwrites it', async () => {
    await seed();
    await client.setPayload(COLLECTION, { payload: { pinned: true }, points: [1] });
    await client.setPayload(COLLECTION, { payload: { archived: true }, filter: { must: [tenantIs('b')] } });
    await client.setPayload(COLLECTION, { payload: { region: 'eu' }, points: [UUID], key: 'meta' });
    await client.overwritePayload(COLLECTION, { payload: { only: 1 }, points: [2] });

    const records = await client.retrieve(COLLECTION, { ids: [1, 2, 3, UUID] });
    expect(records.map((r) => r.payload)).toEqual([
      { tenant: 'a', kind: 'fact', tags: ['x', 'y'], score: 5, at: '2024-05-01T10:00:00Z', pinned: true },
      { only: 1 },
      { tenant: 'b', kind: 'fact', tags: [], score: 9, at: '2024-06-01T00:00:00Z', archived: true },
      expect.objectContaining({ meta: { lang: 'en', region: 'eu' } }),
    ]);
    const missing = await failure(client.setPayload(COLLECTION, { payload: { x: 1 }, points: [404] }));
    expect(missing).toMatchObject({ status: 404, data: { status: { error: 'Not found: No point with id 404 found' } } });
  });

  it('serves the legacy search endpoint with a bare ScoredPoint[]', async () => {
    await seed();
    const results = await client.search(COLLECTION, { vector: [0, 1, 0, 0], limit: 1, filter: { must_not: [tenantIs('a')] } });
    expect(results).toEqual([
      { id: 3, version: expect.any(Number), score: expect.closeTo(1, 6), payload: expect.objectContaining({ tenant: 'b' }) },
    ]);
  });

  it('stores named vectors and queries the one named in `using`', async () => {
    await client.createCollection(COLLECTION, {
      vectors: { text: { size: 2, distance: 'Cosine' }, image: { size: 3, distance: 'Dot' } },
    });
    await client.upsert(COLLECTION, {
      points: [
        { id: 1, vector: { text: [1, 0], image: [0, 0, 1] } },
        { id: 2, vector: { text: [0, 1] } },
      ],
    });
    const { points } = await client.query(COLLECTION, { query: [0, 1], using: 'text', with_vector: true });
    expect(points.map((p) => [p.id, p.vector])).toEqual([
      [2, { text: [0, 1] }],
      [1, { text: [1, 0], image: [0, 0, 1] }],
    ]);
    const unknown = await failure(client.query(COLLECTION, { query: [0, 1], using: 'audio' }));
    expect(unknown).toMatchObject({ status: 400, data: { status: { error: 'Wrong input: Not existing vector name error: audio' } } });
  });

  it('rejects a vector of the wrong dimension in Qdrant’s words, storing nothing', async () => {
    await client.createCollection(COLLECTION, { vectors: { size: 384, distance: 'Cosine' } });
    const error = await failure(
      client.upsert(COLLECTION, {
        points: [
          { id: 1, vector: new Array(384).fill(0.5) },
          { id: 2, vector: new Array(8).fill(0.5) },
        ],
      }),
    );
    expect(error).toMatchObject(qdrantError(400, 'Wrong input: Vector dimension error: expected dim: 384, got 8'));
    expect(await client.count(COLLECTION)).toEqual({ count: 0 });
    const query = await failure(client.query(COLLECTION, { query: [1, 2, 3] }));
    expect(query).toMatchObject(qdrantError(400, 'Wrong input: Vector dimension error: expected dim: 384, got 3'));
  });

  it('accepts unsigned integer and UUID ids only', async () => {
    await createCollection();
    for (const id of ['memory-1', -1, 1.5]) {
      const error = await failure(client.upsert(COLLECTION, { points: [{ id, vector: [1, 0, 0, 0] }] }));
      expect(error).toMatchObject({ status: 400, data: { status: { error: expect.stringContaining('Format error in JSON body') } } });
    }
    await client.upsert(COLLECTION, { points: [{ id: UUID.replaceAll('-', ''), vector: [1, 0, 0, 0] }] });
    expect(await idsMatching({})).toEqual([UUID]);
  });
});

describe('filters', () => {
  beforeEach(seed);

  it('combines must, should and must_not, and nests filters as conditions', async () => {
    expect(await idsMatching({ should: [{ key: 'kind', match: { value: 'note' } }, { has_id: [3] }] })).toEqual([2, 3]);
    expect(await idsMatching({ must_not: [tenantIs('a')] })).toEqual([3]);
    expect(await idsMatching({ must: tenantIs('a'), must_not: { has_id: [1, UUID] } })).toEqual([2]);
    expect(
      await idsMatching({
        must: [
          {
            should: [
              { key: 'score', range: { gt: 8 } },
              { key: 'kind', match: { value: 'note' } },
            ],
          },
        ],
        must_not: [tenantIs('b')],
      }),
    ).toEqual([2]);
    expect(
      await idsMatching({
        min_should: {
          conditions: [tenantIs('a'), { key: 'kind', match: { value: 'fact' } }, { key: 'score', range: { gte: 5 } }],
          min_count: 3,
        },
      }),
    ).toEqual([1]);
  });

  it('matches values, any, except and text, with arrays matching on any element', async () => {
    expect(await idsMatching({ must: [{ key: 'tags', match: { value: 'y' } }] })).toEqual([1]);
    expect(await idsMatching({ must: [{ key: 'kind', match: { any: ['note', 'other'] } }] })).toEqual([2]);
    expect(await idsMatching({ must: [{ key: 'score', match: { value: 9 } }] })).toEqual([3]);
    expect(await idsMatching({ must: [{ key: 'kind', match: { text: 'ac' } }] })).toEqual([1, 3, UUID]);
  });

  it('matches except on any value outside the list, and never on a missing field (as Qdrant’s checker does)', async () => {
    expect(await idsMatching({ must: [{ key: 'kind', match: { except: ['fact'] } }] })).toEqual([2]);
    expect(await idsMatching({ must: [{ key: 'tags', match: { except: ['x'] } }] })).toEqual([1]);
    expect(await idsMatching({ must: [{ key: 'tags', match: { except: ['x', 'y'] } }] })).toEqual([]);
  });

  it('tests ranges, emptiness, nulls, value counts, ids and dotted keys', async () => {
    expect(await idsMatching({ must: [{ key: 'score', range: { gte: 2, lt: 9 } }] })).toEqual([1, 2]);
    expect(await idsMatching({ must: [{ is_empty: { key: 'tags' } }] })).toEqual([2, 3, UUID]);
    expect(await idsMatching({ must: [{ is_null: { key: 'note' } }] })).toEqual([2]);
    expect(await idsMatching({ must: [{ is_null: { key: 'tags' } }] })).toEqual([]); // missing is not null
    expect(await idsMatching({ must: [{ key: 'tags', is_empty: false }] })).toEqual([1]);
    expect(await idsMatching({ must: [{ key: 'note', is_null: true }] })).toEqual([2]);
    expect(await idsMatching({ must: [{ key: 'at', range: { gt: '2024-05-15T00:00:00Z' } }] })).toEqual([3]);
    expect(await idsMatching({ must: [{ key: 'at', range: { gte: 0 } }] })).toEqual([]); // numbers only
    expect(await idsMatching({ must: [{ key: 'tags', values_count: { gte: 2 } }] })).toEqual([1]);
    expect(await idsMatching({ must: [{ has_id: [3, UUID.toUpperCase()] }] })).toEqual([3, UUID]);
    expect(await idsMatching({ must: [{ key: 'meta.lang', match: { value: 'en' } }] })).toEqual([UUID]);
    expect(await idsMatching({ must: [{ key: 'items[].name', match: { value: 'q' } }] })).toEqual([UUID]);
  });

  it('holds nested conditions to one and the same array element', async () => {
    const nested = (name: string, n: number): Schemas['Filter'] => ({
      must: [
        {
          nested: {
            key: 'items',
            filter: {
              must: [
                { key: 'name', match: { value: name } },
                { key: 'n', match: { value: n } },
              ],
            },
          },
        },
      ],
    });
    expect(await idsMatching(nested('q', 2))).toEqual([UUID]);
    expect(await idsMatching(nested('p', 2))).toEqual([]);
  });
});

describe('faults', () => {
  it('answers 503 for the next matching requests, then recovers', async () => {
    await createCollection();
    qdrant.fault({ type: 'unavailable', path: `/collections/${COLLECTION}/points/query`, times: 2 });
    expect(await client.count(COLLECTION)).toEqual({ count: 0 }); // another path is unaffected
    for (let i = 0; i < 2; i++) {
      const error = await failure(client.query(COLLECTION, { query: [1, 0, 0, 0] }));
      expect(error).toMatchObject({ status: 503, data: { status: { error: expect.any(String) }, result: null } });
    }
    expect(await client.query(COLLECTION, { query: [1, 0, 0, 0] })).toEqual({ points: [] });
  });

  it('hangs a request until the client times out', async () => {
    await createCollection();
    const impatient = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 100 });
    qdrant.fault({ type: 'hang', path: /\/points\/query$/ });
    await expect(impatient.query(COLLECTION, { query: [1, 0, 0, 0] })).rejects.toBeInstanceOf(QdrantClientTimeoutError);
    // The hang was for one request; the next is answered (by a patient client: 100 ms is no bound on a busy machine).
    expect(await client.query(COLLECTION, { query: [1, 0, 0, 0] })).toEqual({ points: [] });
  });

  it('delays every request while a global delay is set', async () => {
    const impatient = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 100 });
    qdrant.fault({ type: 'delay', ms: 60_000 });
    await expect(impatient.getCollections()).rejects.toBeInstanceOf(QdrantClientTimeoutError);
    qdrant.clearFaults();
    expect(await client.getCollections()).toEqual({ collections: [] });
  });

  it('resets the connection', async () => {
    qdrant.fault({ type: 'reset', method: 'GET', path: '/collections' });
    await expect(client.getCollections()).rejects.toThrow(/fetch failed/);
    expect(await client.getCollections()).toEqual({ collections: [] });
  });

  it('reports not ready on /readyz while not_ready is set, and serves the other probes', async () => {
    qdrant.fault({ type: 'not_ready' });
    const notReady = await fetch(`${qdrant.url}/readyz`);
    expect([notReady.status, await notReady.text()]).toEqual([503, 'some shards are not ready']);
    qdrant.clearFaults();
    const ready = await fetch(`${qdrant.url}/readyz`);
    expect([ready.status, ready.headers.get('content-type'), await ready.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'all shards are ready',
    ]);
    for (const probe of ['/healthz', '/livez']) expect(await (await fetch(qdrant.url + probe)).text()).toBe('healthz check passed');
    expect(await (await fetch(`${qdrant.url}/`)).json()).toMatchObject({ title: 'qdrant - vector search engine', version: '1.18.0' });
  });
});

describe('api key', () => {
  let secured: QdrantDouble;
  beforeEach(async () => {
    secured = await startQdrantDouble({ apiKey: 'secret' });
    vi.spyOn(console, 'warn').mockImplementation(() => {}); // the client warns about a key over plain http
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await secured.close();
  });

  it('requires the key on the API but not on the probes, like Qdrant', async () => {
    const anonymous = new QdrantClient({ url: secured.url, checkCompatibility: false });
    expect(await failure(anonymous.getCollections())).toMatchObject({
      status: 401,
      data: 'Must provide an API key or an Authorization bearer token', // text/plain, as Qdrant answers
    });
    const wrong = new QdrantClient({ url: secured.url, apiKey: 'guess', checkCompatibility: false });
    expect(await failure(wrong.getCollections())).toMatchObject({ status: 401, data: 'Invalid API key or JWT' });

    const right = new QdrantClient({ url: secured.url, apiKey: 'secret', checkCompatibility: false });
    expect(await right.getCollections()).toEqual({ collections: [] });
    const bearer = await fetch(`${secured.url}/collections`, { headers: { authorization: 'Bearer secret' } });
    expect(bearer.status).toBe(200);
    expect((await fetch(`${secured.url}/readyz`)).status).toBe(200);
  });
});

describe('validation against the OpenAPI document', () => {
  it('rejects invalid bodies and query params with 400 and an ErrorResponse', async () => {
    await createCollection();
    const cases = [
      { method: 'PUT', path: '/collections/other', body: { vectors: { size: 0, distance: 'Cosine' } } },
      { method: 'PUT', path: '/collections/other', body: { vectors: { size: 4, distance: 'Hamming' } } },
      { method: 'PUT', path: `/collections/${COLLECTION}/points`, body: { points: [{ id: 1 }] } },
      { method: 'POST', path: `/collections/${COLLECTION}/points/query`, body: { query: [1, 0], filter: { bogus: 1 } } },
      { method: 'POST', path: `/collections/${COLLECTION}/points/query`, body: { query: [1, 0, 0, 0], limit: 0 } },
      { method: 'POST', path: `/collections/${COLLECTION}/points/search`, body: { vector: [1, 0, 0, 0] } },
      { method: 'POST', path: `/collections/${COLLECTION}/points/delete`, body: { ids: [1] } },
      { method: 'POST', path: `/collections/${COLLECTION}/points/count`, body: '{"exact": tru' },
      { method: 'POST', path: `/collections/${COLLECTION}/points/scroll`, body: '' },
      { method: 'PUT', path: `/collections/${COLLECTION}/points?wait=maybe`, body: { points: [] } },
      { method: 'PUT', path: `/collections/${COLLECTION}/points?timeout=0`, body: { points: [] } },
      { method: 'PUT', path: `/collections/${COLLECTION}/points?ordering=fast`, body: { points: [] } },
    ];
    for (const { method, path, body } of cases) {
      const response = await raw(path, { method, body });
      const answer = (await response.json()) as { status: { error: string } };
      expect([path, response.status]).toEqual([path, 400]);
      expect(answer).toMatchObject({
        time: expect.any(Number),
        status: { error: expect.stringMatching(/^Format error in (JSON body|query parameters): /) },
        result: null,
      });
      expect(qdrant.checkResponse(method, path.split('?')[0] ?? path, 400, answer)).toEqual([]);
    }
    expect(await client.count(COLLECTION)).toEqual({ count: 0 });
    expect(await client.collectionExists('other')).toEqual({ exists: false });
  });

  it('accepts everything the real client sends, across the calls a memory server makes', async () => {
    await client.createCollection(COLLECTION, {
      vectors: { size: 4, distance: 'Cosine', on_disk: true },
      quantization_config: { scalar: { type: 'int8', quantile: 0.99 } },
      hnsw_config: { m: 0, payload_m: 16 },
      optimizers_config: { indexing_threshold: 20000 },
      on_disk_payload: true,
      timeout: 10,
    });
    await client.createPayloadIndex(COLLECTION, { field_name: 'tenant', field_schema: { type: 'keyword', is_tenant: true }, wait: true });
    await client.createPayloadIndex(COLLECTION, { field_name: 'at', field_schema: 'datetime', ordering: 'strong' });
    await client.upsert(COLLECTION, { points: [{ id: 1, vector: [1, 0, 0, 0], payload: { tenant: 'a' } }], ordering: 'medium' });
    await client.upsert(COLLECTION, { batch: { ids: [UUID], vectors: [[0, 1, 0, 0]], payloads: [{ tenant: 'b' }] }, timeout: 5 });
    await client.query(COLLECTION, {
      query: { nearest: [1, 0, 0, 0] },
      filter: { must: [tenantIs('a')], must_not: [{ has_id: [UUID] }] },
      params: { hnsw_ef: 128, exact: false, quantization: { rescore: true, oversampling: 2 } },
      with_payload: { include: ['tenant'] },
      score_threshold: 0.1,
      consistency: 'majority',
      timeout: 3,
    });
    await client.search(COLLECTION, { vector: [1, 0, 0, 0], limit: 3, with_payload: ['tenant'] });
    await client.count(COLLECTION, { filter: { should: [tenantIs('a'), tenantIs('b')] }, exact: false });
    await client.scroll(COLLECTION, { filter: { must: [{ is_empty: { key: 'gone' } }] }, limit: 1, offset: 1, with_vector: true });
    await client.retrieve(COLLECTION, { ids: [1, UUID], with_payload: false, with_vector: false, consistency: 2 });
    await client.setPayload(COLLECTION, { payload: { seen: 1 }, filter: { must: [tenantIs('b')] }, wait: true });
    await client.overwritePayload(COLLECTION, { payload: { tenant: 'a' }, points: [1] });
    await client.delete(COLLECTION, { points: [UUID], wait: true, ordering: 'strong' });
    await client.delete(COLLECTION, { filter: { must: [{ key: 'tenant', match: { any: ['a'] } }] } });
    await client.getCollection(COLLECTION);
    await client.collectionExists(COLLECTION);
    await client.getCollections();
    await client.deletePayloadIndex(COLLECTION, 'at');
    await client.deleteCollection(COLLECTION, { timeout: 10 });

    const answered = qdrant.requests.map((r) => `${r.status} ${r.method} ${r.path}`);
    expect(answered.filter((line) => !line.startsWith('200 '))).toEqual([]);
    expect(qdrant.requests).toHaveLength(19);
    expect(qdrant.requests.map((r) => r.query)).toContainEqual({ wait: 'true', ordering: 'strong' });
  });

  it('checks its answers against the document’s response schemas', async () => {
    await seed();
    const body = { query: [1, 0, 0, 0], with_payload: true, with_vector: true };
    const query = await raw(`/collections/${COLLECTION}/points/query`, { method: 'POST', body });
    expect(qdrant.checkResponse('POST', `/collections/${COLLECTION}/points/query`, 200, await query.json())).toEqual([]);
    const info = await raw(`/collections/${COLLECTION}`, { method: 'GET' });
    expect(qdrant.checkResponse('GET', `/collections/${COLLECTION}`, 200, await info.json())).toEqual([]);
    const scroll = await raw(`/collections/${COLLECTION}/points/scroll`, { method: 'POST', body: {} });
    expect(qdrant.checkResponse('POST', `/collections/${COLLECTION}/points/scroll`, 200, await scroll.json())).toEqual([]);

    // ...and the check has teeth: shapes Qdrant would not send are caught.
    const envelope = (result: unknown) => ({ usage: null, time: 0, status: 'ok', result });
    const path = `/collections/${COLLECTION}/points/query`;
    expect(qdrant.checkResponse('POST', path, 200, envelope({ points: [{ id: 1, score: 0.5 }] }))).not.toEqual([]); // no version
    expect(qdrant.checkResponse('POST', path, 200, envelope({ points: [{ id: 'one', version: 1, score: 0.5 }] }))).not.toEqual([]);
    expect(qdrant.checkResponse('POST', path, 200, envelope([]))).not.toEqual([]);
    expect(qdrant.checkResponse('POST', `/collections/${COLLECTION}/points/count`, 200, envelope({ count: -1 }))).not.toEqual([]);
    const upsert = `/collections/${COLLECTION}/points`;
    expect(qdrant.checkResponse('PUT', upsert, 200, envelope({ operation_id: 1, status: 'done' }))).not.toEqual([]);
    expect(qdrant.checkResponse('GET', '/readyz', 200, 'all shards are ready')).toEqual([]);
  });
});
