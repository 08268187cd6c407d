import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteReranker, type RemoteRerankerOptions, RerankError } from '../../server/rerank/reranker.ts';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';

let api: ModelApiDouble;
beforeEach(async () => {
  api = await startModelApi();
});
afterEach(() => api.close());

const reranker = (options: Partial<RemoteRerankerOptions> = {}) =>
  new RemoteReranker({ baseUrl: api.baseUrl, model: 'rerank-v3.5', apiKey: api.apiKey, ...options });

const DOCUMENTS = ['Deploys on Fridays', 'Prefers dark mode in the editor', 'Uses dark chocolate in recipes', 'Lives in Berlin'];

async function failure(promise: Promise<unknown>): Promise<RerankError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RerankError);
  return err as RerankError;
}

describe('reranking documents with a Cohere/Jina-style API', () => {
  it('orders documents by relevance to the query, best first', async () => {
    const results = await reranker().rerank('dark mode editor', DOCUMENTS);
    expect(results.map((r) => r.index)).toEqual([1, 2, 0, 3]);
    expect(results[0]!.score).toBe(1);
  });

  it('returns only the top N documents', async () => {
    const results = await reranker().rerank('dark mode editor', DOCUMENTS, 2);
    expect(results.map((r) => r.index)).toEqual([1, 2]);
    expect(api.requests[0]!.body.top_n).toBe(2);
  });

  it('posts the model, query, documents and top_n with the API key as a bearer token', async () => {
    await reranker().rerank('dark mode', DOCUMENTS);
    const [request] = api.requests;
    expect(request!.path).toBe('/v1/rerank');
    expect(request!.headers.authorization).toBe(`Bearer ${api.apiKey}`);
    expect(request!.body).toEqual({ model: 'rerank-v3.5', query: 'dark mode', documents: DOCUMENTS, top_n: 4 });
  });

  it('sorts the results itself when the provider does not', async () => {
    api.inject({ kind: 'reverse' });
    const results = await reranker().rerank('dark mode editor', DOCUMENTS);
    expect(results.map((r) => r.index)).toEqual([1, 2, 0, 3]);
  });

  it('returns nothing for no documents, without a request', async () => {
    expect(await reranker().rerank('dark mode', [])).toEqual([]);
    expect(api.requests).toHaveLength(0);
  });
});

describe('when reranking fails', () => {
  it('gives up with timeout when the provider does not answer in time, without retrying', async () => {
    api.inject({ kind: 'hang' }, Infinity);
    expect((await failure(reranker({ timeoutMs: 100 }).rerank('dark mode', DOCUMENTS))).kind).toBe('timeout');
    expect(api.requests).toHaveLength(1);
  });

  it('reports an error status as request_failed with the provider message, without retrying', async () => {
    api.inject({ kind: 'status', status: 503 });
    const err = await failure(reranker().rerank('dark mode', DOCUMENTS));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain('HTTP 503: The engine is currently overloaded');
    expect(api.requests).toHaveLength(1);
  });

  it('reports a wrong API key with the provider message', async () => {
    const err = await failure(reranker({ apiKey: 'wrong-key-0123456789' }).rerank('dark mode', DOCUMENTS));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain('HTTP 401: Incorrect API key provided');
  });

  it('reports a dropped connection as request_failed', async () => {
    api.inject({ kind: 'reset' });
    expect((await failure(reranker().rerank('dark mode', DOCUMENTS))).kind).toBe('request_failed');
  });

  it('fails with no_key without sending anything when no key is configured', async () => {
    expect((await failure(reranker({ apiKey: null }).rerank('dark mode', DOCUMENTS))).kind).toBe('no_key');
    expect(api.requests).toHaveLength(0);
  });

  it('rejects a result for a document that does not exist', async () => {
    api.inject({ kind: 'raw', body: '{"results":[{"index":4,"relevance_score":0.9}]}' });
    expect((await failure(reranker().rerank('dark mode', DOCUMENTS))).kind).toBe('bad_response');
  });

  it('rejects a result without a numeric score', async () => {
    api.inject({ kind: 'raw', body: '{"results":[{"index":0,"relevance_score":"high"}]}' });
    expect((await failure(reranker().rerank('dark mode', DOCUMENTS))).kind).toBe('bad_response');
  });

  it('rejects the same document ranked twice', async () => {
    api.inject({ kind: 'raw', body: '{"results":[{"index":1,"relevance_score":0.9},{"index":1,"relevance_score":0.8}]}' });
    expect((await failure(reranker().rerank('dark mode', DOCUMENTS))).kind).toBe('bad_response');
  });

  it('rejects a body without results', async () => {
    api.inject({ kind: 'raw', body: '{"data":[]}' });
    expect((await failure(reranker().rerank('dark mode', DOCUMENTS))).kind).toBe('bad_response');
  });
});
