import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import {
  EngineCallsStatusDocument as STATUS,
  EngineCallsTestModelDocument as TEST_MODEL,
  EngineCallsTestProviderDocument as TEST_PROVIDER,
} from '../generated/graphql.ts';
import { IMPORT_MEMORIES, RETRIEVE_PREVIEW, UPDATE_SETTINGS, UPSERT_PROVIDER } from '../helpers/operations.ts';
import { onlyError } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { startVectorApp, type VectorApp } from '../helpers/vectorStore.ts';

const models = topicModelDir();
let api: ModelApiDouble;
let app: VectorApp;
const apiKeyId = 'calls';

beforeAll(async () => {
  api = await startModelApi();
  app = await startVectorApp({ engine: topicEngine(models) });
  await app.ok(UPSERT_PROVIDER, {
    input: {
      id: 'double',
      baseUrl: api.baseUrl,
      apiKey: api.apiKey,
      models: [
        { name: 'embed-1', kind: 'EMBEDDING' },
        { name: 'rerank-1', kind: 'RERANK' },
      ],
    },
  });
  await app.ok(UPDATE_SETTINGS, {
    input: {
      embeddingSource: 'REMOTE',
      embeddingProviderModel: 'double/embed-1',
      rerankEnabled: true,
      rerankProviderModel: 'double/rerank-1',
    },
  });
  await app.ok(IMPORT_MEMORIES, { memories: ['I eat banana', 'I write rust'].map((content) => ({ apiKeyId, content })) });
});
afterAll(async () => {
  await app.close();
  await api.close();
});

const status = async () => (await app.ok(STATUS)).engineStatus;
/** A query the embedding cache has not seen, so it reaches the model. */
const preview = () => app.ok(RETRIEVE_PREVIEW, { input: { apiKeyId, query: `banana rust ${randomUUID()}`, strategy: 'HYBRID' } });

describe('recent calls in engineStatus', () => {
  it('counts the calls to the embedding model and the failed ones, with the last error and its time', async () => {
    const before = (await status()).embedding.calls!;
    await preview();
    // A 400 is not retried: one failed call.
    api.inject({ kind: 'status', status: 400, message: 'input rejected' });
    await preview();
    const { embedding } = await status();
    // The state alone still says "ready": the failures are what tell the truth.
    expect(embedding.state).toBe('ready');
    expect(embedding.calls).toMatchObject({ windowSeconds: 600, failures: before.failures + 1 });
    const calls = embedding.calls!;
    expect(calls.calls).toBeGreaterThanOrEqual(before.calls + 2);
    expect(calls.lastError).toMatch(/HTTP 400: input rejected/);
    expect(Math.abs(Date.parse(calls.lastErrorAt!) - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(calls.lastSuccessAt!)).toBeLessThanOrEqual(Date.parse(calls.lastErrorAt!));
  });

  it('counts the calls to the rerank model, a failed one with its error', async () => {
    await preview();
    // The embedding call of the next retrieval succeeds; the rerank call after it fails.
    api.inject({ kind: 'reverse' });
    api.inject({ kind: 'status', status: 503, message: 'overloaded' });
    const r = (await preview()).retrievePreview;
    expect(r.resolution.reranked).toBe(false);
    const { rerank } = await status();
    expect(rerank.enabled).toBe(true);
    expect(rerank.calls!.failures).toBe(1);
    expect(rerank.calls!.calls).toBeGreaterThanOrEqual(2);
    expect(rerank.calls!.lastError).toMatch(/HTTP 503: overloaded/);
  });
});

describe('testEngineModel', () => {
  it('makes one real call to the embedding model in use and says what it answered', async () => {
    const before = api.requests.length;
    const { testEngineModel: t } = await app.ok(TEST_MODEL, { kind: 'EMBEDDING' });
    expect(t).toMatchObject({ kind: 'EMBEDDING', model: 'embed-1', ok: true, answer: 'a 8-dimensional vector', error: null });
    expect(t.latencyMs).toBeGreaterThan(0);
    expect(api.requests.slice(before).map((r) => r.path)).toEqual(['/v1/embeddings']);
  });

  it('reaches the model even for a text the cache holds, and reports its failure', async () => {
    await app.ok(TEST_MODEL, { kind: 'EMBEDDING' });
    api.inject({ kind: 'status', status: 401, message: 'Incorrect API key provided' });
    const { testEngineModel: t } = await app.ok(TEST_MODEL, { kind: 'EMBEDDING' });
    expect(t).toMatchObject({ ok: false, answer: null });
    expect(t.error).toMatch(/HTTP 401: Incorrect API key provided/);
    expect((await status()).embedding.calls!.lastError).toMatch(/HTTP 401/);
  });

  it('makes one real call to the rerank model in use', async () => {
    const { testEngineModel: t } = await app.ok(TEST_MODEL, { kind: 'RERANK' });
    expect(t).toMatchObject({ kind: 'RERANK', model: 'rerank-1', ok: true, error: null });
    expect(t.answer).toMatch(/^ranked 2 documents, best scored /);
  });

  it('says why there is nothing to test when rerank is off', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: false } });
    try {
      const { testEngineModel: t } = await app.ok(TEST_MODEL, { kind: 'RERANK' });
      expect(t).toEqual({ kind: 'RERANK', model: null, ok: false, latencyMs: 0, answer: null, error: 'rerankEnabled is off' });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { rerankEnabled: true } });
    }
  });
});

