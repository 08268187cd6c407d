import { type Aggregator, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { EmbeddingErrorKind, EmbeddingSourceName } from '../embedding/embedder.ts';

/** What /metrics serves: one process's metrics, or the whole server's gathered from its workers (cluster/primary.ts). */
export interface MetricsSource {
  text(): Promise<string>;
  readonly contentType: string;
}

/**
 * How a figure is combined across the workers of one server: summed (counts, bytes: the default), or taken from the
 * first worker when every worker reads the same figure from the database.
 */
export type WorkerAggregation = Extract<Aggregator, 'sum' | 'first'>;

/** One process's metrics as data (what prom-client's AggregatorRegistry.aggregate combines). */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** The three kinds of GraphQL operation, a label of every per-field metric. */
export type OperationType = 'query' | 'mutation' | 'subscription';

/** What a retrieval reports to the metrics: the parts of a RetrievalResult that are counted. */
export interface RetrievalObservation {
  strategy: string;
  tiers: readonly string[];
  fallbackReason: string | null;
  skipped: string | null;
  tokensUsed: number;
  items: number;
}

/** How a call to the extraction model ended; 'busy' and 'budget' were never sent. */
export type ExtractionModelOutcome = 'ok' | 'timeout' | 'invalid' | 'budget' | 'busy' | 'error';

/** Why a retrieval fell back, as one of a few fixed words: the free-form reason would make a label per message. */
export type FallbackKind = 'vector_unavailable' | 'keyword_failed' | 'other';

/** Buckets of the histograms in seconds: half a millisecond to ten seconds. */
const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics. Every label takes values from a fixed set (root fields of the schema,
 * outcome codes, strategies, tiers, embedding sources and error kinds): never an API key, token, memory or query.
 * Counters are updated where things happen; figures that live in the database or in other services (memories
 * by state, outbox backlog, reindex jobs) are read when scraped, by collectors that `addCollector` registers.
 */
export class Metrics implements MetricsSource {
  readonly registry = new Registry();
  #processMetrics = false;

  /**
   * `recording: false` makes every observe* call return at once: a server whose /metrics nobody can read (neither
   * MNEMO_METRICS_PORT nor MNEMO_METRICS_TOKEN is set) does not pay for counting.
   */
  constructor(readonly options: { recording: boolean } = { recording: true }) {}

  readonly graphqlRequests = new Counter({
    name: 'mnemo_graphql_requests_total',
    help: 'GraphQL root fields requested, by operation type, root field and outcome (OK or the error code).',
    labelNames: ['type', 'field', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly graphqlDuration = new Histogram({
    name: 'mnemo_graphql_request_duration_seconds',
    help: 'Time from receiving a GraphQL request to its result, by operation type and root field.',
    labelNames: ['type', 'field'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly requestTurnWait = new Histogram({
    name: 'mnemo_request_turn_wait_seconds',
    help: 'Time a request (GraphQL, MCP, export) waited for its turn on the event loop, from arriving to starting: how saturated the process is.',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly retrievals = new Counter({
    name: 'mnemo_retrievals_total',
    help: 'Gateway retrievals (retrieve, injectMemory), by strategy and skip reason (none when not skipped).',
    labelNames: ['strategy', 'skipped'] as const,
    registers: [this.registry],
  });
  readonly retrievalTiers = new Counter({
    name: 'mnemo_retrieval_tier_answers_total',
    help: 'Retrievals in which a tier produced candidates, by tier.',
    labelNames: ['tier'] as const,
    registers: [this.registry],
  });
  readonly retrievalFallbacks = new Counter({
    name: 'mnemo_retrieval_fallbacks_total',
    help: 'Retrievals in which a tier the strategy wanted did not answer, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly tokensInjected = new Histogram({
    name: 'mnemo_retrieval_tokens_injected',
    help: 'Tokens of the memory block a retrieval returned.',
    buckets: [0, 50, 100, 200, 400, 800, 1600, 3200, 6400, 16000],
    registers: [this.registry],
  });
  readonly memoriesReturned = new Histogram({
    name: 'mnemo_retrieval_memories_returned',
    help: 'Memories a retrieval returned.',
    buckets: [0, 1, 2, 5, 10, 20, 50, 100],
    registers: [this.registry],
  });
  readonly embeddingCalls = new Counter({
    name: 'mnemo_embedding_calls_total',
    help: 'Calls to the embedding model (after the cache), by source and outcome (ok or the error kind).',
    labelNames: ['source', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly embeddingBatchSize = new Histogram({
    name: 'mnemo_embedding_batch_size',
    help: 'Texts per call to the embedding model, by source.',
    labelNames: ['source'] as const,
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [this.registry],
  });
  readonly extractionModelCalls = new Counter({
    name: 'mnemo_extraction_model_calls_total',
    help: 'Messages the extraction model was asked about, by outcome (ok, timeout, invalid, budget, busy, error).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly extractionModelTokens = new Counter({
    name: 'mnemo_extraction_model_tokens_total',
    help: 'Tokens the extraction model used over every API key (per key: the extractionModelUsage query).',
    registers: [this.registry],
  });

  /** Records one call to the extraction model, or why it was not made, and the tokens it used. */
  observeExtractionModel(outcome: ExtractionModelOutcome, tokens: number) {
    if (!this.options.recording) return;
    this.extractionModelCalls.inc({ outcome });
    if (tokens > 0) this.extractionModelTokens.inc(tokens);
  }

  /** Records one GraphQL request: a count per root field and outcome, and its duration per root field. */
  observeOperation(op: {
    type: OperationType | null;
    fields: readonly { name: string; outcome: string }[];
    durationMs: number;
    stream: boolean;
  }) {
    if (!this.options.recording) return;
    const type = op.type ?? 'none';
    for (const field of op.fields) {
      this.graphqlRequests.inc({ type, field: field.name, outcome: field.outcome });
      if (!op.stream) this.graphqlDuration.observe({ type, field: field.name }, op.durationMs / 1000);
    }
  }

  /** Records how long a request waited for its turn on the event loop (requestTurns.ts). */
  observeTurnWait(ms: number) {
    if (!this.options.recording) return;
    this.requestTurnWait.observe(ms / 1000);
  }

  /** Records what a gateway retrieval did. */
  observeRetrieval(r: RetrievalObservation) {
    if (!this.options.recording) return;
    this.retrievals.inc({ strategy: r.strategy, skipped: r.skipped ?? 'none' });
    if (r.skipped) return;
    for (const tier of r.tiers) this.retrievalTiers.inc({ tier });
    const fallback = fallbackKind(r);
    if (fallback) this.retrievalFallbacks.inc({ reason: fallback });
    this.tokensInjected.observe(r.tokensUsed);
    this.memoriesReturned.observe(r.items);
  }

  /** Records one call to an embedding model: how many texts, and how it ended. */
  observeEmbedding(source: EmbeddingSourceName, texts: number, failure: EmbeddingErrorKind | 'error' | null) {
    if (!this.options.recording) return;
    this.embeddingCalls.inc({ source, outcome: failure ?? 'ok' });
    this.embeddingBatchSize.observe({ source }, texts);
  }

  /** Registers a gauge whose values are read when the metrics are scraped. */
  addGauge<L extends string>(config: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    aggregator?: WorkerAggregation;
    collect: (gauge: Gauge<L>) => Promise<void> | void;
  }) {
    const { collect, ...rest } = config;
    new Gauge<L>({
      ...rest,
      labelNames: rest.labelNames ?? [],
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }

  /** Registers a counter whose total is read when scraped (a figure another part of mnemo counts already). */
  addCounter<L extends string>(config: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    aggregator?: WorkerAggregation;
    collect: (counter: Counter<L>) => Promise<void> | void;
  }) {
    const { collect, ...rest } = config;
    new Counter<L>({
      ...rest,
      labelNames: rest.labelNames ?? [],
      registers: [this.registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });
  }

  /**
   * The Prometheus text exposition. Node's process metrics (CPU, memory, event loop lag, GC) start with the
   * first scrape, so processes that are never scraped (tools, tests) never run their monitors.
   */
  async text(): Promise<string> {
    this.#startProcessMetrics();
    return this.registry.metrics();
  }

  /** The same figures as data, for the primary of a server with several workers to combine them. */
  async json(): Promise<MetricsJson> {
    this.#startProcessMetrics();
    return this.registry.getMetricsAsJSON();
  }

  #startProcessMetrics() {
    if (this.#processMetrics) return;
    this.#processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

function fallbackKind(r: RetrievalObservation): FallbackKind | null {
  const wantedVector = r.strategy === 'SEMANTIC' || r.strategy === 'HYBRID';
  if (wantedVector && !r.tiers.includes('vector')) return 'vector_unavailable';
  if (r.strategy === 'HYBRID' && !r.tiers.includes('keyword')) return 'keyword_failed';
  return r.fallbackReason ? 'other' : null;
}
