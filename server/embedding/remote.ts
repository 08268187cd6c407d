import { z } from 'zod';
import { countTokens, truncateToTokens } from '../tokenCount.ts';
import { checkInput, wholeOption } from '../validation.ts';
import { type Embedder, type EmbedderState, EmbeddingError, l2normalize } from './embedder.ts';
import { badIndex, endpointUrl, listIndex, parseProviderBody, postToProvider } from './providerHttp.ts';

export interface RemoteEmbedderOptions {
  /** API root as in the OpenAI SDKs, e.g. https://api.openai.com/v1; requests go to `${baseUrl}/embeddings`. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** The endpoint needs no key (a local server): requests go without an Authorization header. */
  keyless?: boolean;
  /** Requested vector size. Sent as `dimensions` to text-embedding-3 models only; otherwise just checked. */
  dimension?: number | null;
  /** Inputs per request (default 64; at most 2048, OpenAI's limit). */
  batchSize?: number;
  /** The model's input limit in the provider's tokens (default 8191, OpenAI's embedding models). */
  maxInputTokens?: number;
  /** Per HTTP request, including reading the body (default 15000). */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a network error (default 3, so at most 4 attempts per batch). */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** How to wait between retries; tests pass one that records the wait and returns at once. */
  sleep?: (ms: number) => Promise<void>;
}

/** OpenAI rejects requests with more inputs than this. */
const MAX_BATCH_SIZE = 2048;
/** A Retry-After longer than this is cut short: the caller would rather fail than stall for minutes. */
export const MAX_RETRY_AFTER_MS = 30_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/**
 * How many provider tokens one o200k token of ASCII text may become. We count with o200k_base (the only
 * tokenizer mnemo ships) while OpenAI's embedding models count with cl100k_base and other providers with
 * their own. On ASCII text (English, code, URLs, JSON) cl100k measured 0.97–1.14× o200k, so 1.2 leaves a
 * margin. Non-ASCII text is different: cl100k needs up to 4.3× as many tokens as o200k (Tamil, Burmese;
 * Hindi 3.1×, Greek 2.7×), so no fixed factor on o200k is both safe and not wasteful there; see
 * estimatedProviderTokens for how those bytes are counted instead.
 */
const ASCII_EXPANSION = 1.2;

/**
 * An embedder for any OpenAI-compatible embeddings API (OpenAI, Azure-style proxies, LiteLLM, vLLM, Ollama's
 * /v1, ...). Vectors come back L2-normalised in input order; the dimension is the configured one or, when
 * none is configured, the size of the first response, fixed from then on.
 *
 * `state()` is 'ready' once load() or embed() has found a key ('failed' when there is none); request
 * failures do not change it, they only set lastError(), and a later successful request clears that again
 * so the engine status shows current trouble rather than history.
 */
export class RemoteEmbedder implements Embedder {
  readonly source = 'remote' as const;
  readonly model: string;

  readonly #endpoint: string;
  readonly #host: string;
  readonly #apiKey: string | null;
  readonly #keyless: boolean;
  /** The size asked for in the options, sent as `dimensions` to models that accept it. */
  readonly #configuredDimension: number | null;
  readonly #batchSize: number;
  readonly #maxInputTokens: number;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  #dimension: number | null;
  #state: EmbedderState = 'idle';
  #lastError: EmbeddingError | null = null;

  constructor(options: RemoteEmbedderOptions) {
    this.model = options.model;
    this.#endpoint = endpointUrl(options.baseUrl, 'embeddings');
    this.#host = new URL(this.#endpoint).host;
    // Trimmed: keys read from files or env often end in a newline, which the provider would reject.
    this.#apiKey = options.apiKey?.trim() || null;
    this.#keyless = options.keyless ?? false;
    this.#configuredDimension = options.dimension ?? null;
    this.#dimension = this.#configuredDimension;
    this.#batchSize = options.batchSize ?? 64;
    this.#maxInputTokens = options.maxInputTokens ?? 8191;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));

    // Bad numbers are configuration mistakes, not provider failures: say so at startup, not per request.
    if (!options.model.trim()) throw new TypeError('RemoteEmbedder: model must not be empty');
    const checked = checkInput(numberOptions, {
      dimension: this.#dimension,
      batchSize: this.#batchSize,
      maxInputTokens: this.#maxInputTokens,
      timeoutMs: this.#timeoutMs,
      maxRetries: this.#maxRetries,
    });
    if (!checked.ok) throw new RangeError(`RemoteEmbedder: ${checked.problems}`);
  }

