import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadVectorConfig } from '../../server/vectorConfig.ts';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import {
  EngineDeleteProviderDocument as DELETE_PROVIDER,
  type ModelProviderInput,
  EngineProvidersDocument as PROVIDERS,
  EngineStatusViewDocument as STATUS,
  EngineUpsertProviderDocument as UPSERT_PROVIDER,
  EngineVectorStoreAvailabilityDocument as VECTOR_STORE_AVAILABILITY,
  EngineVectorStoreWithoutQdrantDocument as VECTOR_STORE_WITHOUT_QDRANT,
} from '../generated/graphql.ts';
import { GET_SETTINGS, IMPORT_MEMORIES, RETRIEVE, RETRIEVE_PREVIEW, START_REINDEX, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type Operation, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir, writeTopicModel } from '../helpers/topicModel.ts';
import { onPostgres, startVectorApp, VECTOR_BACKEND } from '../helpers/vectorStore.ts';

const key = () => `k-${randomUUID().slice(0, 8)}`;
const status = async (target: TestApp) => (await target.ok(STATUS)).engineStatus;
const providers = async (target: TestApp) => (await target.ok(PROVIDERS)).embeddingProviders;

async function importMemories(target: TestApp, apiKeyId: string, contents: string[]) {
  const report = (await target.ok(IMPORT_MEMORIES, { memories: contents.map((content) => ({ apiKeyId, content })) })).importMemories;
  expect(report.rejected).toEqual([]);
}

async function reindex(target: TestApp) {
  const job = (await target.ok(START_REINDEX)).reindex;
  await target.services.reindex.idle();
  return job;
}

const models = topicModelDir();

