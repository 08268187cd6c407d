import { testRerankModel } from '../retrieval/rerank.service.ts';
import { type ModelTest, testExtractionModel, testModelProvider } from '../vector/modelTest.ts';
import type { RecentCalls } from '../vector/recentCalls.ts';
import { testEmbeddingModel } from '../vector/vector.service.ts';
import { builder } from './builder.ts';
import { ModelKindEnum } from './provider.schema.ts';

/** How the calls to one part of the engine went lately; the engine status shows it on each part's card. */
export const RecentCallsRef = builder.objectRef<RecentCalls>('RecentCalls').implement({
  description: 'Calls made to an outside part of the engine (a model, Qdrant) in the last windowSeconds.',
  fields: (t) => ({
    windowSeconds: t.int({ resolve: (c) => Math.round(c.windowMs / 1000) }),
    calls: t.exposeInt('calls'),
    failures: t.exposeInt('failures'),
    lastError: t.exposeString('lastError', { nullable: true, description: 'The last failure, also when later calls succeeded.' }),
    lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true }),
  }),
});

const ModelTestRef = builder.objectRef<ModelTest>('ModelTestResult').implement({
  description: 'What one real call to a model answered, or why it failed.',
  fields: (t) => ({
    kind: t.expose('kind', { type: ModelKindEnum }),
    model: t.exposeString('model', { nullable: true, description: 'provider/model, or the local model; null when there is none.' }),
    ok: t.exposeBoolean('ok'),
    latencyMs: t.exposeFloat('latencyMs', { description: '0 when no call was made.' }),
    answer: t.exposeString('answer', { nullable: true, description: 'What the model answered, in words.' }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

builder.mutationFields((t) => ({
  testEngineModel: t.field({
    type: ModelTestRef,
    authScopes: { admin: true },
    description:
      "One real call to the model in use (EMBEDDING: one short text embedded, past the cache, with the client's usual retries; RERANK: two documents ranked; CHAT: the extractionModel asked for a one-field JSON answer); " +
      'it counts in engineStatus like any other call. Changes nothing else.',
    args: { kind: t.arg({ type: ModelKindEnum, required: true }) },
    resolve: (_root, { kind }, ctx) =>
      kind === 'embedding'
        ? testEmbeddingModel(ctx.services)
        : kind === 'rerank'
          ? testRerankModel(ctx.services)
          : testExtractionModel(ctx.services),
  }),
  testModelProvider: t.field({
    type: [ModelTestRef],
    authScopes: { admin: true },
    description: 'One real call to each model of this provider, without retries, whether the settings use it or not. Changes nothing.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => testModelProvider(ctx.services, String(id)),
  }),
}));
