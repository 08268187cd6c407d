import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingError, l2normalize } from '../../server/embedding/embedder.ts';
import { MAX_RETRY_AFTER_MS, RemoteEmbedder, type RemoteEmbedderOptions, retryAfterMs } from '../../server/embedding/remote.ts';
import { fakeEmbedding, type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';

const MODEL = 'text-embedding-3-small';

let api: ModelApiDouble;
let sleeps: number[];
beforeEach(async () => {
  api = await startModelApi({ dimension: 8 });
  sleeps = [];
});
afterEach(() => api.close());

/** A client of the double whose waits between retries are recorded instead of slept. */
const embedder = (options: Partial<RemoteEmbedderOptions> = {}) =>
  new RemoteEmbedder({
    baseUrl: api.baseUrl,
    model: MODEL,
    apiKey: api.apiKey,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });

const memories = (n: number) => Array.from({ length: n }, (_, i) => `memory number ${i}`);
const norm = (v: ArrayLike<number>) => Math.hypot(...Array.from(v));
/** What the client should return for a text: the double's raw vector, normalised. */
const expected = (text: string, dimension = 8, model = MODEL) => l2normalize(Float32Array.from(fakeEmbedding(model, text, dimension)));

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EmbeddingError);
  return err as EmbeddingError;
}