  dimension(): number | null {
    return this.#dimension;
  }

  /** Only checks the configuration: a probe request would cost money and time at every start. */
  async load(): Promise<void> {
    this.#requireKey();
  }

  state(): EmbedderState {
    return this.#state;
  }

  lastError(): EmbeddingError | null {
    return this.#lastError;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const apiKey = this.#requireKey();
    if (texts.length === 0) return [];
    const inputs = texts.map((text) => this.#prepareInput(text));
    const vectors: Float32Array[] = [];
    try {
      // One batch after another: parallel batches would only trip the provider's rate limit sooner.
      for (let start = 0; start < inputs.length; start += this.#batchSize) {
        vectors.push(...(await this.#embedBatch(inputs.slice(start, start + this.#batchSize), apiKey)));
      }
    } catch (err) {
      if (err instanceof EmbeddingError) this.#lastError = err;
      throw err;
    }
    this.#lastError = null;
    return vectors;
  }

  /** The key to send; null for a keyless endpoint. */
  #requireKey(): string | null {
    if (this.#apiKey === null && !this.#keyless) {
      const err = new EmbeddingError('no_key', `No API key is configured for the remote embedding model ${this.model}`);
      this.#state = 'failed';
      this.#lastError = err;
      throw err;
    }
    this.#state = 'ready';
    return this.#apiKey;
  }

  /** Fits a text into the model's input limit; an empty text becomes one space, as OpenAI rejects "". */
  #prepareInput(text: string): string {
    const fitted = fitToProviderLimit(text, this.#maxInputTokens);
    return fitted === '' ? ' ' : fitted;
  }

  /** Sends one batch, retrying 429s, 5xx and network errors; returns one normalised vector per input. */
  async #embedBatch(inputs: string[], apiKey: string | null): Promise<Float32Array[]> {
    const body = JSON.stringify({
      model: this.model,
      input: inputs,
      encoding_format: 'float',
      // Only the text-embedding-3 family can shorten its vectors; older models reject the parameter.
      ...(this.#configuredDimension !== null && this.model.startsWith('text-embedding-3') ? { dimensions: this.#configuredDimension } : {}),
    });
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#send(body, apiKey);
      if (outcome.ok) return this.#parse(outcome.body, inputs.length);
      if (attempt >= this.#maxRetries) throw outcome.error;
      await this.#sleep(outcome.retryAfterMs ?? backoffMs(attempt));
    }
  }

  /**
   * One HTTP attempt. Returns the body of a 2xx, or a failure worth retrying; throws failures that a retry
   * cannot fix (a timeout already used the whole budget, and a 4xx will only be rejected again).
   */
  async #send(body: string, apiKey: string | null): Promise<SendOutcome> {
    const reply = await postToProvider({ fetch: this.#fetch, endpoint: this.#endpoint, apiKey, body, timeoutMs: this.#timeoutMs });
    switch (reply.kind) {
      case 'ok':
        return { ok: true, body: reply.body };
      case 'timeout':
        throw new EmbeddingError('timeout', `Embedding request to ${this.#host} got no answer within ${this.#timeoutMs} ms`, {
          cause: reply.error,
        });
      case 'network':
        return {
          ok: false,
          error: new EmbeddingError('request_failed', `Embedding request to ${this.#host} failed: ${reply.reason}`, { cause: reply.error }),
          retryAfterMs: null,
        };
      case 'http': {
        const message = `Embedding request to ${this.#host} failed with ${reply.detail}`;
        if (reply.status === 429)
          return { ok: false, error: new EmbeddingError('rate_limited', message), retryAfterMs: retryAfterMs(reply.headers) };
        if (reply.status >= 500) return { ok: false, error: new EmbeddingError('request_failed', message), retryAfterMs: null };
        throw new EmbeddingError('request_failed', message);
      }
    }
  }

  /** Checks the response fully before using any of it, so a broken provider never yields a wrong vector. */
  #parse(body: string, count: number): Float32Array[] {
    const bad = (why: string) => new EmbeddingError('bad_response', `Embedding response from ${this.#host} ${why}`);
    const { data } = parseProviderBody(body, embeddingsResponse, bad);
    if (data.length !== count) throw bad(`has ${data.length} embeddings for ${count} inputs`);

    let size: number | null = this.#dimension;
    const vectors: (Float32Array | undefined)[] = new Array(count);
    for (const { index, embedding } of data) {
      if (index >= count || vectors[index]) throw bad(badIndex(index));
      if (size !== null && embedding.length !== size) {
        throw bad(`has a vector of ${embedding.length} dimensions where ${size} are expected`);
      }
      size = embedding.length;
      const vector = Float32Array.from(embedding);
      // Checked after the float32 conversion: JSON like 1e39 parses fine but overflows to Infinity here.
      if (!vector.every(Number.isFinite)) throw bad('has a vector with non-finite numbers');
      vectors[index] = l2normalize(vector);
    }
    // The first complete response fixes the dimension; every later one is checked against it.
    this.#dimension ??= size;
    return vectors as Float32Array[];
  }
}

const notNumbers = 'has an embedding that is not a list of numbers';

/** OpenAI's embeddings response, as far as mnemo reads it; indexes are checked against the inputs after parsing. */
const embeddingsResponse = z.object(
  {
    data: z.array(
      z.object(
        {
          index: listIndex,
          embedding: z.array(z.number({ error: notNumbers }), { error: notNumbers }).min(1, notNumbers),
        },
        { error: 'has an item that is not an object' },
      ),
      { error: 'has no data array' },
    ),
  },
  { error: 'has no data array' },
);

type SendOutcome = { ok: true; body: string } | { ok: false; error: EmbeddingError; retryAfterMs: number | null };

/**
 * Cuts a text so the provider will accept it, erring on the short side: a text the provider rejects fails
 * its whole batch on every retry, while losing the tail of a very long text barely moves its embedding.
 * Texts of at most `limit` UTF-8 bytes are returned untouched without tokenising them, since a byte-level
 * BPE tokenizer (OpenAI's and most others) never makes more tokens than bytes.
 */
export function fitToProviderLimit(text: string, limit: number): string {
  let fitted = text;
  let budget = Math.floor(limit / ASCII_EXPANSION);
  for (;;) {
    if (utf8Length(fitted) <= limit) return fitted;
    fitted = truncateToTokens(fitted, budget);
    const tokens = countTokens(fitted);
    const estimate = estimatedProviderTokens(fitted, tokens);
    if (estimate <= limit) return fitted;
    // Shrink in proportion to the overshoot, and by at least one token so the loop ends.
    budget = Math.min(tokens - 1, Math.floor((tokens * limit) / estimate));
  }
}

/**
 * An upper estimate of the provider's token count: o200k tokens with the ASCII margin, plus one token per
 * UTF-8 byte of non-ASCII text. That last part is a true bound for byte-level BPE tokenizers and needs no
 * knowledge of the provider's vocabulary; it counts non-ASCII text twice, which errs on the short side.
 */
function estimatedProviderTokens(text: string, o200kTokens: number): number {
  return Math.ceil(ASCII_EXPANSION * o200kTokens) + (utf8Length(text) - asciiLength(text));
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function asciiLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x80) n++;
  return n;
}

/** Exponential backoff with jitter, so clients that failed together do not retry together. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * The wait a 429 asks for: OpenAI's `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date;
 * null when absent or unreadable (then the usual backoff applies). Capped at MAX_RETRY_AFTER_MS.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  const after = headers.get('retry-after');
  let wait: number | null = null;
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) wait = Number(ms);
  else if (after !== null && /^\d+(\.\d+)?$/.test(after.trim())) wait = Number(after) * 1000;
  else if (after !== null && !Number.isNaN(Date.parse(after))) wait = Date.parse(after) - now;
  return wait === null ? null : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.ceil(wait)));
}

const numberOptions = z.object({
  dimension: wholeOption('dimension', 1).nullable(),
  batchSize: wholeOption('batchSize', 1, MAX_BATCH_SIZE),
  maxInputTokens: wholeOption('maxInputTokens', 1),
  timeoutMs: wholeOption('timeoutMs', 1),
  maxRetries: wholeOption('maxRetries', 0),
});
