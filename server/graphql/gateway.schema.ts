import { exactlyOneKey } from '../auth/viewer.ts';
import { type ExtractedFact, MAX_EXTRACTION_INPUT } from '../gateway/extraction.ts';
import { type ExtractOutcome, extractAndStore, type InjectOutcome, injectMemory } from '../gateway/gateway.service.ts';
import { type ExtractionModelUsage, extractionModelUsage } from '../gateway/modelExtraction.ts';
import { builder } from './builder.ts';
import { MemoryRef, MemoryTypeEnum } from './memory.schema.ts';
import { ReceiptRef } from './receipt.schema.ts';
import { RetrievalResultRef, RetrieveInputRef, toRetrieveInput } from './retrieval.schema.ts';

const ShapeEnum = builder.enumType('ChatRequestShape', {
  values: {
    CHAT_MESSAGES: { value: 'chat_messages', description: 'OpenAI chat completions: { messages }.' },
    RESPONSES_INPUT: { value: 'responses_input', description: 'OpenAI Responses API: { input, instructions }.' },
    ANTHROPIC: { value: 'anthropic', description: 'Anthropic messages: { system, messages }.' },
  } as const,
});

const RoleEnum = builder.enumType('InjectionRole', {
  values: { SYSTEM: { value: 'system' }, USER: { value: 'user' } } as const,
});

const InjectionResultRef = builder.objectRef<InjectOutcome>('InjectionResult').implement({
  fields: (t) => ({
    request: t.expose('request', { type: 'JSONObject', description: 'The request to forward: unchanged except for the memory block.' }),
    injected: t.exposeBoolean('injected'),
    role: t.expose('role', { type: RoleEnum, nullable: true, description: 'The role the block was injected as.' }),
    shape: t.expose('shape', { type: ShapeEnum, nullable: true }),
    optedOut: t.exposeBoolean('optedOut', { description: 'The request asked for no memory; nothing was retrieved.' }),
    retrieval: t.field({ type: RetrievalResultRef, nullable: true, resolve: (o) => o.retrieval }),
    receipt: t.field({
      type: ReceiptRef,
      nullable: true,
      description:
        'What became of every candidate, when retrieval.receipt asked for it; says so when memory is off, the budget is 0 or the request opted out.',
      resolve: (o) => o.receipt,
    }),
    captured: t.exposeInt('captured', {
      description:
        "Memories stored now from the request's messages (the captureTurns setting); messages captured by an earlier request are not stored or counted again.",
    }),
  }),
});

const InjectMemoryInputRef = builder.inputType('InjectMemoryInput', {
  fields: (t) => ({
    request: t.field({ type: 'JSONObject', required: true, description: 'The chat request as the gateway would forward it.' }),
    provider: t.string({ required: true, description: 'Provider or model id, e.g. "openai/gpt-4o" or "o1-mini".' }),
    shape: t.field({ type: ShapeEnum, description: 'The request format, when known; detected otherwise.' }),
    noMemory: t.boolean({ description: 'The request opted out of memory: nothing is retrieved or injected.' }),
    retrieval: t.field({ type: RetrieveInputRef, required: true, description: 'query defaults to the last user message.' }),
    occurredAt: t.field({
      type: 'DateTime',
      description:
        'When the request was made, not in the future: the createdAt and validFrom of the messages it captures (captureTurns). Default: now.',
    }),
  }),
});

builder.mutationField('injectMemory', (t) =>
  t.field({
    type: InjectionResultRef,
    description: 'Retrieves memories for a chat request and returns the request with them injected.',
    args: { input: t.arg({ type: InjectMemoryInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      injectMemory(ctx.services, {
        ...toRetrieveInput(input.retrieval, ctx),
        request: input.request,
        provider: input.provider,
        shape: input.shape,
        noMemory: input.noMemory,
        occurredAt: input.occurredAt,
        receipt: input.retrieval.receipt,
      }),
  }),
);

const MessageRoleEnum = builder.enumType('MessageRole', {
  values: { USER: { value: 'user' }, ASSISTANT: { value: 'assistant' } } as const,
});

const FactCategoryEnum = builder.enumType('FactCategory', {
  values: {
    PREFERENCE: { value: 'preference' },
    DECISION: { value: 'decision' },
    HABIT: { value: 'habit' },
    IDENTITY: { value: 'identity' },
    GOAL: { value: 'goal' },
  } as const,
});

const PolarityEnum = builder.enumType('FactPolarity', {
  values: { POSITIVE: { value: 'positive' }, NEGATIVE: { value: 'negative' } } as const,
});

const ExtractedFactRef = builder.objectRef<ExtractedFact>('ExtractedFact').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    content: t.exposeString('content'),
    type: t.expose('type', { type: MemoryTypeEnum }),
    category: t.expose('category', { type: FactCategoryEnum }),
    polarity: t.expose('polarity', { type: PolarityEnum }),
    source: t.exposeString('source', { description: 'The sentence the fact came from.' }),
  }),
});

