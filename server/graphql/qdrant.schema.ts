import { z } from 'zod';
import { exactlyOneKey } from '../auth/viewer.ts';
import { badInput } from '../errors.ts';
import { retentionCutoff, rowToMemory } from '../memory/memory.ts';
import { memoriesInScope } from '../memory/retrieval.repository.ts';
import { parseInput } from '../validation.ts';
import type { QdrantStatus } from '../vector/qdrant.service.ts';
import type { QdrantSettingsView } from '../vector/qdrantSettings.ts';
import { builder } from './builder.ts';
import { MemoryRef } from './memory.schema.ts';

const QuantizationEnum = builder.enumType('QdrantQuantization', {
  values: {
    NONE: { value: 'none' },
    INT8: { value: 'int8', description: 'Scalar int8 quantization, rescored with the original vectors.' },
    BINARY: { value: 'binary', description: 'Binary quantization, rescored with the original vectors.' },
  } as const,
});

const QdrantSettingsRef = builder.objectRef<QdrantSettingsView & { enabled: boolean }>('QdrantSettings').implement({
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

const QdrantHealthRef = builder.simpleObject('QdrantHealth', {
  fields: (t) => ({ ready: t.boolean(), latencyMs: t.float(), error: t.string({ nullable: true }) }),
});

const QdrantSearchHitRef = builder.simpleObject('QdrantSearchHit', {
  fields: (t) => ({ score: t.float(), memory: t.field({ type: MemoryRef }) }),
});

const QdrantSearchResultRef = builder.simpleObject('QdrantSearchResult', {
  fields: (t) => ({ hits: t.field({ type: [QdrantSearchHitRef] }), latencyMs: t.float() }),
});

const searchTestSchema = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(10_000),
  topK: z.number().int().min(1, 'topK must be 1 to 100').max(100, 'topK must be 1 to 100'),
});

builder.queryFields((t) => ({
  qdrantSettings: t.field({
    type: QdrantSettingsRef,
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => ({
      ...(await ctx.services.qdrantSettings.view()),
      enabled: (await ctx.services.settings.get()).vectorStore === 'QDRANT',
    }),
  }),
  qdrantHealth: t.field({
    type: QdrantHealthRef,
    authScopes: { admin: true },
    description: "Qdrant's /readyz, timed.",
    resolve: async (_root, _args, ctx) => {
      const index = await ctx.services.qdrant.index();
      return index ? index.health() : { ready: false, latencyMs: 0, error: 'Qdrant is not configured' };
    },
  }),
}));

builder.mutationFields((t) => ({
  updateQdrantSettings: t.field({
    type: QdrantSettingsRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: QdrantSettingsInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { enabled, ...connection } = input;
      const view = await ctx.services.qdrantSettings.update(connection);
      if (enabled === true && !view.url) throw badInput('set a Qdrant url (or host and port) before enabling it');
      if (enabled != null) await ctx.services.settings.update({ vectorStore: enabled ? 'QDRANT' : 'AUTO' });
      return { ...view, enabled: (await ctx.services.settings.get()).vectorStore === 'QDRANT' };
    },
  }),
  qdrantSearchTest: t.field({
    type: QdrantSearchResultRef,
    authScopes: { admin: true },
    description: 'Searches Qdrant alone for one API key, to check what it holds.',
    args: { query: t.arg.string({ required: true }), topK: t.arg.int({ defaultValue: 10 }), apiKeyId: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { query, topK } = parseInput(searchTestSchema, { query: args.query, topK: args.topK ?? 10 });
      const apiKeyId = exactlyOneKey(ctx.viewer, args.apiKeyId);
      const now = Date.now();
      const scope = {
        apiKeyId,
        sessionId: null,
        types: null,
        now,
        retentionCutoff: retentionCutoff(now, (await ctx.services.settings.get()).retentionDays),
      };
      const { hits, latencyMs } = await ctx.services.vectors.searchQdrant(query, scope, topK).catch((error: Error) => {
        throw badInput(`Qdrant search failed: ${error.message}`);
      });
      const rows = new Map(
        (
          await memoriesInScope(
            ctx.services.db,
            scope,
            hits.map((h) => h.pk),
          )
        ).map((r) => [r.pk, r]),
      );
      return {
        latencyMs,
        hits: hits.flatMap((h) => (rows.has(h.pk) ? [{ score: h.similarity, memory: rowToMemory(rows.get(h.pk)!) }] : [])),
      };
    },
  }),
  qdrantCleanup: t.int({
    authScopes: { admin: true },
    description: 'Deletes Qdrant points of expired or out-of-retention memories and of memories that no longer exist; returns how many.',
    resolve: async (_root, _args, ctx) => {
      const now = Date.now();
      return ctx.services.qdrant
        .cleanup(now, retentionCutoff(now, (await ctx.services.settings.get()).retentionDays))
        .catch((error: Error) => {
          throw badInput(`Qdrant cleanup failed: ${error.message}`);
        });
    },
  }),
}));
