import { createClient as createSseClient } from 'graphql-sse';
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from './breaker.ts';
import { type GraphQLErrorItem, MnemoError } from './errors.ts';
import {
  ClearMemoriesDocument,
  type ClearMemoriesMutationVariables,
  type ClientMemoryFragment,
  type ClientReceiptFragment,
  type ClientReindexJobFragment,
  type ClientRetrievalFragment,
  CreateMemoryDocument,
  DeleteMemoryDocument,
  ExportMemoriesDocument,
  type ExportMemoriesQueryVariables,
  ExtractFactsDocument,
  type ExtractFactsInput,
  type ExtractFactsMutation,
  ImportMemoriesDocument,
  type ImportMemoriesMutation,
  InjectMemoryDocument,
  type InjectMemoryInput,
  type InjectMemoryMutation,
  MemoriesDocument,
  type MemoriesQuery,
  type MemoriesQueryVariables,
  type MemoryInput,
  type MemoryPatchInput,
  ReindexDocument,
  ReindexProgressDocument,
  RetrieveDocument,
  type RetrieveInput,
  RetrievePreviewDocument,
  UpdateMemoryDocument,
} from './generated/graphql.ts';
import { DropOldestQueue, type ExtractDelivery, type ExtractQueueOptions, type QueueStats } from './queue.ts';
import { type CallOptions, type RetryOptions, send, type TransportConfig, type TypedDocument } from './transport.ts';

export interface MnemoClientOptions {
  /** mnemo's base URL (http://127.0.0.1:4000) or its GraphQL endpoint (…/graphql). */
  url: string;
  /** A bearer token: a gateway token, ideally bound to one API key (`mnemo token create --api-key …`). */
  token: string;
  /** The API key calls act on when they name none. Optional for a token bound to one key. */
  apiKeyId?: string;
  /** The hot path's deadline: inject and every read. Default 150 ms. */
  deadlineMs?: number;
  /** Writes and admin operations (create, import, extract, reindex …). Default 10 s. */
  writeTimeoutMs?: number;
  retry?: RetryOptions;
  breaker?: CircuitBreakerOptions;
  /** The fire-and-forget extract queue. */
  extractQueue?: ExtractQueueOptions;
  /** Another fetch (an undici Agent's, an edge runtime's); by default the global one. */
  fetch?: typeof fetch;
  /** More headers on every request. */
  headers?: Record<string, string>;
  /** The clock (ms) the circuit breaker measures its open window on; by default Date.now. A test moves its own instead of waiting. */
  now?: () => number;
}

/** Why inject handed the request back unchanged. */
export type InjectSkipReason =
  /** Memory is switched off in mnemo's settings. */
  | 'disabled'
  /** The request asked for no memory (noMemory). */
  | 'opted-out'
  /** The retrieval budget (maxTokens) is 0. */
  | 'zero-budget'
  /** Nothing relevant was found. */
  | 'nothing-relevant'
  /** mnemo did not answer within the deadline. */
  | 'timeout'
  /** mnemo could not be reached. */
  | 'unreachable'
  /** mnemo failed recently; no call was made. */
  | 'circuit-open'
  /** The caller's signal aborted the call. */
  | 'aborted'
  /** mnemo answered with an error (see `error.code`). */
  | 'error';

/** `receipt` (what became of every memory considered) is there when `receipt: true` was asked and mnemo answered. */
export type InjectOutcome<TRequest> =
  | { injected: true; request: TRequest; retrieval: ClientRetrievalFragment; receipt?: ClientReceiptFragment }
  | { injected: false; request: TRequest; reason: InjectSkipReason; error?: MnemoError; receipt?: ClientReceiptFragment };

export interface InjectOptions extends CallOptions, Omit<RetrieveInput, 'apiKeyId'> {
  /** The provider/model the request goes to ("openai/gpt-4o"): mnemo picks the request shape and role by it. */
  provider: string;
  apiKeyId?: string;
  shape?: InjectMemoryInput['shape'];
  /** The request opted out of memory. */
  noMemory?: boolean;
  /** Throw a MnemoError instead of failing open. Default false: inject never throws into the request path. */
  throwOnError?: boolean;
}

export type ExtractInput = Omit<ExtractFactsInput, 'apiKeyId'> & { apiKeyId?: string };

export interface MnemoClientStats {
  extract: QueueStats;
  circuit: CircuitState;
}

const IDEMPOTENT = true;

/**
 * A typed, fail-open client for mnemo. `inject` and `extract` are the gateway's hot path: neither ever stalls
 * nor breaks a chat request. The other methods are typed calls that throw a MnemoError.
 */
