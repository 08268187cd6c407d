import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * A test double of the hosted model APIs mnemo talks to: OpenAI's `POST /v1/embeddings` and the
 * Cohere/Jina-style `POST /v1/rerank`, on 127.0.0.1 at a free port. It behaves like the real services in
 * what the clients depend on: bearer auth with OpenAI's 401 body, the same validation (400 for a missing
 * model or input, empty strings, more than 2048 inputs, an input over the model's context length counted
 * in cl100k_base like OpenAI, `dimensions` on a model that cannot shorten its vectors), `index`ed results
 * with `usage`, and `dimensions` honoured for text-embedding-3 models. Embeddings are deterministic per
 * model and text, but not unit length, so clients must normalise. Reranking scores the share of query words
 * found in each document.
 *
 * Faults are scripted with inject() and used up by the next requests, in order, on either endpoint.
 */
export interface ModelApiDouble {
  /** API root to configure clients with, e.g. http://127.0.0.1:PORT/v1. */
  readonly baseUrl: string;
  /** null: a local server that asks for no key (Ollama, vLLM), and ignores any it is sent. */
  readonly apiKey: string | null;
  /** Every request received, in order, including rejected ones. */
  readonly requests: RecordedRequest[];
  /** Makes the next `times` requests (default 1; Infinity for all) fail or misbehave as described. */
  inject(fault: Fault, times?: number): void;
  /**
   * Holds every embeddings request with an input containing `text` until release(), then answers them as usual, and
   * those after: a job that embeds can be caught while it runs, without relying on timing. `reached` resolves once one
   * is held.
   */
  hold(text: string): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

export interface ModelApiOptions {
  /** The only key accepted (default 'sk-test-double-key'); null accepts requests without one. */
  apiKey?: string | null;
  /** Size of the vectors of every model unless `dimensions` asks for fewer (default 8). */
  dimension?: number;
  /** Context length per input in cl100k_base tokens (default 8191, OpenAI's embedding models). */
  maxInputTokens?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: any JSON may arrive; tests read back the fields their client sent.
  body: any;
}

export type Fault =
  /** 429 with OpenAI's rate-limit body; `retryAfter` becomes the Retry-After header when given. */
  | { kind: 'rate_limit'; retryAfter?: string }
  /** Any error status with an OpenAI-style error body, e.g. 500, 503 or 400. */
  | { kind: 'status'; status: number; message?: string }
  /** Never answers; the connection stays open until the client gives up or the double closes. */
  | { kind: 'hang' }
  /** Drops the connection without an answer, as a crashing proxy does. */
  | { kind: 'reset' }
  /** Embeddings only: vectors of this size instead of the right one. */
  | { kind: 'wrong_dimension'; dimension: number }
  /** Embeddings only: one embedding fewer than inputs. */
  | { kind: 'wrong_count' }
  /** Returns the data or results in reverse order (indexes stay correct). */
  | { kind: 'reverse' }
  /** Answers with exactly this body, for shapes no real provider should send. */
  | { kind: 'raw'; status?: number; body: string };

const MAX_INPUTS = 2048;
const DEFAULT_KEY = 'sk-test-double-key';

export async function startModelApi(options: ModelApiOptions = {}): Promise<ModelApiDouble> {
  const apiKey = options.apiKey === undefined ? DEFAULT_KEY : options.apiKey;
  const dimension = options.dimension ?? 8;
  const maxInputTokens = options.maxInputTokens ?? 8191;
  const requests: RecordedRequest[] = [];
  const faults: { fault: Fault; remaining: number }[] = [];
  const holds = new Set<{ text: string; reach(): void; released: Promise<void> }>();

  const nextFault = (): Fault | null => {
    const next = faults[0];
    if (!next) return null;
    if (--next.remaining <= 0) faults.shift();
    return next.fault;
  };

  const heldBy = (body: unknown) => {
    const input = (body as { input?: unknown } | null)?.input;
    const texts = (Array.isArray(input) ? input : [input]).filter((text): text is string => typeof text === 'string');
    return [...holds].find((hold) => texts.some((text) => text.includes(hold.text)));
  };

  const server = createServer((req, res) => {
    void readBody(req).then(
      async (raw) => {
        const request = recorded(req, raw);
        requests.push(request);
        const { path, body } = request;
        const endpoint = req.method === 'POST' && (path === '/v1/embeddings' || path === '/v1/rerank') ? path : null;
        if (!endpoint)
          return send(res, 404, openAiError(`Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error', 'unknown_url'));

        const authError = apiKey === null ? null : checkAuth(req.headers.authorization, apiKey);
        if (authError) return send(res, 401, endpoint === '/v1/rerank' ? { message: authError.error.message } : authError);

        const hold = endpoint === '/v1/embeddings' ? heldBy(body) : undefined;
        if (hold) {
          hold.reach();
          await hold.released;
        }

        const fault = nextFault();
        switch (fault?.kind) {
          case 'rate_limit':
            return send(
              res,
              429,
              openAiError(
                'Rate limit reached for requests per min (RPM): Limit 3000, Used 3000, Requested 1.',
                'requests',
                'rate_limit_exceeded',
              ),
              fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
            );
          case 'status':
            return send(res, fault.status, openAiError(fault.message ?? defaultStatusMessage(fault.status), 'server_error', null));
          case 'hang':
            return;
          case 'reset':
            return req.socket.destroy();
          case 'raw':
            res.writeHead(fault.status ?? 200, { 'content-type': 'application/json' });
            return res.end(fault.body);
        }

        if (endpoint === '/v1/embeddings') {
          const result = embeddings(body, { dimension, maxInputTokens });
          if ('error' in result) return send(res, 400, result);
          if (fault?.kind === 'wrong_dimension') {
            for (const item of result.data) item.embedding = fakeEmbedding(result.model, `resized:${item.index}`, fault.dimension);
          }
          if (fault?.kind === 'wrong_count') result.data.pop();
          if (fault?.kind === 'reverse') result.data.reverse();
          return send(res, 200, result);
        }
        const result = rerank(body);
        if ('message' in result) return send(res, 400, result);
        if (fault?.kind === 'reverse') result.results.reverse();
        return send(res, 200, result);
      },
      () => req.socket.destroy(),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    inject(fault, times = 1) {
      faults.push({ fault, remaining: times });
    },
    hold(text) {
      let reach!: () => void;
      const reached = new Promise<void>((resolve) => (reach = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const hold = { text, reach, released };
      holds.add(hold);
      return {
        reached,
        release: () => {
          holds.delete(hold);
          release();
        },
      };
    },
    close() {
      // Hanging requests would otherwise keep close() waiting for ever.
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/**
 * The raw (not normalised) vector the double returns for a text: seeded by SHA-256 of model and text,
 * components in [-2, 2). Tests use it to check what the client did with the vector.
 */
export function fakeEmbedding(model: string, text: string, dimension: number): number[] {
  const seed = createHash('sha256').update(`${model}\0${text}`).digest();
  let state = seed.readUInt32LE(0) || 1;
  const vector: number[] = [];
  for (let i = 0; i < dimension; i++) {
    // xorshift32: deterministic, fast, and plenty random for distinct test vectors.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    vector.push((state / 0x1_0000_0000) * 4 - 2);
  }
  return vector;
}

/** Lower-case words of a text, as the rerank endpoint compares them. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function checkAuth(header: string | undefined, apiKey: string): OpenAiError | null {
  if (!header?.startsWith('Bearer ')) {
    return openAiError(
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      'invalid_request_error',
      null,
    );
  }
  const given = header.slice('Bearer '.length);
  if (given === apiKey) return null;
  // OpenAI shows only the ends of a wrong key.
  const masked = given.length > 8 ? `${given.slice(0, 3)}${'*'.repeat(given.length - 7)}${given.slice(-4)}` : '***';
  return openAiError(
    `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    'invalid_request_error',
    'invalid_api_key',
  );
}

interface EmbeddingsResponse {
  object: 'list';
  data: { object: 'embedding'; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

function embeddings(json: unknown, limits: { dimension: number; maxInputTokens: number }): EmbeddingsResponse | OpenAiError {
  const invalid = (message: string, param: string | null = null) => openAiError(message, 'invalid_request_error', null, param);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return invalid('We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.');
  }
  const body = json as Record<string, unknown>;
  const model = body.model;
  if (typeof model !== 'string' || !model) return invalid('you must provide a model parameter', 'model');
  if (body.input === undefined) return invalid("'input' is a required property", 'input');
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
  if (inputs.length === 0 || !inputs.every((x) => typeof x === 'string' && x.length > 0)) {
    return invalid("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input');
  }
  if (inputs.length > MAX_INPUTS) return invalid(`'$.input' is too long: at most ${MAX_INPUTS} inputs per request.`, 'input');
  const texts = inputs as string[];
  const tokens = texts.map((text) => countCl100k(text));
  const longest = Math.max(...tokens);
  if (longest > limits.maxInputTokens) {
    return invalid(
      `This model's maximum context length is ${limits.maxInputTokens} tokens, however you requested ${longest} tokens (${longest} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
    );
  }
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    return invalid(`'${String(format)}' is not one of ['float', 'base64'] - 'encoding_format'`, 'encoding_format');
  let size = limits.dimension;
  if (body.dimensions !== undefined) {
    if (!model.startsWith('text-embedding-3')) return invalid('This model does not support specifying dimensions.', 'dimensions');
    if (
      typeof body.dimensions !== 'number' ||
      !Number.isInteger(body.dimensions) ||
      body.dimensions < 1 ||
      body.dimensions > limits.dimension
    ) {
      return invalid(`'dimensions' must be an integer from 1 to ${limits.dimension}.`, 'dimensions');
    }
    size = body.dimensions;
  }
  const total = tokens.reduce((a, b) => a + b, 0);
  return {
    object: 'list',
    data: texts.map((text, index) => {
      const vector = fakeEmbedding(model, text, size);
      const embedding = format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector;
      return { object: 'embedding' as const, index, embedding };
    }),
    model,
    usage: { prompt_tokens: total, total_tokens: total },
  };
}

interface RerankResponse {
  id: string;
  results: { index: number; relevance_score: number }[];
  meta: { billed_units: { search_units: number } };
}

/** Cohere v2's rerank, with Cohere's `{message}` error bodies. */
function rerank(json: unknown): RerankResponse | { message: string } {
  if (typeof json !== 'object' || json === null) return { message: 'invalid request: body must be a JSON object' };
  const body = json as Record<string, unknown>;
  if (typeof body.model !== 'string' || !body.model) return { message: 'invalid request: model must be specified' };
  if (typeof body.query !== 'string' || !body.query.trim()) return { message: 'invalid request: query must not be empty' };
  if (!Array.isArray(body.documents) || !body.documents.every((d: unknown) => typeof d === 'string')) {
    return { message: 'invalid request: documents must be a list of strings' };
  }
  const documents = body.documents as string[];
  const topN = body.top_n ?? documents.length;
  if (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 1)
    return { message: 'invalid request: top_n must be a positive integer' };
  const query = words(body.query);
  const results = documents
    .map((document, index) => {
      const found = words(document);
      const shared = [...query].filter((word) => found.has(word)).length;
      return { index, relevance_score: query.size === 0 ? 0 : shared / query.size };
    })
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN);
  return { id: randomUUID(), results, meta: { billed_units: { search_units: 1 } } };
}

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function openAiError(message: string, type: string, code: string | null, param: string | null = null): OpenAiError {
  return { error: { message, type, param, code } };
}

function defaultStatusMessage(status: number): string {
  if (status === 503) return 'The engine is currently overloaded, please try again later.';
  if (status >= 500) return 'The server had an error while processing your request. Sorry about that!';
  return 'Invalid request.';
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A request as the doubles record it: its body parsed as JSON, or kept as text when it is none (then answered 400). */
export function recorded(req: IncomingMessage, raw: string): RecordedRequest {
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // Kept as text.
  }
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
}