describe('engine status', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startVectorApp({ engine: topicEngine(models) });
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  });
  afterAll(() => app.close());

  it('reports the keyword tier as probed, with the number of indexed memories', async () => {
    const before = (await status(app)).keyword;
    expect(before).toMatchObject({ available: true, error: null });
    await importMemories(app, key(), ['I eat banana', 'I write rust', 'my cat']);
    const after = (await status(app)).keyword;
    expect(after.documents).toBe(before.documents + 3);
    expect(after.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it(`reports the vector store as ${VECTOR_BACKEND}${onPostgres ? '' : ' with the extension version'}, empty before the first embedding`, async () => {
    const fresh = await startVectorApp({ engine: topicEngine(models) });
    try {
      expect((await status(fresh)).vectorStore).toEqual({
        backend: VECTOR_BACKEND,
        available: true,
        extensionVersion: onPostgres ? null : 'v0.1.9',
        rows: 0,
        pendingReindex: 0,
        signature: null,
        signatureMatches: null,
        dimension: null,
        quantization: 'none',
        lastResetAt: null,
      });
    } finally {
      await fresh.close();
    }
  });

  it('reports the static model: source, model, why it was chosen, and its dimension once loaded', async () => {
    const fresh = await startVectorApp({ engine: topicEngine(models) });
    try {
      const idle = (await status(fresh)).embedding;
      expect(idle).toMatchObject({ source: 'static', model: 'test/topics', dimension: null, state: 'idle', lastError: null });
      expect(idle.reason).toMatch(/^auto: remote skipped \(no embeddingProviderModel is set/);
      expect(idle.reason).toContain(`static model test/topics from ${path.join(models, 'test/topics')}`);
      await fresh.services.vectors.loadForJob();
      expect((await status(fresh)).embedding).toMatchObject({ state: 'ready', dimension: 8, lastError: null });
    } finally {
      await fresh.close();
    }
  });

  it('reports rows, pending memories, the signature and whether it matches after a reindex', async () => {
    const apiKeyId = key();
    await importMemories(app, apiKeyId, ['I eat mango', 'I eat apple']);
    const job = await reindex(app);
    const memories = (await app.database.db.selectFrom('memories').select('pk').execute()).length;
    const s = await status(app);
    expect(s.vectorStore).toMatchObject({
      rows: memories,
      pendingReindex: 0,
      signature: 'static:test/topics:8:none',
      signatureMatches: true,
      dimension: 8,
      quantization: 'none',
    });
    // sqlite-vec records when its table was built; Qdrant keeps no such time (null).
    if (onPostgres) expect(s.vectorStore.lastResetAt).toBeNull();
    else expect(Date.parse(s.vectorStore.lastResetAt!)).not.toBeNaN();
    expect(s.reindex).toEqual({ id: job.id, status: 'COMPLETED', total: job.total, processed: job.total });

    await importMemories(app, apiKeyId, ['I eat cherry']);
    expect((await status(app)).vectorStore).toMatchObject({ rows: memories, pendingReindex: 1 });
  });

  it('counts embedding cache hits and misses as retrievals embed queries', async () => {
    const apiKeyId = key();
    await app.services.vectors.loadForJob();
    const before = (await status(app)).embedding.cache!;
    expect(before).toMatchObject({ max: 10_000, ttlMs: 3_600_000 });
    const query = `papaya ${randomUUID()}`;
    await app.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query, strategy: 'SEMANTIC' } });
    const once = (await status(app)).embedding.cache;
    expect(once).toMatchObject({ hits: before.hits, misses: before.misses + 1, size: before.size + 1 });
    await app.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query, strategy: 'SEMANTIC' } });
    expect((await status(app)).embedding.cache).toMatchObject({ hits: before.hits + 1, misses: before.misses + 1, size: before.size + 1 });
  });

  it('reports rerank as off by default, with the reason', async () => {
    expect((await status(app)).rerank).toEqual({ enabled: false, model: null, reason: 'rerankEnabled is off' });
  });

  it('reports rerank as off when it is enabled without a model, with the reason', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: true } });
    try {
      expect((await status(app)).rerank).toEqual({ enabled: false, model: null, reason: 'no rerankProviderModel is set' });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: false } });
    }
  });

  it('reports no embedding source, and why, when there is no model', async () => {
    const bare = await startVectorApp();
    try {
      await bare.ok(UPDATE_SETTINGS, { input: { staticEnabled: false } });
      const s = await status(bare);
      expect(s.embedding).toMatchObject({ source: null, model: null, dimension: null, state: 'none', cache: null, lastError: null });
      expect(s.embedding.reason).toMatch(/keyword search only$/);
      expect(s.vectorStore.signatureMatches).toBeNull();
    } finally {
      await bare.close();
    }
  });

  it('reports a model that failed to load, with the error', async () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'mnemo-broken-'));
    writeTopicModel(broken);
    writeFileSync(path.join(broken, 'test/topics/model.safetensors'), 'not a safetensors file');
    const target = await startVectorApp({ engine: topicEngine(broken) });
    try {
      await target.services.vectors.loadForJob();
      const s = await status(target);
      expect(s.embedding).toMatchObject({ source: 'static', state: 'failed', dimension: null, lastError: { kind: 'model_unavailable' } });
      expect(s.embedding.lastError!.message).toMatch(/failed to load/);
    } finally {
      await target.close();
    }
  });

  it.runIf(onPostgres)('reports the vector store as unavailable on PostgreSQL without Qdrant, and why', async () => {
    const bare = await startTestApp({ engine: topicEngine(models) });
    try {
      const s = (await bare.ok(VECTOR_STORE_WITHOUT_QDRANT)).engineStatus;
      expect(s.vectorStore).toEqual({
        backend: 'qdrant',
        available: false,
        unavailableReason: 'PostgreSQL store: vectors need Qdrant (none is configured: set its URL in the Qdrant settings and enable it)',
        rows: 0,
      });
    } finally {
      await bare.close();
    }
  });

  it.runIf(!onPostgres)('reports the vector store as available with no reason to give', async () => {
    const s = (await app.ok(VECTOR_STORE_AVAILABILITY)).engineStatus;
    expect(s.vectorStore).toEqual({ available: true, unavailableReason: null });
  });

  // sqlite-vec's table is rebuilt for the new model by itself; a Qdrant collection of another model is refused until
  // reindex(force: true) recreates it (qdrant.test.ts).
  it.skipIf(onPostgres)('reports that the stored vectors no longer match after the model changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-mismatch-'));
    writeTopicModel(models, 'test/topics12', 12);
    const before = await startVectorApp({ dir, engine: topicEngine(models) });
    await importMemories(before, key(), ['I eat banana']);
    await reindex(before);
    await before.close();
    const after = await startVectorApp({ dir, engine: topicEngine(models, { MEMORY_STATIC_MODEL: 'test/topics12' }) });
    try {
      await after.services.vectors.loadForJob();
      expect((await status(after)).vectorStore).toMatchObject({ signature: 'static:test/topics:8:none', signatureMatches: false, rows: 1 });
      await reindex(after);
      expect((await status(after)).vectorStore).toMatchObject({
        signature: 'static:test/topics12:12:none',
        signatureMatches: true,
        rows: 1,
        dimension: 12,
      });
    } finally {
      await after.close();
    }
  });
});

