import type { Provider, ProviderModel } from '../embedding/provider.service.ts';
import { type EngineStatus, engineStatus } from '../engineStatus.service.ts';
import { forbidden } from '../errors.ts';
import type { ReindexJob } from '../jobs/reindex.service.ts';
import { builder } from './builder.ts';
import { QdrantStatusRef } from './qdrant.schema.ts';

const JobStatusEnum = builder.enumType('ReindexStatus', {
  values: {
    RUNNING: { value: 'running' },
    COMPLETED: { value: 'completed' },
    FAILED: { value: 'failed' },
    CANCELLED: { value: 'cancelled' },
  } as const,
});

const ReindexJobRef = builder.objectRef<ReindexJob>('ReindexJob').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: JobStatusEnum }),
    force: t.exposeBoolean('force'),
    total: t.exposeInt('total'),
    processed: t.exposeInt('processed'),
    failed: t.exposeInt('failed'),
    error: t.exposeString('error', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    rate: t.exposeFloat('rate', { description: 'Memories embedded per second.' }),
    etaSeconds: t.exposeFloat('etaSeconds', { nullable: true }),
  }),
});

const KeywordTierRef = builder.objectRef<EngineStatus['keyword']>('KeywordTierStatus').implement({
  fields: (t) => ({
    available: t.exposeBoolean('available', { description: 'Probed with a real FTS5 query.' }),
    latencyMs: t.exposeFloat('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
    documents: t.exposeInt('documents'),
  }),
});

const CacheStatsRef = builder.objectRef<NonNullable<EngineStatus['embedding']['cache']>>('EmbeddingCacheStats').implement({
  fields: (t) => ({
    hits: t.exposeInt('hits'),
    misses: t.exposeInt('misses'),
    size: t.exposeInt('size'),
    max: t.exposeInt('max'),
    ttlMs: t.exposeInt('ttlMs'),
  }),
});

const EmbeddingErrorRef = builder.objectRef<NonNullable<EngineStatus['embedding']['lastError']>>('EmbeddingErrorInfo').implement({
  fields: (t) => ({ kind: t.exposeString('kind'), message: t.exposeString('message') }),
});

const EmbeddingStatusRef = builder.objectRef<EngineStatus['embedding']>('EmbeddingStatus').implement({
  fields: (t) => ({
    source: t.exposeString('source', { nullable: true, description: 'remote, static or transformers; null: keyword search only.' }),
    model: t.exposeString('model', { nullable: true }),
    dimension: t.exposeInt('dimension', { nullable: true }),
    state: t.exposeString('state', { description: 'none, idle, loading, ready or failed.' }),
    reason: t.exposeString('reason', { description: 'How the source was chosen.' }),
    lastError: t.field({ type: EmbeddingErrorRef, nullable: true, resolve: (s) => s.lastError }),
    cache: t.field({ type: CacheStatsRef, nullable: true, resolve: (s) => s.cache }),
  }),
});

const VectorStoreRef = builder.objectRef<EngineStatus['vectorStore']>('VectorStoreStatus').implement({
  fields: (t) => ({
    backend: t.exposeString('backend'),
    available: t.boolean({ description: 'The sqlite-vec extension answered.', resolve: (s) => s.extension.available }),
    extensionVersion: t.string({ nullable: true, resolve: (s) => s.extension.version }),
    rows: t.exposeInt('rows'),
    pendingReindex: t.exposeInt('pendingReindex', { description: 'Memories whose vector is missing or stale.' }),
    signature: t.exposeString('signature', { nullable: true }),
    signatureMatches: t.exposeBoolean('signatureMatches', {
      nullable: true,
      description: 'False: the active embedder differs from the stored vectors; a reindex follows.',
    }),
    dimension: t.exposeInt('dimension', { nullable: true }),
    quantization: t.exposeString('quantization'),
    lastResetAt: t.expose('lastResetAt', { type: 'DateTime', nullable: true }),
  }),
});

const RerankStatusRef = builder.objectRef<EngineStatus['rerank']>('RerankStatus').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    model: t.exposeString('model', { nullable: true }),
    reason: t.exposeString('reason'),
  }),
});

