import { audited } from '../audit/audited.ts';
import { settingsSnapshot } from '../audit/snapshots.ts';
import {
  type CAPTURE_TURNS,
  EMBEDDING_SOURCES,
  memorySettings,
  type Settings,
  STRATEGIES,
  updateMemorySettings,
  VECTOR_STORES,
} from '../settings/settings.service.ts';
import {
  auditRetentionDaysSchema,
  extractionModelDailyTokensSchema,
  historyVersionsKeptSchema,
  injectionLogDaysSchema,
  LIMITS,
  maxTokensSchema,
  purgeGraceDaysSchema,
  rangeText,
  retentionDaysSchema,
} from '../validation.ts';
import { builder } from './builder.ts';

const asValues = <T extends readonly string[]>(values: T) => values;

export const StrategyEnum = builder.enumType('RetrievalStrategy', { values: asValues(STRATEGIES) });
const EmbeddingSourceEnum = builder.enumType('EmbeddingSource', { values: asValues(EMBEDDING_SOURCES) });
const VectorStoreEnum = builder.enumType('VectorStore', { values: asValues(VECTOR_STORES) });
const CaptureTurnsEnum = builder.enumType('CaptureTurns', {
  description: 'Which chat messages extractFacts and injectMemory keep verbatim, secrets redacted, as episodic memories of their session.',
  values: {
    OFF: { description: 'None: only the facts the rules find are stored.' },
    USER: { description: "The user's messages (the default)." },
    ALL: { description: "The user's and the assistant's messages." },
  } as const satisfies Record<(typeof CAPTURE_TURNS)[number], unknown>,
});

const MemorySettingsRef = builder.objectRef<Settings>('MemorySettings').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Inject memories into requests. Every injected token is billed by the provider.' }),
    maxTokens: t.exposeInt('maxTokens', { description: `Token budget for injected memories, ${rangeText(maxTokensSchema)}.` }),
    retentionDays: t.exposeInt('retentionDays', {
      description: `While retentionEnabled: memories last written longer ago are not retrieved, and later purged; ${rangeText(retentionDaysSchema)}.`,
    }),
    retentionEnabled: t.exposeBoolean('retentionEnabled', {
      description: 'false keeps every memory, however old (expiresAt still applies); retentionDays then waits for it to be turned on.',
    }),
    purgeGraceDays: t.exposeInt('purgeGraceDays', {
      description: `Days, ${rangeText(purgeGraceDaysSchema)}, that a memory stays in the database after it expired or left the retention window, before the purge deletes it (hourly and at start). Until then includeExpired lists it.`,
    }),
    strategy: t.expose('strategy', { type: StrategyEnum }),
    embeddingSource: t.expose('embeddingSource', { type: EmbeddingSourceEnum }),
    embeddingProviderModel: t.exposeString('embeddingProviderModel', { nullable: true }),
    transformersEnabled: t.exposeBoolean('transformersEnabled'),
    staticEnabled: t.exposeBoolean('staticEnabled'),
    rerankEnabled: t.exposeBoolean('rerankEnabled'),
    rerankProviderModel: t.exposeString('rerankProviderModel', { nullable: true }),
    vectorStore: t.expose('vectorStore', { type: VectorStoreEnum }),
    autoSummarize: t.exposeBoolean('autoSummarize'),
    fusionVectorShare: t.exposeFloat('fusionVectorShare', {
      nullable: true,
      description:
        "HYBRID's fixed vector-tier share of the fusion (keyword's is the rest), 0 to 1; null: chosen per query by the calibrated guard.",
    }),
    profileBudgetPercent: t.exposeInt('profileBudgetPercent', {
      description: 'Share of maxTokens, 0 to 100, that standing facts (preferences, habits) may fill after the relevant hits.',
    }),
    userRoleProviders: t.exposeStringList('userRoleProviders', {
      description: 'Providers or models that reject the system role; memories reach them as a user message.',
    }),
    auditRetentionDays: t.exposeInt('auditRetentionDays', {
      description: `Audit entries older than this are deleted, ${rangeText(auditRetentionDaysSchema)} days (default 365).`,
    }),
    captureTurns: t.expose('captureTurns', {
      type: CaptureTurnsEnum,
      description:
        'Which messages are kept as captured turns (memories with metadata.source "capture"), each once per session however often it is sent.',
    }),
    extractionModel: t.exposeString('extractionModel', {
      nullable: true,
      description:
        'A provider\'s CHAT model ("provider/model") that extraction also asks for durable facts, in the background after the rules; null: the rules alone.',
    }),
    extractionModelDailyTokens: t.exposeInt('extractionModelDailyTokens', {
      description: `Tokens the extraction model may use per API key per UTC day, ${rangeText(extractionModelDailyTokensSchema)}; 0 stops its calls.`,
    }),
    mergeParaphrases: t.exposeBoolean('mergeParaphrases', {
      description:
        'One memory per fact: a new memory (createMemory, extractFacts, importMemories without a key, memory_add) that restates one of the same API key, session and type in other words is merged into it: its mentions go up, the more specific wording stays, the other goes to its history.',
    }),
    historyVersionsKept: t.exposeInt('historyVersionsKept', {
      description: `Previous versions each memory keeps in its history (memoryHistory), ${rangeText(historyVersionsKeptSchema)}; the oldest beyond it are dropped at the next change; 0 keeps none.`,
    }),
    injectionLogDays: t.exposeInt('injectionLogDays', {
      description: `Days, ${rangeText(injectionLogDaysSchema)}, that each injectMemory's receipt is kept in the injection log (the newest ${LIMITS.injectionLogRows} per API key; see injections); 0, the default, keeps none.`,
    }),
  }),
});

const MemorySettingsInputRef = builder.inputType('MemorySettingsInput', {
  description: 'Only the fields given change. Values out of range are rejected, not clamped.',
  fields: (t) => ({
    enabled: t.boolean(),
    maxTokens: t.int(),
    retentionDays: t.int(),
    retentionEnabled: t.boolean(),
    purgeGraceDays: t.int(),
    strategy: t.field({ type: StrategyEnum }),
    embeddingSource: t.field({ type: EmbeddingSourceEnum }),
    embeddingProviderModel: t.string(),
    transformersEnabled: t.boolean(),
    staticEnabled: t.boolean(),
    rerankEnabled: t.boolean(),
    rerankProviderModel: t.string(),
    vectorStore: t.field({ type: VectorStoreEnum }),
    autoSummarize: t.boolean(),
    fusionVectorShare: t.float({ description: 'null returns to the calibrated guard.' }),
    profileBudgetPercent: t.int(),
    userRoleProviders: t.stringList(),
    auditRetentionDays: t.int(),
    captureTurns: t.field({ type: CaptureTurnsEnum }),
    extractionModel: t.string({ description: 'null returns to the rules alone.' }),
    extractionModelDailyTokens: t.int(),
    historyVersionsKept: t.int(),
    mergeParaphrases: t.boolean(),
    injectionLogDays: t.int(),
  }),
});

builder.queryField('memorySettings', (t) =>
  t.field({
    type: MemorySettingsRef,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => memorySettings(ctx.services),
  }),
);

builder.mutationField('updateMemorySettings', (t) =>
  t.field({
    type: MemorySettingsRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: MemorySettingsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(ctx, { action: 'SETTINGS_UPDATE', snapshot: settingsSnapshot(ctx.services) }, () =>
        updateMemorySettings(ctx.services, input),
      ),
  }),
);