describe('model providers', () => {
  const SECRET = 'sk-very-secret-key-0123456789abcdef';
  let app: TestApp;
  beforeAll(async () => {
    app = await startVectorApp();
  });
  afterAll(() => app.close());

  const upsert = (input: ModelProviderInput) => app.ok(UPSERT_PROVIDER, { input }).then((d) => d.upsertModelProvider);
  const provider = (id: string, over: Partial<ModelProviderInput> = {}): ModelProviderInput => ({
    id,
    baseUrl: 'https://api.example.com/v1',
    models: [{ name: 'embed-small', kind: 'EMBEDDING', dimension: 8 }],
    ...over,
  });

  it('lists a provider with hasApiKey, and never returns the key anywhere', async () => {
    const saved = await app.gql(UPSERT_PROVIDER, { input: provider('acme', { apiKey: SECRET }) });
    expect(saved.data.upsertModelProvider).toEqual({
      id: 'acme',
      baseUrl: 'https://api.example.com/v1',
      hasApiKey: true,
      origin: 'settings',
      models: [{ name: 'embed-small', kind: 'EMBEDDING', dimension: 8 }],
    });
    const listed = await app.gql(PROVIDERS);
    expect(listed.data.embeddingProviders).toContainEqual(expect.objectContaining({ id: 'acme', keyless: false }));
    expect(listed.data.embeddingProviders).toContainEqual(expect.objectContaining({ id: 'acme', hasApiKey: true }));
    await app.ok(UPDATE_SETTINGS, { input: { embeddingProviderModel: 'acme/embed-small' } });
    const engine = await app.gql(STATUS);
    const settings = await app.gql(GET_SETTINGS);
    for (const response of [saved, listed, engine, settings]) expect(JSON.stringify(response)).not.toContain(SECRET);
    await app.ok(UPDATE_SETTINGS, { input: { embeddingProviderModel: null } });
  });

  it('keeps the stored key when an update omits apiKey', async () => {
    await upsert(provider('keeps', { apiKey: SECRET }));
    const updated = await upsert(provider('keeps', { baseUrl: 'https://other.example.com/v1' }));
    expect(updated).toMatchObject({ baseUrl: 'https://other.example.com/v1', hasApiKey: true });
  });

  it('removes the key when apiKey is an empty string', async () => {
    await upsert(provider('drops', { apiKey: SECRET }));
    expect(await upsert(provider('drops', { apiKey: '' }))).toMatchObject({ hasApiKey: false });
    expect((await providers(app)).find((p) => p.id === 'drops')).toMatchObject({ hasApiKey: false });
  });

  it('does not use a provider model without a key, and says so', async () => {
    await upsert(provider('nokey'));
    await app.ok(UPDATE_SETTINGS, { input: { embeddingProviderModel: 'nokey/embed-small' } });
    try {
      expect((await status(app)).embedding.reason).toMatch(/remote skipped \(provider "nokey" has no API key and is not marked keyless\)/);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { embeddingProviderModel: null } });
    }
  });

  it('deletes a provider, and answers NOT_FOUND for one that does not exist', async () => {
    await upsert(provider('gone'));
    expect((await app.ok(DELETE_PROVIDER, { id: 'gone' })).deleteModelProvider).toBe(true);
    expect((await providers(app)).map((p) => p.id)).not.toContain('gone');
    expect(onlyError(await app.gql(DELETE_PROVIDER, { id: 'gone' })).extensions?.code).toBe('NOT_FOUND');
  });

  it('rejects a provider id that is not a simple name, and a baseUrl that is not http(s)', async () => {
    for (const input of [provider('Bad Id'), provider('ok', { baseUrl: 'ftp://example.com' })]) {
      expect(onlyError(await app.gql(UPSERT_PROVIDER, { input })).extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('refuses a gateway token on providers, and on changing them', async () => {
    const token = await app.mintToken();
    const refused: [Operation, Record<string, unknown>][] = [
      [PROVIDERS, {}],
      [UPSERT_PROVIDER, { input: provider('sneaky', { apiKey: SECRET }) }],
      [DELETE_PROVIDER, { id: 'acme' }],
    ];
    for (const [doc, vars] of refused) {
      expect(onlyError(await app.gql(doc, vars, token)).extensions?.code).toBe('FORBIDDEN');
    }
    expect((await providers(app)).map((p) => p.id)).not.toContain('sneaky');
  });

  describe('from the environment', () => {
    const ENV_KEY = 'sk-env-secret-key-9876543210';
    let envApp: TestApp;
    beforeAll(async () => {
      const engine = loadVectorConfig(
        {
          MNEMO_EMBEDDING_URL: 'https://embeddings.example.com/v1',
          MNEMO_EMBEDDING_MODEL: 'env-embed',
          MNEMO_EMBEDDING_API_KEY: ENV_KEY,
          MNEMO_EMBEDDING_DIMENSION: '8',
          MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
          MEMORY_WORKER_INTERVAL_MS: '0',
        },
        mkdtempSync(path.join(tmpdir(), 'mnemo-env-')),
      );
      envApp = await startVectorApp({ engine });
    });
    afterAll(() => envApp.close());

    it('is listed with origin "env", without its key', async () => {
      const res = await envApp.gql(PROVIDERS);
      expect(res.data.embeddingProviders).toContainEqual({
        id: 'env',
        baseUrl: 'https://embeddings.example.com/v1',
        hasApiKey: true,
        keyless: false,
        origin: 'env',
        models: [{ name: 'env-embed', kind: 'EMBEDDING', dimension: 8, maxInputTokens: null }],
      });
      expect(JSON.stringify(res)).not.toContain(ENV_KEY);
      expect(JSON.stringify(await envApp.gql(STATUS))).not.toContain(ENV_KEY);
    });

    it('is what AUTO uses when no provider model is chosen', async () => {
      expect((await status(envApp)).embedding).toMatchObject({ source: 'remote', model: 'env-embed', dimension: 8 });
    });

    it('cannot be deleted or overwritten through the API', async () => {
      expect(onlyError(await envApp.gql(DELETE_PROVIDER, { id: 'env' })).extensions?.code).toBe('BAD_USER_INPUT');
      expect(onlyError(await envApp.gql(UPSERT_PROVIDER, { input: provider('env', { apiKey: 'sk-other' }) })).extensions?.code).toBe(
        'BAD_USER_INPUT',
      );
      expect((await providers(envApp)).filter((p) => p.id === 'env')).toEqual([
        expect.objectContaining({ origin: 'env', baseUrl: 'https://embeddings.example.com/v1' }),
      ]);
    });
  });
});

describe('remote embedding through a model API', () => {
  let api: ModelApiDouble;
  let app: TestApp;
  /** An app that embeds with the double's embed-1, chosen as a provider model. */
  async function startRemoteApp(env: Record<string, string> = {}) {
    const remote = await startVectorApp({ engine: topicEngine(models, { MEMORY_VECTOR_MIN_SIMILARITY: '-1', ...env }) });
    await remote.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    await remote.ok(UPSERT_PROVIDER, {
      input: { id: 'double', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'embed-1', kind: 'EMBEDDING' }] },
    });
    await remote.ok(UPDATE_SETTINGS, { input: { embeddingSource: 'AUTO', embeddingProviderModel: 'double/embed-1' } });
    return remote;
  }
  beforeAll(async () => {
    api = await startModelApi();
    app = await startRemoteApp();
  });
  afterAll(async () => {
    await app.close();
    await api.close();
  });

  it('is chosen by AUTO when a provider model with a key is set, ahead of the static model', async () => {
    const s = await status(app);
    expect(s.embedding).toMatchObject({ source: 'remote', model: 'embed-1' });
    expect(s.embedding.reason).toBe(`auto: using double/embed-1 at ${api.baseUrl}`);
  });

  it('learns the dimension from the first response and stores the vectors', async () => {
    expect((await status(app)).embedding.dimension).toBeNull();
    const apiKeyId = key();
    await importMemories(app, apiKeyId, ['I eat banana', 'I write rust', 'my cat sleeps']);
    const job = await reindex(app);
    const s = await status(app);
    expect(s.embedding).toMatchObject({ source: 'remote', dimension: 8, state: 'ready', lastError: null });
    expect(s.vectorStore).toMatchObject({ signature: 'remote:embed-1:8:none', dimension: 8, rows: job.total, pendingReindex: 0 });
    const calls = api.requests.filter((r) => r.path === '/v1/embeddings');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.headers.authorization === `Bearer ${api.apiKey}` && r.body.model === 'embed-1')).toBe(true);
    expect(calls.flatMap((r) => r.body.input)).toEqual(expect.arrayContaining(['I eat banana', 'I write rust', 'my cat sleeps']));
  });

  it('answers SEMANTIC retrievals with the remote vectors', async () => {
    const apiKeyId = key();
    await importMemories(app, apiKeyId, ['I eat banana', 'I write rust', 'my cat sleeps']);
    // The double's vectors are a hash of the text: the same text is the nearest neighbour.
    const r = (await app.ok(RETRIEVE, { input: { apiKeyId, query: 'I write rust', strategy: 'SEMANTIC' } })).retrieve;
    expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: false, embeddingSource: 'remote', embeddingModel: 'embed-1' });
    expect(r.items[0]).toMatchObject({ tier: 'VECTOR', memory: { content: 'I write rust' } });
    expect(r.items[0]!.vectorScore).toBeCloseTo(1, 5);
  });

  it('falls back to keyword search when the provider rejects the request, without leaking the key', async () => {
    const apiKeyId = key();
    await importMemories(app, apiKeyId, ['quokka sightings on the island']);
    await reindex(app);
    api.inject({ kind: 'status', status: 400, message: `bad request for key ${api.apiKey}` });
    // A query the cache has not seen, so it reaches the provider.
    const r = (await app.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: `quokka ${randomUUID()}`, strategy: 'HYBRID' } }))
      .retrievePreview;
    expect(r.items.map((i) => i.memory.content)).toEqual(['quokka sightings on the island']);
    expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/HTTP 400/);
    expect(r.resolution.fallbackReason).not.toContain(api.apiKey);
    const s = await status(app);
    expect(s.embedding.lastError).toMatchObject({ kind: 'request_failed' });
    expect(JSON.stringify(s)).not.toContain(api.apiKey);
  });

  it('tries a failing call again only as often as MEMORY_EMBEDDING_MAX_RETRIES says: 0 is never', async () => {
    const once = await startRemoteApp({ MEMORY_EMBEDDING_MAX_RETRIES: '0' });
    try {
      const apiKeyId = key();
      await importMemories(once, apiKeyId, ['quokka sightings on the island']);
      const before = api.requests.length;
      api.inject({ kind: 'status', status: 503 });
      const r = (await once.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: `quokka ${randomUUID()}`, strategy: 'HYBRID' } }))
        .retrievePreview;
      expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
      expect(r.resolution.fallbackReason).toMatch(/HTTP 503/);
      expect(api.requests.length - before).toBe(1);
    } finally {
      await once.close();
    }
  });
});