export class MnemoClient {
  readonly #transport: TransportConfig;
  readonly #endpoint: string;
  readonly #apiKeyId: string | undefined;
  readonly #deadlineMs: number;
  readonly #writeTimeoutMs: number;
  readonly #queue: DropOldestQueue<ExtractInput>;

  constructor(options: MnemoClientOptions) {
    this.#endpoint = options.url.replace(/\/+$/, '').replace(/(\/graphql)?$/, '/graphql');
    this.#apiKeyId = options.apiKeyId;
    this.#deadlineMs = options.deadlineMs ?? 150;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? 10_000;
    this.#transport = {
      endpoint: this.#endpoint,
      headers: {
        ...options.headers,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        authorization: `Bearer ${options.token}`,
      },
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      breaker: new CircuitBreaker(options.breaker, options.now),
      retry: { attempts: options.retry?.attempts ?? 2, baseDelayMs: options.retry?.baseDelayMs ?? 10 },
      random: Math.random,
    };
    this.#queue = new DropOldestQueue(async (input) => deliveryOf(await this.extractFacts(input)), options.extractQueue);
  }

  /**
   * Memories into a chat request. Resolves with the request to forward: with mnemo's memory block, or the
   * original request unchanged and the reason (memory off, nothing relevant, timeout, unreachable, an error
   * code). It never rejects unless `throwOnError` is set.
   */
  async inject<TRequest extends Record<string, unknown>>(request: TRequest, options: InjectOptions): Promise<InjectOutcome<TRequest>> {
    const { provider, shape, noMemory, throwOnError, deadlineMs, signal, apiKeyId, ...retrieval } = options;
    const input: InjectMemoryInput = {
      provider,
      request,
      shape,
      noMemory,
      retrieval: { ...retrieval, apiKeyId: apiKeyId ?? this.#apiKeyId },
    };
    let result: InjectMemoryMutation['injectMemory'];
    try {
      // Reads memories only (the access counts it bumps are statistics): safe to retry within the deadline.
      ({ injectMemory: result } = await this.request(InjectMemoryDocument, { input }, { deadlineMs, signal }, IDEMPOTENT));
    } catch (error) {
      if (throwOnError) throw error;
      const mnemoError = error as MnemoError;
      return { injected: false, request, reason: reasonOf(mnemoError), error: mnemoError };
    }
    const receipt = result.receipt ? { receipt: result.receipt } : {};
    if (result.injected && result.retrieval)
      return { injected: true, request: result.request as TRequest, retrieval: result.retrieval, ...receipt };
    return { injected: false, request, reason: skipReasonOf(result), ...receipt };
  }

  /**
   * Facts out of a message, fire and forget: queued and sent in the background. A full queue drops its
   * oldest entry (counted in `stats().extract.dropped`), so a slow mnemo never grows the gateway's memory.
   * One that mnemo skipped because memory is switched off is counted in `stats().extract.disabled`, one whose
   * facts it could not store in `failed`: neither in `sent`.
   */
  extract(input: ExtractInput): void {
    this.#queue.push(input);
  }

  /** Resolves once every queued extraction was sent (or failed). */
  flush(): Promise<void> {
    return this.#queue.idle();
  }

  stats(): MnemoClientStats {
    return { extract: this.#queue.stats(), circuit: this.#transport.breaker.state };
  }

  /** Facts out of a message, awaited. */
  async extractFacts(input: ExtractInput, options?: CallOptions): Promise<ExtractFactsMutation['extractFacts']> {
    const withKey = { ...input, apiKeyId: input.apiKeyId ?? this.#apiKeyId };
    return (await this.request(ExtractFactsDocument, { input: withKey }, this.#write(options))).extractFacts;
  }

  async retrieve(input: RetrieveInput, options?: CallOptions): Promise<ClientRetrievalFragment> {
    return (await this.request(RetrieveDocument, { input: this.#keyed(input) }, options, IDEMPOTENT)).retrieve;
  }

  /** The side-effect-free dry run of retrieve (admin tokens see scores and fallbacks). */
  async retrievePreview(input: RetrieveInput, options?: CallOptions): Promise<ClientRetrievalFragment> {
    return (await this.request(RetrievePreviewDocument, { input: this.#keyed(input) }, options, IDEMPOTENT)).retrievePreview;
  }

  async createMemory(input: MemoryInput, options?: CallOptions): Promise<ClientMemoryFragment> {
    return (await this.request(CreateMemoryDocument, { input: this.#keyed(input) }, this.#write(options))).createMemory;
  }

  async updateMemory(id: string, input: MemoryPatchInput, options?: CallOptions): Promise<ClientMemoryFragment> {
    return (await this.request(UpdateMemoryDocument, { id, input }, this.#write(options))).updateMemory;
  }

  async deleteMemory(id: string, options?: CallOptions): Promise<ClientMemoryFragment> {
    return (await this.request(DeleteMemoryDocument, { id }, this.#write(options))).deleteMemory;
  }

  async memories(variables: MemoriesQueryVariables = {}, options?: CallOptions): Promise<MemoriesQuery['memories']> {
    return (await this.request(MemoriesDocument, this.#keyed(variables), options, IDEMPOTENT)).memories;
  }

  /** Deletes every memory of the key (optionally of one type, or older than a date); resolves with how many. */
  async clearMemories(variables: Partial<ClearMemoriesMutationVariables> = {}, options?: CallOptions): Promise<number> {
    const apiKeyId = variables.apiKeyId ?? this.#apiKeyId;
    if (!apiKeyId) throw new MnemoError('BAD_USER_INPUT', 'clearMemories needs an apiKeyId');
    return (await this.request(ClearMemoriesDocument, { ...variables, apiKeyId }, this.#write(options))).clearMemories;
  }

  async importMemories(memories: MemoryInput[], options?: CallOptions): Promise<ImportMemoriesMutation['importMemories']> {
    const keyed = memories.map((m) => this.#keyed(m));
    return (await this.request(ImportMemoriesDocument, { memories: keyed }, this.#write(options))).importMemories;
  }

  async exportMemories(variables: ExportMemoriesQueryVariables = {}, options?: CallOptions): Promise<ClientMemoryFragment[]> {
    return (await this.request(ExportMemoriesDocument, this.#keyed(variables), this.#write(options), IDEMPOTENT)).exportMemories;
  }

  /** Starts (or joins) a reindex job (admin tokens). */
  async reindex(force = false, options?: CallOptions): Promise<ClientReindexJobFragment> {
    return (await this.request(ReindexDocument, { force }, this.#write(options))).reindex;
  }

  /** A reindex job's progress over SSE: its state now, then after every batch, until it ends. */
  async *reindexProgress(jobId: string): AsyncGenerator<ClientReindexJobFragment> {
    const sse = createSseClient({
      url: this.#endpoint,
      headers: { authorization: this.#transport.headers.authorization as string },
      fetchFn: this.#transport.fetch,
      retryAttempts: 0,
    });
    try {
      for await (const result of sse.iterate({ query: ReindexProgressDocument.toString(), variables: { jobId } })) {
        const errors = result.errors as readonly GraphQLErrorItem[] | undefined;
        if (errors?.length) throw MnemoError.fromGraphQL(errors, null);
        yield (result.data as { reindexProgress: ClientReindexJobFragment }).reindexProgress;
      }
    } catch (error) {
      if (error instanceof MnemoError) throw error;
      throw new MnemoError('UNREACHABLE', `the progress stream failed: ${(error as Error).message}`, [], null, { cause: error });
    } finally {
      sse.dispose();
    }
  }

  /**
   * Any typed document (from codegen) with the client's transport. `idempotent` allows retries within the
   * deadline: only for operations that change nothing.
   */
  request<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    variables: TVariables,
    options: CallOptions = {},
    idempotent = false,
  ): Promise<TResult> {
    return send(this.#transport, document, variables, {
      deadlineMs: options.deadlineMs ?? this.#deadlineMs,
      signal: options.signal,
      idempotent,
    });
  }

  #write(options: CallOptions = {}): CallOptions {
    return { ...options, deadlineMs: options.deadlineMs ?? this.#writeTimeoutMs };
  }

  #keyed<T extends { apiKeyId?: string | null }>(input: T): T {
    return input.apiKeyId == null && this.#apiKeyId !== undefined ? { ...input, apiKeyId: this.#apiKeyId } : input;
  }
}

function reasonOf(error: MnemoError): InjectSkipReason {
  switch (error.code) {
    case 'TIMEOUT':
      return 'timeout';
    case 'UNREACHABLE':
      return 'unreachable';
    case 'CIRCUIT_OPEN':
      return 'circuit-open';
    case 'ABORTED':
      return 'aborted';
    default:
      return 'error';
  }
}

/** mnemo answers an extraction it skipped with memory off, or could not store, as data: neither stored anything. */
function deliveryOf(result: ExtractFactsMutation['extractFacts']): ExtractDelivery {
  if (result.skipped === 'DISABLED') return 'disabled';
  return result.error === null ? 'sent' : 'failed';
}

function skipReasonOf(result: InjectMemoryMutation['injectMemory']): InjectSkipReason {
  if (result.optedOut) return 'opted-out';
  if (result.retrieval?.skipped === 'DISABLED') return 'disabled';
  if (result.retrieval?.skipped === 'ZERO_BUDGET') return 'zero-budget';
  return 'nothing-relevant';
}
