import { z } from 'zod';
import type { ProviderEndpoint } from '../embedding/provider.service.ts';
import { badIndex, endpointUrl, listIndex, parseProviderBody, postToProvider } from '../embedding/providerHttp.ts';
import { checkInput, wholeOption } from '../validation.ts';

/** One reranked document: its position in the documents given to rerank() and the model's relevance score. */
export interface RerankResult {
  index: number;
  score: number;
}

/** Reorders retrieved documents by relevance to a query with a cross-encoder model. */
export interface Reranker {
  readonly model: string;
  /**
   * The `topN` most relevant documents (all of them by default), best first. Rejects with a RerankError;
   * callers are expected to keep their own order then.
   */
  rerank(query: string, documents: readonly string[], topN?: number): Promise<RerankResult[]>;
}

export type RerankErrorKind = 'timeout' | 'request_failed' | 'bad_response' | 'no_key';

/** A failure of the rerank model, with a kind that callers and the engine status can act on. */
export class RerankError extends Error {
  constructor(
    readonly kind: RerankErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RerankError';
  }
}

export interface RemoteRerankerOptions {
  /** API root, e.g. https://api.cohere.com/v2 or https://api.jina.ai/v1; requests go to `${baseUrl}/rerank`. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** Per request (default 3000): reranking sits on the request path, so it must give up quickly. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * A reranker for Cohere- and Jina-style rerank APIs (`{model, query, documents, top_n}` in,
 * `{results: [{index, relevance_score}]}` out). It never retries: a retry would double the latency of the
 * request it sits on, and the caller's own order is a fine answer when the reranker is unavailable.
 */
export class RemoteReranker implements Reranker {
  readonly model: string;
  readonly #endpoint: string;
  readonly #host: string;
  readonly #apiKey: string | null;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: RemoteRerankerOptions) {
    this.model = options.model;
    this.#endpoint = endpointUrl(options.baseUrl, 'rerank');
    this.#host = new URL(this.#endpoint).host;
    // Trimmed: keys read from files or env often end in a newline, which the provider would reject.
    this.#apiKey = options.apiKey?.trim() || null;
    this.#timeoutMs = options.timeoutMs ?? 3000;
    this.#fetch = options.fetch ?? globalThis.fetch;
    const timeout = checkInput(timeoutMsSchema, this.#timeoutMs);
    if (!timeout.ok) throw new RangeError(`RemoteReranker: ${timeout.problems}`);
  }

  async rerank(query: string, documents: readonly string[], topN?: number): Promise<RerankResult[]> {
    const apiKey = this.#apiKey;
    if (apiKey === null) throw new RerankError('no_key', `No API key is configured for the rerank model ${this.model}`);
    const top = checkInput(topNSchema, topN);
    if (!top.ok) throw new RangeError(top.problems);
    if (documents.length === 0) return [];
    const wanted = Math.min(topN ?? documents.length, documents.length);
    const body = await this.#send(JSON.stringify({ model: this.model, query, documents, top_n: wanted }), apiKey);
    return this.#parse(body, documents.length).slice(0, wanted);
  }

  async #send(body: string, apiKey: string): Promise<string> {
    const reply = await postToProvider({ fetch: this.#fetch, endpoint: this.#endpoint, apiKey, body, timeoutMs: this.#timeoutMs });
    switch (reply.kind) {
      case 'ok':
        return reply.body;
      case 'timeout':
        throw new RerankError('timeout', `Rerank request to ${this.#host} got no answer within ${this.#timeoutMs} ms`, {
          cause: reply.error,
        });
      case 'network':
        throw new RerankError('request_failed', `Rerank request to ${this.#host} failed: ${reply.reason}`, { cause: reply.error });
      case 'http':
        throw new RerankError('request_failed', `Rerank request to ${this.#host} failed with ${reply.detail}`);
    }
  }

  /** Every result must name a distinct document that exists and carry a finite score; best first. */
  #parse(body: string, count: number): RerankResult[] {
    const bad = (why: string) => new RerankError('bad_response', `Rerank response from ${this.#host} ${why}`);
    const { results } = parseProviderBody(body, rerankResponse, bad);
    const seen = new Set<number>();
    for (const { index } of results) {
      if (index >= count || seen.has(index)) throw bad(badIndex(index));
      seen.add(index);
    }
    // Providers already sort, but the contract is ours; ties keep the caller's order.
    return results.map(({ index, relevance_score: score }) => ({ index, score })).sort((a, b) => b.score - a.score || a.index - b.index);
  }
}

/** The reranker of a provider's rerank model: its endpoint's URL and key, the model's name. */
export function rerankerAt(endpoint: ProviderEndpoint, timeoutMs: number): RemoteReranker {
  return new RemoteReranker({ baseUrl: endpoint.baseUrl, model: endpoint.model.name, apiKey: endpoint.apiKey, timeoutMs });
}

const timeoutMsSchema = wholeOption('timeoutMs', 1);
const topNSchema = wholeOption('topN', 1).optional();

/** The Cohere/Jina rerank response, as far as mnemo reads it; indexes are checked against the documents after parsing. */
const rerankResponse = z.object(
  {
    results: z.array(
      z.object(
        {
          index: listIndex,
          relevance_score: z.number({ error: 'has a result without a finite relevance_score' }),
        },
        { error: 'has a result that is not an object' },
      ),
      { error: 'has no results array' },
    ),
  },
  { error: 'has no results array' },
);