describe('AUTO: the first embedding source that can embed', () => {
  let api: ModelApiDouble;
  let local: ModelApiDouble;
  beforeAll(async () => {
    api = await startModelApi();
    local = await startModelApi({ apiKey: null });
  });
  afterAll(async () => {
    await api.close();
    await local.close();
  });

  /** A fresh mnemo with the static model available, so each test sees what AUTO prefers over it. */
  async function withProviders(run: (target: TestApp) => Promise<void>) {
    const target = await startVectorApp({ engine: topicEngine(models) });
    try {
      await target.ok(UPDATE_SETTINGS, { input: { enabled: true } });
      await run(target);
    } finally {
      await target.close();
    }
  }
  const upsert = (target: TestApp, input: ModelProviderInput) => target.ok(UPSERT_PROVIDER, { input });
  const embedding = async (target: TestApp) => (await status(target)).embedding;

  it('uses a configured provider with an embedding model and a key, ahead of the static model, without naming it', async () => {
    await withProviders(async (target) => {
      await upsert(target, { id: 'double', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'embed-1', kind: 'EMBEDDING' }] });
      expect(await embedding(target)).toMatchObject({
        source: 'remote',
        model: 'embed-1',
        reason: `auto: using double/embed-1 at ${api.baseUrl} (the first provider that can embed)`,
      });
    });
  });

  it('skips providers without a key or without an embedding model, and takes the next one that can embed', async () => {
    await withProviders(async (target) => {
      await upsert(target, { id: 'a-nokey', baseUrl: api.baseUrl, models: [{ name: 'embed-1', kind: 'EMBEDDING' }] });
      await upsert(target, { id: 'b-rerank', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'rerank-1', kind: 'RERANK' }] });
      await upsert(target, { id: 'c-ready', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'embed-2', kind: 'EMBEDDING' }] });
      expect(await embedding(target)).toMatchObject({ source: 'remote', model: 'embed-2' });
    });
  });

  it('counts a local endpoint marked keyless as configured, and calls it without an Authorization header', async () => {
    await withProviders(async (target) => {
      await upsert(target, { id: 'local', baseUrl: local.baseUrl, keyless: true, models: [{ name: 'nomic', kind: 'EMBEDDING' }] });
      expect((await providers(target)).find((p) => p.id === 'local')).toMatchObject({ hasApiKey: false, keyless: true });
      expect(await embedding(target)).toMatchObject({
        source: 'remote',
        model: 'nomic',
        reason: `auto: using local/nomic at ${local.baseUrl} (the first provider that can embed, keyless)`,
      });
      const apiKeyId = key();
      await importMemories(target, apiKeyId, ['I eat banana', 'I write rust']);
      await reindex(target);
      const r = (await target.ok(RETRIEVE, { input: { apiKeyId, query: 'I write rust', strategy: 'SEMANTIC' } })).retrieve;
      expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: false, embeddingSource: 'remote', embeddingModel: 'nomic' });
      const calls = local.requests.filter((req) => req.path === '/v1/embeddings');
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((req) => req.headers.authorization === undefined)).toBe(true);
    });
  });

  it('falls to the static model when no provider can embed, and says why', async () => {
    await withProviders(async (target) => {
      await upsert(target, { id: 'nokey', baseUrl: api.baseUrl, models: [{ name: 'embed-1', kind: 'EMBEDDING' }] });
      const e = await embedding(target);
      expect(e).toMatchObject({ source: 'static', model: 'test/topics' });
      expect(e.reason).toMatch(/^auto: remote skipped \(no embeddingProviderModel is set and no provider has an embedding model/);
    });
  });

  it('counts the environment provider marked keyless (MNEMO_EMBEDDING_KEYLESS) as configured', async () => {
    const engine = loadVectorConfig(
      {
        MNEMO_EMBEDDING_URL: local.baseUrl,
        MNEMO_EMBEDDING_MODEL: 'env-local',
        MNEMO_EMBEDDING_KEYLESS: 'true',
        MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
        MEMORY_WORKER_INTERVAL_MS: '0',
      },
      mkdtempSync(path.join(tmpdir(), 'mnemo-env-')),
    );
    const target = await startVectorApp({ engine });
    try {
      expect(await embedding(target)).toMatchObject({ source: 'remote', model: 'env-local' });
      expect((await providers(target)).find((p) => p.id === 'env')).toMatchObject({ hasApiKey: false, keyless: true });
    } finally {
      await target.close();
    }
  });
});