const EngineStatusRef = builder.objectRef<EngineStatus>('EngineStatus').implement({
  fields: (t) => ({
    keyword: t.field({ type: KeywordTierRef, resolve: (s) => s.keyword }),
    embedding: t.field({ type: EmbeddingStatusRef, resolve: (s) => s.embedding }),
    vectorStore: t.field({ type: VectorStoreRef, resolve: (s) => s.vectorStore }),
    rerank: t.field({ type: RerankStatusRef, resolve: (s) => s.rerank }),
    reindex: t.field({ type: ReindexJobRef, nullable: true, description: 'The latest reindex job.', resolve: (s) => s.reindex }),
    qdrant: t.field({ type: QdrantStatusRef, resolve: (s) => s.qdrant }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
  }),
});

const ModelKindEnum = builder.enumType('ModelKind', {
  values: { EMBEDDING: { value: 'embedding' }, RERANK: { value: 'rerank' } } as const,
});

const ProviderModelRef = builder.objectRef<ProviderModel>('ProviderModel').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: ModelKindEnum }),
    dimension: t.exposeInt('dimension', { nullable: true }),
    maxInputTokens: t.exposeInt('maxInputTokens', { nullable: true }),
  }),
});

const ProviderRef = builder.objectRef<Provider>('ModelProvider').implement({
  description: 'An OpenAI-compatible embeddings or Cohere/Jina-style rerank endpoint. Its API key is never returned.',
  fields: (t) => ({
    id: t.exposeID('id'),
    baseUrl: t.exposeString('baseUrl'),
    hasApiKey: t.exposeBoolean('hasApiKey'),
    keyless: t.exposeBoolean('keyless', {
      description: 'Needs no API key (a local server): AUTO counts it as configured without one, and calls it without a key.',
    }),
    origin: t.exposeString('origin', { description: 'env (MNEMO_EMBEDDING_*) or settings.' }),
    models: t.field({ type: [ProviderModelRef], resolve: (p) => p.models }),
  }),
});

const ProviderModelInputRef = builder.inputType('ProviderModelInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: ModelKindEnum, required: true }),
    dimension: t.int(),
    maxInputTokens: t.int(),
  }),
});

const ModelProviderInputRef = builder.inputType('ModelProviderInput', {
  fields: (t) => ({
    id: t.string({ required: true }),
    baseUrl: t.string({ required: true, description: 'API root as in OpenAI SDKs, e.g. https://api.openai.com/v1.' }),
    apiKey: t.string({ description: 'Write-only. Omit to keep the stored key; an empty string removes it.' }),
    keyless: t.boolean({ description: 'The endpoint needs no API key (a local server). Omit to keep the stored mark.' }),
    models: t.field({ type: [ProviderModelInputRef], required: true }),
  }),
});

builder.queryFields((t) => ({
  engineStatus: t.field({
    type: EngineStatusRef,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => engineStatus(ctx.services.db, ctx.services.vectors, ctx.services.reindex, ctx.services.qdrant),
  }),
  embeddingProviders: t.field({
    type: [ProviderRef],
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => ctx.services.providers.list(),
  }),
  reindexJob: t.field({
    type: ReindexJobRef,
    nullable: true,
    authScopes: { admin: true },
    description: 'A reindex job by id, or the latest one.',
    args: { id: t.arg.id() },
    resolve: (_root, { id }, ctx) => (id ? ctx.services.reindex.get(String(id)) : ctx.services.reindex.latest()),
  }),
}));

builder.mutationFields((t) => ({
  upsertModelProvider: t.field({
    type: ProviderRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: ModelProviderInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.providers.upsert({
        id: input.id,
        baseUrl: input.baseUrl,
        apiKey: input.apiKey ?? undefined,
        keyless: input.keyless ?? undefined,
        models: input.models.map((m) => ({ ...m, dimension: m.dimension ?? null, maxInputTokens: m.maxInputTokens ?? null })),
      }),
  }),
  deleteModelProvider: t.boolean({
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await ctx.services.providers.delete(String(id));
      return true;
    },
  }),
  reindex: t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    description:
      'Starts embedding every memory whose vector is missing or stale (all of them with force), or returns the job already running.',
    args: { force: t.arg.boolean({ defaultValue: false }) },
    resolve: (_root, { force }, ctx) => ctx.services.reindex.start(force ?? false),
  }),
  cancelReindex: t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    args: { jobId: t.arg.id({ required: true }) },
    resolve: (_root, { jobId }, ctx) => ctx.services.reindex.cancel(String(jobId)),
  }),
}));

builder.subscriptionField('reindexProgress', (t) =>
  t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    description: 'The job now, then after every batch (processed, failed, rate, ETA); completes when the job ends.',
    args: { jobId: t.arg.id({ required: true }) },
    subscribe: (_root, { jobId }, ctx) => {
      // Checked here too: field scopes are not guaranteed to run at subscribe time (hayes/pothos#1496).
      if (ctx.viewer.role !== 'admin') throw forbidden('this operation needs an admin token');
      return ctx.services.reindex.watch(String(jobId));
    },
    resolve: (job) => job,
  }),
);