describe('testModelProvider', () => {
  it('calls each model of the provider once and reports each answer', async () => {
    const before = api.requests.length;
    const { testModelProvider: results } = await app.ok(TEST_PROVIDER, { id: 'double' });
    expect(results).toMatchObject([
      { kind: 'EMBEDDING', model: 'double/embed-1', ok: true, answer: 'a 8-dimensional vector' },
      { kind: 'RERANK', model: 'double/rerank-1', ok: true },
    ]);
    expect(api.requests.slice(before).map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/rerank']);
  });

  it('reports a refused key without retrying and without leaking the key', async () => {
    await app.ok(UPSERT_PROVIDER, {
      input: { id: 'wrong-key', baseUrl: api.baseUrl, apiKey: 'sk-wrong-0123', models: [{ name: 'embed-1', kind: 'EMBEDDING' }] },
    });
    const before = api.requests.length;
    const { testModelProvider: results } = await app.ok(TEST_PROVIDER, { id: 'wrong-key' });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: false, answer: null });
    expect(results[0]!.error).toMatch(/HTTP 401/);
    expect(JSON.stringify(results)).not.toContain('sk-wrong-0123');
    expect(api.requests.length - before).toBe(1);
  });

  it('reports an endpoint that cannot be reached', async () => {
    const gone = await startModelApi();
    await gone.close();
    await app.ok(UPSERT_PROVIDER, {
      input: { id: 'gone', baseUrl: gone.baseUrl, apiKey: 'sk-x', models: [{ name: 'rerank-1', kind: 'RERANK' }] },
    });
    const { testModelProvider: results } = await app.ok(TEST_PROVIDER, { id: 'gone' });
    expect(results[0]).toMatchObject({ kind: 'RERANK', ok: false });
    expect(results[0]!.error).toMatch(/ECONNREFUSED/);
  });

  it('answers NOT_FOUND for a provider that does not exist, and FORBIDDEN to a gateway token', async () => {
    expect(onlyError(await app.gql(TEST_PROVIDER, { id: 'nowhere' })).extensions?.code).toBe('NOT_FOUND');
    const gateway = await app.mintToken();
    expect(onlyError(await app.gql(TEST_PROVIDER, { id: 'double' }, gateway)).extensions?.code).toBe('FORBIDDEN');
    expect(onlyError(await app.gql(TEST_MODEL, { kind: 'EMBEDDING' }, gateway)).extensions?.code).toBe('FORBIDDEN');
  });
});