describe('reranking', () => {
  let api: ModelApiDouble;
  let app: TestApp;
  // Vector order (by topic): "banana" first, the longer mixed memory second. The rerank double scores the
  // share of query words a memory contains, so it puts the memory naming "mango" and "fruit" first.
  const PURE = 'banana';
  const MIXED = 'I eat mango fruit on my day of notes with rust code';
  const QUERY = 'mango fruit';
  let apiKeyId: string;

  beforeAll(async () => {
    api = await startModelApi();
    app = await startVectorApp({ engine: topicEngine(models, { MEMORY_RERANK_TIMEOUT_MS: '250' }) });
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    await app.ok(UPSERT_PROVIDER, {
      input: { id: 'double', baseUrl: api.baseUrl, apiKey: api.apiKey, models: [{ name: 'rerank-1', kind: 'RERANK' }] },
    });
    await app.services.vectors.loadForJob();
    apiKeyId = key();
    await importMemories(app, apiKeyId, [PURE, MIXED]);
    await reindex(app);
  });
  afterAll(async () => {
    await app.close();
    await api.close();
  });
  afterEach(async () => {
    await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: false, rerankProviderModel: null } });
  });

  const retrieve = async () => (await app.ok(RETRIEVE, { input: { apiKeyId, query: QUERY, strategy: 'SEMANTIC' } })).retrieve;
  const enable = () => app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: true, rerankProviderModel: 'double/rerank-1' } });

  it('keeps the fused order when rerank is off', async () => {
    const r = await retrieve();
    expect(r.items.map((i) => i.memory.content)).toEqual([PURE, MIXED]);
    expect(r.resolution).toMatchObject({ reranked: false, rerankReason: 'rerankEnabled is off' });
  });

  it('reorders the results with the rerank model and says so', async () => {
    await enable();
    const before = api.requests.length;
    const r = await retrieve();
    expect(r.items.map((i) => i.memory.content)).toEqual([MIXED, PURE]);
    expect(r.items.map((i) => i.score)).toEqual([1, 0]);
    expect(r.resolution).toMatchObject({ reranked: true, rerankModel: 'rerank-1', rerankReason: 'using double/rerank-1' });
    const calls = api.requests.slice(before).filter((q) => q.path === '/v1/rerank');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ model: 'rerank-1', query: QUERY, documents: [PURE, MIXED] });
    expect((await status(app)).rerank).toEqual({ enabled: true, model: 'rerank-1', reason: 'using double/rerank-1' });
  });

  it('keeps the fused order and says why when the rerank model does not answer in time', async () => {
    await enable();
    api.inject({ kind: 'hang' });
    const r = await retrieve();
    expect(r.items.map((i) => i.memory.content)).toEqual([PURE, MIXED]);
    expect(r.resolution).toMatchObject({ reranked: false, rerankModel: 'rerank-1' });
    expect(r.resolution.rerankReason).toMatch(/^rerank failed \(.*got no answer within 250 ms\); fused order kept$/);
  });

  it('keeps the fused order and says why when the rerank model fails', async () => {
    await enable();
    api.inject({ kind: 'status', status: 500 });
    const r = await retrieve();
    expect(r.items.map((i) => i.memory.content)).toEqual([PURE, MIXED]);
    expect(r.resolution).toMatchObject({ reranked: false, rerankModel: 'rerank-1' });
    expect(r.resolution.rerankReason).toMatch(/^rerank failed \(.*HTTP 500.*\); fused order kept$/);
  });

  it('says so when the rerank model is not configured', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: true, rerankProviderModel: 'nowhere/rerank' } });
    const r = await retrieve();
    expect(r.items.map((i) => i.memory.content)).toEqual([PURE, MIXED]);
    expect(r.resolution).toMatchObject({ reranked: false, rerankReason: 'rerank model "nowhere/rerank" is not configured' });
  });
});
