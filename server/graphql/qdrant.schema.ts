import { audited } from '../audit/audited.ts';
import { qdrantSnapshot } from '../audit/snapshots.ts';
import { exactlyOneKey } from '../auth/viewer.ts';
import { searchQdrant } from '../retrieval/qdrantSearch.service.ts';
import {
  cleanupQdrant,
  type QdrantHealth,
  type QdrantSettings,
  type QdrantStatus,
  qdrantHealth,
  qdrantSettings,
  updateQdrantSettings,
} from '../vector/qdrant.service.ts';
import { builder } from './builder.ts';
import { MemoryRef } from './memory.schema.ts';
import { RecentCallsRef } from './modelTest.schema.ts';

const QuantizationEnum = builder.enumType('QdrantQuantization', {
  values: {
    NONE: { value: 'none' },
    INT8: { value: 'int8', description: 'Scalar int8 quantization, rescored with the original vectors.' },
    BINARY: { value: 'binary', description: 'Binary quantization, rescored with the original vectors.' },
  } as const,
});

const QdrantSettingsRef = builder.objectRef<QdrantSettings>('QdrantSettings').implement({
  description: 'Where Qdrant is. The API key is write-only: only whether one is set is shown.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'vectorStore is QDRANT.' }),
    url: t.exposeString('url', { nullable: true }),
    collection: t.exposeString('collection'),
    hasApiKey: t.exposeBoolean('hasApiKey'),
    quantization: t.expose('quantization', { type: QuantizationEnum }),
    timeoutMs: t.exposeInt('timeoutMs'),
    fromEnvironment: t.exposeStringList('fromEnvironment', { description: 'Fields fixed by MNEMO_QDRANT_* variables.' }),
  }),
});

export const QdrantStatusRef = builder.objectRef<QdrantStatus>('QdrantStatus').implement({
  fields: (t) => ({
    configured: t.exposeBoolean('configured'),
    enabled: t.exposeBoolean('enabled'),
    url: t.exposeString('url', { nullable: true }),
    collection: t.exposeString('collection', { nullable: true }),
    breaker: t.exposeString('breaker', { description: 'closed, open (calls refused after repeated failures) or half_open.' }),
    ready: t.exposeBoolean('ready', { nullable: true, description: 'Qdrant /readyz answered 200.' }),
    latencyMs: t.exposeFloat('latencyMs', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    compatible: t.exposeBoolean('compatible', {
      nullable: true,
      description: 'The collection fits the embedding model; null until checked.',
    }),
    incompatibleReason: t.exposeString('incompatibleReason', { nullable: true, description: 'What does not fit, and the fix.' }),
    points: t.exposeInt('points', { nullable: true }),
    pendingSync: t.exposeInt('pendingSync', { description: 'Changes queued for Qdrant.' }),
    calls: t.field({ type: RecentCallsRef, nullable: true, description: 'How calls to Qdrant went lately.', resolve: (s) => s.calls }),
  }),
});

const QdrantSettingsInputRef = builder.inputType('QdrantSettingsInput', {
  fields: (t) => ({
    enabled: t.boolean({ description: 'true sets vectorStore to QDRANT; false returns it to AUTO.' }),
    url: t.string({ description: 'e.g. http://localhost:6333; or give host and port.' }),
    host: t.string(),
    port: t.int(),
    https: t.boolean(),
    collection: t.string(),
    apiKey: t.string({ description: 'Write-only. Omit to keep; an empty string removes it.' }),
    quantization: t.field({ type: QuantizationEnum }),
    timeoutMs: t.int(),
  }),
});

const QdrantHealthRef = builder.objectRef<QdrantHealth>('QdrantHealth').implement({
  fields: (t) => ({
    ready: t.exposeBoolean('ready'),
    latencyMs: t.exposeFloat('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const QdrantSearchHitRef = builder.simpleObject('QdrantSearchHit', {
  fields: (t) => ({ score: t.float(), memory: t.field({ type: MemoryRef }) }),
});

const QdrantSearchResultRef = builder.simpleObject('QdrantSearchResult', {
  fields: (t) => ({ hits: t.field({ type: [QdrantSearchHitRef] }), latencyMs: t.float() }),
});

builder.queryFields((t) => ({
  qdrantSettings: t.field({
    type: QdrantSettingsRef,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => qdrantSettings(ctx.services),
  }),
  qdrantHealth: t.field({
    type: QdrantHealthRef,
    authScopes: { admin: true },
    description: "Qdrant's /readyz, timed.",
    resolve: (_root, _args, ctx) => qdrantHealth(ctx.services),
  }),
}));

builder.mutationFields((t) => ({
  updateQdrantSettings: t.field({
    type: QdrantSettingsRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: QdrantSettingsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(ctx, { action: 'QDRANT_SETTINGS_UPDATE', snapshot: qdrantSnapshot(ctx.services) }, () =>
        updateQdrantSettings(ctx.services, input),
      ),
  }),
  qdrantSearchTest: t.field({
    type: QdrantSearchResultRef,
    authScopes: { admin: true },
    description:
      'Searches Qdrant alone for one API key, to check what it holds. BAD_USER_INPUT until Qdrant is configured and enabled; UNAVAILABLE while it cannot be reached.',
    args: { query: t.arg.string({ required: true }), topK: t.arg.int({ defaultValue: 10 }), apiKeyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      searchQdrant(ctx.services, { query: args.query, topK: args.topK ?? 10, apiKeyId: exactlyOneKey(ctx.viewer, args.apiKeyId) }),
  }),
  qdrantCleanup: t.int({
    authScopes: { admin: true },
    description:
      'Deletes Qdrant points of expired or out-of-retention memories and of memories that no longer exist; returns how many. UNAVAILABLE while Qdrant cannot be reached.',
    resolve: (_root, _args, ctx) =>
      audited(ctx, { action: 'QDRANT_CLEANUP', describe: (deleted) => ({ target: { deleted } }) }, () => cleanupQdrant(ctx.services)),
  }),
}));
