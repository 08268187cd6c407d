import { exactlyOneKey } from '../auth/viewer.ts';
import type { FusionShares } from '../retrieval/fusion.ts';
import { retrieve } from '../retrieval/retrieval.service.ts';
import type { RetrievalResult, RetrievedMemory } from '../retrieval/retrieval.ts';
import { limitSchema, maxTokensSchema, rangeText } from '../validation.ts';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { MemoryRef, MemoryTypeEnum } from './memory.schema.ts';
import { StrategyEnum } from './settings.schema.ts';

export const TierEnum = builder.enumType('RetrievalTier', {
  values: {
    ENFORCED: { value: 'enforced', description: 'An enforced memory: included in every retrieval.' },
    EXACT: { value: 'exact', description: 'Newest first.' },
    KEYWORD: { value: 'keyword', description: 'FTS5 with BM25 ranking.' },
    VECTOR: { value: 'vector', description: 'Nearest neighbours of the query embedding.' },
    HYBRID: { value: 'hybrid', description: 'Found by both tiers; their normalised scores are combined.' },
    ADJACENT: {
      value: 'adjacent',
      description: 'Found by no tier, but written next to one of the best hits in the same session (see adjacentTo).',
    },
    PROFILE: {
      value: 'profile',
      description: 'A standing fact of the key (a preference, habit, identity or decision), added after the relevant hits.',
    },
  } as const,
});

const SpeakerEnum = builder.enumType('RetrievalSpeaker', {
  values: {
    USER: { value: 'user', description: 'The query asks about what the user said of themselves ("What did I buy?").' },
    ASSISTANT: { value: 'assistant', description: 'The query asks what the assistant said ("What did you recommend?").' },
  } as const,
});

const SkipEnum = builder.enumType('RetrievalSkip', {
  values: {
    DISABLED: { value: 'disabled', description: 'Memory is switched off in the settings.' },
    ZERO_BUDGET: { value: 'zero_budget', description: 'maxTokens is 0.' },
  } as const,
});

const RetrievedMemoryRef = builder.objectRef<RetrievedMemory>('RetrievedMemory').implement({
  fields: (t) => ({
    memory: t.field({ type: MemoryRef, resolve: (r) => r.memory }),
    content: t.exposeString('content', { description: 'The text injected; shorter than the memory only when truncated.' }),
    truncated: t.exposeBoolean('truncated', {
      description: 'Cut to fit the budget: the whole memory exceeded what was left, or would have crowded out the hits after it.',
    }),
    tier: t.expose('tier', { type: TierEnum }),
    score: t.exposeFloat('score', { description: 'Higher is better; comparable within one result.' }),
    keywordScore: t.exposeFloat('keywordScore', { nullable: true, description: 'BM25 relevance (higher is better).' }),
    keywordRank: t.exposeInt('keywordRank', { nullable: true }),
    vectorScore: t.exposeFloat('vectorScore', { nullable: true, description: 'Cosine similarity to the query.' }),
    vectorRank: t.exposeInt('vectorRank', { nullable: true }),
    tokens: t.exposeInt('tokens', { description: 'Tokens this memory costs in the injected block.' }),
    adjacentTo: t.exposeID('adjacentTo', {
      nullable: true,
      description:
        'The hit this memory was written next to in the same session, when that raised its rank (a small boost that never lifts it to the hit).',
    }),
  }),
});

const FusionRef = builder.objectRef<FusionShares>('RetrievalFusion').implement({
  description: "How HYBRID fused its two tiers: each tier's scores normalised over its first 15 hits, then combined by shares.",
  fields: (t) => ({
    keywordShare: t.exposeFloat('keywordShare'),
    vectorShare: t.exposeFloat('vectorShare', { description: "0.1 to 0.5 when chosen by the guard; the settings' value when fixed." }),
    agreement: t.exposeFloat('agreement', {
      nullable: true,
      description: "Share of the vector tier's first 10 hits that keyword search also ranks in its first 10.",
    }),
    margin: t.exposeFloat('margin', {
      nullable: true,
      description: 'How far the best vector hit stands above the 15th, as a share of the room above the 15th.',
    }),
    reason: t.exposeString('reason', { description: 'Why these shares.' }),
  }),
});