const ExtractionSkipEnum = builder.enumType('ExtractionSkip', {
  values: {
    DISABLED: { value: 'disabled', description: 'Memory is switched off in the settings: nothing is extracted or stored.' },
    OPTED_OUT: { value: 'opted_out', description: 'The request asked for no memory.' },
  } as const,
});

const ExtractionResultRef = builder.objectRef<ExtractOutcome>('ExtractionResult').implement({
  fields: (t) => ({
    skipped: t.expose('skipped', {
      type: ExtractionSkipEnum,
      nullable: true,
      description: 'Why nothing was extracted, when that was on purpose; null otherwise.',
    }),
    facts: t.field({ type: [ExtractedFactRef], resolve: (o) => o.facts }),
    memories: t.field({
      type: [MemoryRef],
      description: 'The memories written (upserted by fact key, or merged into a memory that says the same: see writeOutcome).',
      resolve: (o) => o.memories,
    }),
    merged: t.int({
      description: 'How many of the facts were merged into a memory that says the same in other words, rather than created or updated.',
      resolve: (o) => o.memories.filter((m) => m.outcome === 'merged').length,
    }),
    captured: t.field({
      type: [MemoryRef],
      description:
        "The message kept as an episodic memory of its session (the captureTurns setting), secrets redacted, one memory per part of a long message; stored by this call or, for the same message in the same session, an earlier one. Empty when its role is not captured. Each fact's metadata.sourceTurn is the first part's id.",
      resolve: (o) => o.captured,
    }),
    error: t.exposeString('error', { nullable: true, description: 'Set when storing failed; extraction never fails the request.' }),
  }),
});

const ExtractFactsInputRef = builder.inputType('ExtractFactsInput', {
  fields: (t) => ({
    apiKeyId: t.string({ description: 'Optional for tokens bound to one key.' }),
    sessionId: t.string({ description: "Recorded in the facts' metadata; facts themselves are key-wide." }),
    text: t.string({ required: true, description: `Message text; only the last ${MAX_EXTRACTION_INPUT} characters are mined.` }),
    role: t.field({ type: MessageRoleEnum, required: true }),
    persist: t.boolean({
      defaultValue: true,
      description: 'Store the facts. false is a dry run: the facts are reported, nothing is stored (works with memory disabled).',
    }),
    includeAssistant: t.boolean({
      defaultValue: false,
      description: "Mine assistant text too (off: the assistant's plans are not the user's facts).",
    }),
    noMemory: t.boolean({ description: 'The request opted out of memory: nothing is extracted.' }),
    occurredAt: t.field({
      type: 'DateTime',
      description:
        "When the message was said, not in the future: its captured turn's createdAt, and when its facts start to hold (validFrom), so a replayed conversation supersedes in the order things were said. Default: now.",
    }),
  }),
});

builder.mutationField('extractFacts', (t) =>
  t.field({
    type: ExtractionResultRef,
    description:
      'Extracts preferences, decisions, habits and the like from a message and stores them. Secrets are never stored. With memory disabled nothing is stored (skipped: DISABLED).',
    args: { input: t.arg({ type: ExtractFactsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => extractAndStore(ctx.services, { ...input, apiKeyId: exactlyOneKey(ctx.viewer, input.apiKeyId) }),
  }),
);

const ExtractionModelUsageRef = builder.objectRef<ExtractionModelUsage>('ExtractionModelUsage').implement({
  description: "What the extraction model (the extractionModel setting) used for one API key today, against the key's daily budget.",
  fields: (t) => ({
    apiKeyId: t.exposeString('apiKeyId'),
    day: t.exposeString('day', { description: 'The UTC day counted (YYYY-MM-DD); budgets start afresh at midnight UTC.' }),
    tokensUsed: t.exposeInt('tokensUsed', { description: 'Prompt and answer tokens, as the model reported them.' }),
    calls: t.exposeInt('calls'),
    dailyTokens: t.exposeInt('dailyTokens', {
      description: 'The budget (extractionModelDailyTokens): a message that could exceed it is left to the rules.',
    }),
  }),
});

builder.queryField('extractionModelUsage', (t) =>
  t.field({
    type: ExtractionModelUsageRef,
    args: { apiKeyId: t.arg.string({ description: "Defaults to the token's own key." }) },
    resolve: (_root, { apiKeyId }, ctx) => extractionModelUsage(ctx.services, exactlyOneKey(ctx.viewer, apiKeyId)),
  }),
);
