import { audited } from '../audit/audited.ts';
import { providerSnapshot } from '../audit/snapshots.ts';
import { deleteProvider, listProviders, type Provider, type ProviderModel, upsertProvider } from '../embedding/provider.service.ts';
import { builder } from './builder.ts';

export const ModelKindEnum = builder.enumType('ModelKind', {
  values: { EMBEDDING: { value: 'embedding' }, RERANK: { value: 'rerank' }, CHAT: { value: 'chat' } } as const,
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
  description: 'An OpenAI-compatible embeddings or chat completions, or Cohere/Jina-style rerank endpoint. Its API key is never returned.',
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
  embeddingProviders: t.field({
    type: [ProviderRef],
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => listProviders(ctx.services),
  }),
}));

builder.mutationFields((t) => ({
  upsertModelProvider: t.field({
    type: ProviderRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: ModelProviderInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(
        ctx,
        { action: 'PROVIDER_UPSERT', target: { providerId: input.id }, snapshot: providerSnapshot(ctx.services, input.id) },
        () =>
          upsertProvider(ctx.services, {
            id: input.id,
            baseUrl: input.baseUrl,
            apiKey: input.apiKey ?? undefined,
            keyless: input.keyless ?? undefined,
            models: input.models.map((m) => ({ ...m, dimension: m.dimension ?? null, maxInputTokens: m.maxInputTokens ?? null })),
          }),
      ),
  }),
  deleteModelProvider: t.boolean({
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) =>
      audited(
        ctx,
        { action: 'PROVIDER_DELETE', target: { providerId: String(id) }, snapshot: providerSnapshot(ctx.services, String(id)) },
        async () => {
          await deleteProvider(ctx.services, String(id));
          return true;
        },
      ),
  }),
}));