export const ResolutionRef = builder.objectRef<RetrievalResult['resolution']>('RetrievalResolution').implement({
  fields: (t) => ({
    requestedStrategy: t.expose('requestedStrategy', { type: StrategyEnum }),
    tiers: t.field({ type: [TierEnum], description: 'Tiers that produced candidates, in order.', resolve: (r) => r.tiers }),
    fallback: t.boolean({ resolve: (r) => r.fallbackReason !== null }),
    fallbackReason: t.exposeString('fallbackReason', { nullable: true }),
    embeddingSource: t.string({
      nullable: true,
      description: 'remote, static or transformers; null when none is usable.',
      resolve: (r) => r.embedding?.source ?? null,
    }),
    embeddingModel: t.string({ nullable: true, resolve: (r) => r.embedding?.model ?? null }),
    embeddingReason: t.string({
      nullable: true,
      description: 'Why this embedding source was chosen.',
      resolve: (r) => r.embedding?.reason ?? null,
    }),
    vectorStore: t.exposeString('vectorStore', { nullable: true }),
    fusion: t.field({
      type: FusionRef,
      nullable: true,
      description: 'HYBRID with both tiers answering: the shares they were fused with, and why; null otherwise.',
      resolve: (r) => r.fusion,
    }),
    reranked: t.boolean({ resolve: (r) => r.rerank?.applied ?? false }),
    rerankModel: t.string({ nullable: true, resolve: (r) => r.rerank?.model ?? null }),
    rerankReason: t.string({ nullable: true, resolve: (r) => r.rerank?.reason ?? null }),
    nearDuplicates: t.exposeInt('nearDuplicates', {
      description: 'Memories left out of the block because they nearly repeat one already in it.',
    }),
    belowFloor: t.exposeInt('belowFloor', {
      description:
        'HYBRID: hits left out under the relevance floor: no keyword match that is evidence for this query backs them, and the vector list is no evidence for it on its own.',
    }),
    speaker: t.expose('speaker', {
      type: SpeakerEnum,
      nullable: true,
      description:
        'Whose words the query asks about: memories said by that speaker (metadata.role) ranked higher; null when it asks about neither.',
    }),
  }),
});

export const RetrievalResultRef = builder.objectRef<RetrievalResult>('RetrievalResult').implement({
  fields: (t) => ({
    items: t.field({ type: [RetrievedMemoryRef], resolve: (r) => r.items }),
    tokensUsed: t.exposeInt('tokensUsed', { description: 'Tokens of the injected block (o200k_base); never above maxTokens.' }),
    maxTokens: t.exposeInt('maxTokens'),
    candidates: t.exposeInt('candidates', { description: 'Ranked memories the budget walk considered.' }),
    resolution: t.field({ type: ResolutionRef, resolve: (r) => r.resolution }),
    skipped: t.expose('skipped', { type: SkipEnum, nullable: true }),
    block: t.exposeString('block', {
      nullable: true,
      description: 'The memory block exactly as it is injected; null when nothing was retrieved.',
    }),
  }),
});

export const RetrieveInputRef = builder.inputType('RetrieveInput', {
  fields: (t) => ({
    apiKeyId: t.string({ description: 'Optional for tokens bound to one key.' }),
    sessionId: t.string({ description: 'Limit to this session and the key-wide memories.' }),
    query: t.string({ description: 'The text to match, usually the last user message.' }),
    strategy: t.field({ type: StrategyEnum, description: 'Defaults to the settings.' }),
    maxTokens: t.int({ description: `Budget for the injected block, ${rangeText(maxTokensSchema)}; defaults to the settings.` }),
    limit: t.int({ description: `At most this many memories, ${rangeText(limitSchema)} (default 50).` }),
    types: t.field({ type: [MemoryTypeEnum] }),
    asOf: t.field({
      type: 'DateTime',
      description:
        'Answer with what was true then: the memories written by that instant and valid at it (validFrom <= asOf < validTo), superseded later or not. Default: the current memories only.',
    }),
    receipt: t.boolean({
      defaultValue: false,
      description: "Return a receipt (the result's receipt): every candidate with its scores and rank, injected or left out and why.",
    }),
  }),
});

export type RetrieveArgs = typeof RetrieveInputRef.$inferInput;

/** Maps the GraphQL input to the domain input, confined to the caller's API key. */
export function toRetrieveInput({ receipt: _asked, ...input }: RetrieveArgs, ctx: Context) {
  return { ...input, apiKeyId: exactlyOneKey(ctx.viewer, input.apiKeyId) };
}

builder.queryFields((t) => ({
  retrieve: t.field({
    type: RetrievalResultRef,
    description: 'The gateway call: memories for a query within the token budget. Counts accesses and hits.',
    args: { input: t.arg({ type: RetrieveInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      retrieve(ctx.services, toRetrieveInput(input, ctx), { record: true, receipt: input.receipt ?? false }),
  }),
  retrievePreview: t.field({
    type: RetrievalResultRef,
    description: 'A dry run of retrieve with scores and tiers: runs even when memory is disabled, changes nothing.',
    args: { input: t.arg({ type: RetrieveInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      retrieve(ctx.services, toRetrieveInput(input, ctx), { record: false, receipt: input.receipt ?? false }),
  }),
}));
