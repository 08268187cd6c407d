import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsAliasedRootFieldsDocument } from '../generated/graphql.ts';
import { CREATE_MEMORY, GET_SETTINGS, RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { startVectorApp, type VectorApp } from '../helpers/vectorStore.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
const SECRET_CONTENT = 'the vault combination is 31-41-59';
const SECRET_QUERY = 'which vault combination';
const API_KEY = 'key_metrics_tenant_7f3a';

let app: VectorApp;
let gatewayToken: string;

const scrape = (token: string | null = METRICS_TOKEN) =>
  fetch(`${app.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const metricsText = async () => {
  const res = await scrape();
  expect(res.status).toBe(200);
  return res.text();
};
/** The value of one series, as Prometheus would read it; null when the series is absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  // Memories are embedded: in sqlite-vec on SQLite, in a Qdrant double on PostgreSQL (where vectors live in Qdrant only).
  app = await startVectorApp({ engine: topicEngine(topicModelDir()), app: { metricsToken: METRICS_TOKEN } });
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, strategy: 'HYBRID' } });
  await app.services.vectors.loadForJob();
  gatewayToken = await app.mintToken({ apiKeyId: API_KEY });
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: API_KEY, key: 'vault', content: SECRET_CONTENT } });
  await app.ok(RETRIEVE, { input: { apiKeyId: API_KEY, query: SECRET_QUERY } }, gatewayToken);
  await app.gql(GET_SETTINGS, {}, gatewayToken);
  // What the background worker does next: the outbox reaches Qdrant, so the scrape sees it empty on both stores.
  if (app.qdrant) await app.services.vectors.syncRemote(10_000);
});
afterAll(() => app.close());

describe('/metrics access', () => {
  it('is refused without the metrics token, and with a wrong one', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('metrics-token-0123456780')).status).toBe(401);
  });

  it('is not found on the public port when no metrics token is configured', async () => {
    const plain = await startTestApp();
    try {
      const res = await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('answers in the Prometheus text format with the process metrics', async () => {
    const res = await scrape();
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('# TYPE mnemo_graphql_requests_total counter');
    // prom-client counts CPU time from when the app registered its metrics: on a busy machine not one tick may have passed.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('GraphQL operations', () => {
  it('counts each root field by outcome: OK, or the code the caller got', async () => {
    const text = await metricsText();
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="retrieve",outcome="OK"}')).toBe(1);
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="memorySettings",outcome="FORBIDDEN"}')).toBe(1);
    expect(sample(text, 'mnemo_graphql_request_duration_seconds_count{type="query",field="retrieve"}')).toBe(1);
  });

  it('labels a field the schema lacks as unknown, never with the name the caller sent', async () => {
    await app.gqlRaw('{ whatIsTheVaultCombination }');
    const text = await metricsText();
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="unknown",outcome="GRAPHQL_VALIDATION_FAILED"}')).toBe(1);
    expect(text).not.toContain('whatIsTheVaultCombination');
  });

  it('gives each aliased root field its own outcome', async () => {
    await app.gql(MetricsAliasedRootFieldsDocument, {}, gatewayToken);
    const text = await metricsText();
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="memory",outcome="BAD_USER_INPUT"}')).toBe(1);
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="accessTokens",outcome="FORBIDDEN"}')).toBe(1);
  });

  it('records how long each request waited for its turn on the event loop', async () => {
    const before = sample(await metricsText(), 'mnemo_request_turn_wait_seconds_count') ?? 0;
    await Promise.all([0, 1, 2].map(() => app.gql(GET_SETTINGS, {}, gatewayToken)));
    expect(sample(await metricsText(), 'mnemo_request_turn_wait_seconds_count')).toBe(before + 3);
  });

  it('counts a request without a valid token as UNAUTHENTICATED', async () => {
    await app.gql(GET_SETTINGS, {}, 'not-a-token');
    const text = await metricsText();
    expect(sample(text, 'mnemo_graphql_requests_total{type="query",field="memorySettings",outcome="UNAUTHENTICATED"}')).toBe(1);
  });
});

describe('retrieval, embedding and store', () => {
  it('counts retrievals by strategy and answering tier, with tokens injected and memories returned', async () => {
    const text = await metricsText();
    expect(sample(text, 'mnemo_retrievals_total{strategy="HYBRID",skipped="none"}')).toBe(1);
    expect(sample(text, 'mnemo_retrieval_tier_answers_total{tier="keyword"}')).toBe(1);
    expect(sample(text, 'mnemo_retrieval_memories_returned_sum')).toBe(1);
    expect(sample(text, 'mnemo_retrieval_tokens_injected_sum')).toBeGreaterThan(0);
  });

  it('counts calls to the embedding model and their batch sizes', async () => {
    const text = await metricsText();
    expect(sample(text, 'mnemo_embedding_calls_total{source="static",outcome="ok"}')).toBeGreaterThan(0);
    expect(sample(text, 'mnemo_embedding_batch_size_count{source="static"}')).toBeGreaterThan(0);
    expect(text).toContain('mnemo_embedding_cache_misses_total');
  });

  it('reports memories by state for the whole server, the database size, reindex jobs and the Qdrant outbox', async () => {
    const text = await metricsText();
    expect(sample(text, 'mnemo_memories{state="active"}')).toBe(1);
    expect(sample(text, 'mnemo_memories{state="archived"}')).toBe(0);
    expect(sample(text, 'mnemo_database_bytes{file="db"}')).toBeGreaterThan(0);
    expect(sample(text, 'mnemo_reindex_jobs{state="running"}')).toBe(0);
    expect(sample(text, 'mnemo_reindex_progress_ratio')).toBe(0);
    expect(sample(text, 'mnemo_qdrant_outbox_backlog')).toBe(0);
    expect(sample(text, 'mnemo_qdrant_sync_lag_seconds')).toBe(0);
  });

  it('never names an API key, a token, a memory or a query', async () => {
    const text = await metricsText();
    for (const secret of [API_KEY, gatewayToken, METRICS_TOKEN, 'vault', SECRET_QUERY]) expect(text).not.toContain(secret);
  });
});