describe('embedding texts with an OpenAI-compatible API', () => {
  it('sends 150 texts as requests of 64, 64 and 22 and returns the vectors in input order', async () => {
    const texts = memories(150);
    const vectors = await embedder().embed(texts);
    expect(api.requests.map((r) => r.body.input.length)).toEqual([64, 64, 22]);
    expect(api.requests.flatMap((r) => r.body.input)).toEqual(texts);
    expect(vectors).toHaveLength(150);
    expect(vectors).toEqual(texts.map((text) => expected(text)));
  });

  it('posts the model, the inputs and float encoding with the API key as a bearer token', async () => {
    await embedder().embed(['likes tea']);
    const [request] = api.requests;
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.headers.authorization).toBe(`Bearer ${api.apiKey}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({ model: MODEL, input: ['likes tea'], encoding_format: 'float' });
  });

  it('returns unit-length vectors although the provider does not normalise them', async () => {
    expect(norm(fakeEmbedding(MODEL, 'likes tea', 8))).not.toBeCloseTo(1, 2);
    const [vector] = await embedder().embed(['likes tea']);
    expect(norm(vector!)).toBeCloseTo(1, 5);
  });

  it('puts vectors in input order by their index when the provider lists them in another order', async () => {
    api.inject({ kind: 'reverse' });
    const vectors = await embedder().embed(['first', 'second', 'third']);
    expect(vectors).toEqual([expected('first'), expected('second'), expected('third')]);
  });

  it('accepts a base URL with a trailing slash', async () => {
    await embedder({ baseUrl: `${api.baseUrl}/` }).embed(['x']);
    expect(api.requests[0]!.path).toBe('/v1/embeddings');
  });

  it('returns no vectors for no texts, without a request', async () => {
    expect(await embedder().embed([])).toEqual([]);
    expect(api.requests).toHaveLength(0);
  });

  it('sends an empty text as a single space, which OpenAI accepts', async () => {
    const vectors = await embedder().embed(['', 'not empty']);
    expect(api.requests[0]!.body.input).toEqual([' ', 'not empty']);
    expect(vectors).toHaveLength(2);
  });
});

describe('the vector dimension', () => {
  it('asks a text-embedding-3 model for the configured dimension', async () => {
    const client = embedder({ dimension: 4 });
    const [vector] = await client.embed(['likes tea']);
    expect(api.requests[0]!.body.dimensions).toBe(4);
    expect(vector).toHaveLength(4);
    expect(client.dimension()).toBe(4);
  });

  it('does not send the dimension to a model that cannot shorten its vectors', async () => {
    const client = embedder({ model: 'text-embedding-ada-002', dimension: 8 });
    await client.embed(['likes tea']);
    expect(api.requests[0]!.body).not.toHaveProperty('dimensions');
  });

  it('learns the dimension from the first response when none is configured', async () => {
    const client = embedder();
    expect(client.dimension()).toBeNull();
    await client.embed(['likes tea']);
    expect(client.dimension()).toBe(8);
  });

  it('rejects a later response whose vectors have another size than the first', async () => {
    const client = embedder();
    await client.embed(['likes tea']);
    api.inject({ kind: 'wrong_dimension', dimension: 5 });
    expect((await failure(client.embed(['likes coffee']))).kind).toBe('bad_response');
    expect(client.dimension()).toBe(8);
  });

  it('rejects vectors of another size than the configured dimension', async () => {
    const client = embedder({ model: 'text-embedding-ada-002', dimension: 16 });
    const err = await failure(client.embed(['likes tea']));
    expect(err.kind).toBe('bad_response');
    expect(err.message).toContain('8 dimensions where 16 are expected');
  });
});

describe('malformed responses', () => {
  it('rejects a response with fewer vectors than texts', async () => {
    api.inject({ kind: 'wrong_count' });
    const err = await failure(embedder().embed(['a', 'b', 'c']));
    expect(err.kind).toBe('bad_response');
    expect(err.message).toContain('2 embeddings for 3 inputs');
  });

  it('rejects numbers that are not finite', async () => {
    api.inject({ kind: 'raw', body: '{"data":[{"index":0,"embedding":[1e999,0.5]}]}' });
    expect((await failure(embedder().embed(['a']))).kind).toBe('bad_response');
  });

  it('rejects a body without a data array', async () => {
    api.inject({ kind: 'raw', body: '{"object":"list"}' });
    expect((await failure(embedder().embed(['a']))).kind).toBe('bad_response');
  });

  it('rejects a body that is not JSON', async () => {
    api.inject({ kind: 'raw', body: '<html>gateway</html>' });
    expect((await failure(embedder().embed(['a']))).kind).toBe('bad_response');
  });

  it('rejects two vectors for the same index', async () => {
    api.inject({ kind: 'raw', body: '{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[3,4]}]}' });
    expect((await failure(embedder().embed(['a', 'b']))).kind).toBe('bad_response');
  });
});

describe('inputs longer than the model accepts', () => {
  // The double counts with cl100k_base, as OpenAI does; the client only knows o200k_base.
  const limited = async () => {
    await api.close();
    api = await startModelApi({ dimension: 8, maxInputTokens: 100 });
  };

  it('cuts an over-long English input so the provider accepts it, leaving short inputs alone', async () => {
    await limited();
    const long = 'The user keeps notes about every deployment they run. '.repeat(40);
    await embedder({ maxInputTokens: 100 }).embed([long, 'short']);
    const [sent, short] = api.requests[0]!.body.input as string[];
    expect(countCl100k(sent!)).toBeLessThanOrEqual(100);
    expect(countCl100k(sent!)).toBeGreaterThan(60);
    expect(long.startsWith(sent!.slice(0, -1))).toBe(true);
    expect(sent!.endsWith('…')).toBe(true);
    expect(short).toBe('short');
  });

  it.each([
    ['Tamil', 'பயனர் ஒவ்வொரு எடிட்டரிலும் இருண்ட பயன்முறையை விரும்புகிறார். '],
    ['Hindi', 'उपयोगकर्ता हर संपादक में डार्क मोड पसंद करता है। '],
    ['emoji', '👨‍👩‍👧‍👦🏳️‍🌈🧑🏿‍💻 '],
  ])('cuts over-long %s text far enough for a tokenizer that needs more tokens for it than ours', async (_, sentence) => {
    await limited();
    await embedder({ maxInputTokens: 100 }).embed([sentence.repeat(60)]);
    expect(countCl100k(api.requests[0]!.body.input[0])).toBeLessThanOrEqual(100);
  });

  it('reports the provider refusing an input as request_failed with its message, without retrying', async () => {
    await limited();
    const err = await failure(embedder({ maxInputTokens: 10_000 }).embed(['word '.repeat(500)]));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain("HTTP 400: This model's maximum context length is 100 tokens");
    expect(api.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('rate limits and failing providers', () => {
  it('retries after a 429, waiting as long as Retry-After says', async () => {
    api.inject({ kind: 'rate_limit', retryAfter: '2' });
    const vectors = await embedder().embed(['a']);
    expect(vectors).toEqual([expected('a')]);
    expect(sleeps).toEqual([2000]);
    expect(api.requests).toHaveLength(2);
  });

  it('waits at most 30 s however long Retry-After asks for', async () => {
    api.inject({ kind: 'rate_limit', retryAfter: '600' });
    await embedder().embed(['a']);
    expect(sleeps).toEqual([MAX_RETRY_AFTER_MS]);
  });

  it('reads Retry-After given as an HTTP date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:27:55 GMT');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), now)).toBe(5000);
  });

  it('gives up with rate_limited after the configured number of retries', async () => {
    api.inject({ kind: 'rate_limit', retryAfter: '1' }, Infinity);
    const err = await failure(embedder({ maxRetries: 3 }).embed(['a']));
    expect(err.kind).toBe('rate_limited');
    expect(err.message).toContain('Rate limit reached');
    expect(api.requests).toHaveLength(4);
    expect(sleeps).toEqual([1000, 1000, 1000]);
  });

  it('backs off after a 429 without Retry-After', async () => {
    api.inject({ kind: 'rate_limit' });
    await embedder().embed(['a']);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
  });

  it('retries a 503 with growing, jittered backoff and then succeeds', async () => {
    api.inject({ kind: 'status', status: 503 }, 2);
    expect(await embedder().embed(['a'])).toEqual([expected('a')]);
    expect(api.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBeGreaterThanOrEqual(500);
    expect(sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it('gives up with request_failed and the provider message after repeated 500s', async () => {
    api.inject({ kind: 'status', status: 500 }, Infinity);
    const err = await failure(embedder({ maxRetries: 2 }).embed(['a']));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain('HTTP 500: The server had an error while processing your request');
    expect(api.requests).toHaveLength(3);
  });

  it('retries when the connection drops without an answer', async () => {
    api.inject({ kind: 'reset' });
    expect(await embedder().embed(['a'])).toEqual([expected('a')]);
    expect(api.requests).toHaveLength(2);
  });

  it('gives up with timeout when the provider does not answer in time, without retrying', async () => {
    api.inject({ kind: 'hang' }, Infinity);
    const err = await failure(embedder({ timeoutMs: 100 }).embed(['a']));
    expect(err.kind).toBe('timeout');
    expect(api.requests).toHaveLength(1);
  });

  it('reports a 400 as request_failed at once with the provider message but never the API key', async () => {
    api.inject({ kind: 'status', status: 400, message: `Header "Authorization: Bearer ${api.apiKey}" is malformed` });
    const err = await failure(embedder().embed(['a']));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain('HTTP 400: Header "Authorization: Bearer [redacted]" is malformed');
    expect(err.message).not.toContain(api.apiKey);
    expect(api.requests).toHaveLength(1);
  });

  it('reports a wrong API key with the provider message, without retrying', async () => {
    const err = await failure(embedder({ apiKey: 'sk-wrong-key-0123456789' }).embed(['a']));
    expect(err.kind).toBe('request_failed');
    expect(err.message).toContain('HTTP 401: Incorrect API key provided');
    expect(api.requests).toHaveLength(1);
  });
});

describe('configuration and status', () => {
  it('fails with no_key without sending anything when no key is configured', async () => {
    const client = embedder({ apiKey: null });
    expect((await failure(client.load())).kind).toBe('no_key');
    expect((await failure(client.embed(['a']))).kind).toBe('no_key');
    expect(client.state()).toBe('failed');
    expect(client.lastError()?.kind).toBe('no_key');
    expect(api.requests).toHaveLength(0);
  });

  it('is ready after load() with a key, without sending a request', async () => {
    const client = embedder();
    expect(client.state()).toBe('idle');
    await client.load();
    expect(client.state()).toBe('ready');
    expect(api.requests).toHaveLength(0);
  });

  it('keeps the last failure for the status and clears it after a success', async () => {
    const client = embedder({ maxRetries: 0 });
    api.inject({ kind: 'status', status: 503 });
    await failure(client.embed(['a']));
    expect(client.lastError()?.kind).toBe('request_failed');
    expect(client.state()).toBe('ready');
    await client.embed(['a']);
    expect(client.lastError()).toBeNull();
  });

  it('refuses a batch size above the 2048 inputs OpenAI accepts', () => {
    expect(() => embedder({ batchSize: 2049 })).toThrow(RangeError);
  });
});
