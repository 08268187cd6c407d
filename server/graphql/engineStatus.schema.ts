import { type EngineStatus, engineStatus } from '../engineStatus.service.ts';
import { builder } from './builder.ts';
import { RecentCallsRef } from './modelTest.schema.ts';
import { QdrantStatusRef } from './qdrant.schema.ts';
import { ReindexJobRef } from './reindex.schema.ts';

export const StoreKindEnum = builder.enumType('StoreKind', {
  values: {
    SQLITE: { value: 'sqlite', description: 'A SQLite file in the data folder: one mnemo process.' },
    POSTGRES: { value: 'postgres', description: 'A PostgreSQL server (MNEMO_DATABASE_URL), shared by any number of replicas.' },
  } as const,
});

const StoreStatusRef = builder.objectRef<EngineStatus['store']>('StoreStatus').implement({
  description: 'Where the memories are kept, as the store itself says when asked; never a password.',
  fields: (t) => ({
    kind: t.expose('kind', { type: StoreKindEnum }),
    available: t.exposeBoolean('available', { description: 'The store answered a query.' }),
    latencyMs: t.exposeFloat('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
    file: t.exposeString('file', { nullable: true, description: 'SQLITE: the database file.' }),
    host: t.exposeString('host', { nullable: true, description: 'POSTGRES: the server address it reports (null over a Unix socket).' }),
    port: t.exposeInt('port', { nullable: true, description: 'POSTGRES: the server port it reports.' }),
    database: t.exposeString('database', { nullable: true, description: "POSTGRES: the database's name." }),
    version: t.exposeString('version', { nullable: true, description: "The engine's version." }),
  }),
});

const KeywordIndexRef = builder.objectRef<EngineStatus['keyword']>('KeywordIndexStatus').implement({
  fields: (t) => ({
    available: t.exposeBoolean('available', { description: 'Probed with a real query against the keyword index.' }),
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
    calls: t.field({ type: RecentCallsRef, nullable: true, description: 'How calls to the model went lately.', resolve: (s) => s.calls }),
    cache: t.field({ type: CacheStatsRef, nullable: true, resolve: (s) => s.cache }),
  }),
});

const VectorStoreRef = builder.objectRef<EngineStatus['vectorStore']>('VectorStoreStatus').implement({
  fields: (t) => ({
    backend: t.exposeString('backend'),
    available: t.boolean({
      description:
        'The vector store can be used: the sqlite-vec extension answered, or (PostgreSQL store) Qdrant is selected and answered.',
      resolve: (s) => s.extension.available,
    }),
    unavailableReason: t.string({
      nullable: true,
      description: 'Why the vector store cannot be used, e.g. "PostgreSQL store: vectors need Qdrant".',
      resolve: (s) => s.extension.error,
    }),
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
    calls: t.field({ type: RecentCallsRef, nullable: true, description: 'How calls to the model went lately.', resolve: (s) => s.calls }),
  }),
});

const EngineStatusRef = builder.objectRef<EngineStatus>('EngineStatus').implement({
  fields: (t) => ({
    store: t.field({ type: StoreStatusRef, resolve: (s) => s.store }),
    keyword: t.field({ type: KeywordIndexRef, resolve: (s) => s.keyword }),
    embedding: t.field({ type: EmbeddingStatusRef, resolve: (s) => s.embedding }),
    vectorStore: t.field({ type: VectorStoreRef, resolve: (s) => s.vectorStore }),
    rerank: t.field({ type: RerankStatusRef, resolve: (s) => s.rerank }),
    reindex: t.field({ type: ReindexJobRef, nullable: true, description: 'The latest reindex job.', resolve: (s) => s.reindex }),
    qdrant: t.field({ type: QdrantStatusRef, resolve: (s) => s.qdrant }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  engineStatus: t.field({
    type: EngineStatusRef,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => engineStatus(ctx.services),
  }),
}));
