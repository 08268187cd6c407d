/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ChatRequestShape =
  /** Anthropic messages: { system, messages }. */
  | 'ANTHROPIC'
  /** OpenAI chat completions: { messages }. */
  | 'CHAT_MESSAGES'
  /** OpenAI Responses API: { input, instructions }. */
  | 'RESPONSES_INPUT';

export type ExtractFactsInput = {
  /** Optional for tokens bound to one key. */
  apiKeyId?: string | null | undefined;
  /** Mine assistant text too (off: the assistant's plans are not the user's facts). */
  includeAssistant?: boolean | null | undefined;
  /** The request opted out of memory: nothing is extracted. */
  noMemory?: boolean | null | undefined;
  /** When the message was said, not in the future: its captured turn's createdAt, and when its facts start to hold (validFrom), so a replayed conversation supersedes in the order things were said. Default: now. */
  occurredAt?: string | null | undefined;
  /** Store the facts. false is a dry run: the facts are reported, nothing is stored (works with memory disabled). */
  persist?: boolean | null | undefined;
  role: MessageRole;
  /** Recorded in the facts' metadata; facts themselves are key-wide. */
  sessionId?: string | null | undefined;
  /** Message text; only the last 65536 characters are mined. */
  text: string;
};

export type ExtractionSkip =
  /** Memory is switched off in the settings: nothing is extracted or stored. */
  | 'DISABLED'
  /** The request asked for no memory. */
  | 'OPTED_OUT';

export type FactCategory =
  | 'DECISION'
  | 'GOAL'
  | 'HABIT'
  | 'IDENTITY'
  | 'PREFERENCE';

export type FactPolarity =
  | 'NEGATIVE'
  | 'POSITIVE';

export type InjectMemoryInput = {
  /** The request opted out of memory: nothing is retrieved or injected. */
  noMemory?: boolean | null | undefined;
  /** When the request was made, not in the future: the createdAt and validFrom of the messages it captures (captureTurns). Default: now. */
  occurredAt?: string | null | undefined;
  /** Provider or model id, e.g. "openai/gpt-4o" or "o1-mini". */
  provider: string;
  /** The chat request as the gateway would forward it. */
  request: Record<string, unknown>;
  /** query defaults to the last user message. */
  retrieval: RetrieveInput;
  /** The request format, when known; detected otherwise. */
  shape?: ChatRequestShape | null | undefined;
};

export type InjectionRole =
  | 'SYSTEM'
  | 'USER';

/** Why a candidate the retrieval saw was left out of the block. */
export type LeftOutReason =
  /** Under the relevance floor, it never reached the budget walk: no keyword match that is evidence for the query backs it (none, or a single common word: one held by a fifth of the memories of a large key, or a number of one or two digits), and the vector tier did not find it near the head of a list that is evidence on its own. */
  | 'BELOW_FLOOR'
  /** A fact extracted from a captured turn that the block holds: the turn says it in the user's words, so it is not said twice. */
  | 'IN_ITS_TURN'
  /** It nearly repeats, word for word, a memory already in the block. */
  | 'NEAR_DUPLICATE'
  /** Its line did not fit in what was left of the token budget. */
  | 'OVER_BUDGET'
  /** The block already held as many memories as the limit allows. */
  | 'OVER_LIMIT';

export type MemoryInput = {
  /** The tenant. Optional for tokens bound to one key. */
  apiKeyId?: string | null | undefined;
  content: string;
  /** For restoring exports; defaults to now. */
  createdAt?: string | null | undefined;
  expiresAt?: string | null | undefined;
  /** Upsert key within the API key; derived from the content when omitted. */
  key?: string | null | undefined;
  /** Merged shallowly into the metadata of an existing memory with the same key. */
  metadata?: Record<string, unknown> | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  /** When the fact started to hold, not in the future; defaults to createdAt (to now without one). */
  validFrom?: string | null | undefined;
  /** When it stopped holding, not in the future (an end still to come is expiresAt); null: it holds now. */
  validTo?: string | null | undefined;
};

export type MemoryOrderField =
  | 'ACCESS_COUNT'
  | 'CREATED_AT'
  | 'KEY'
  | 'TOKENS'
  | 'UPDATED_AT';

/** Fields to change; omitted fields stay. metadata replaces the whole object. */
export type MemoryPatchInput = {
  content?: string | null | undefined;
  expiresAt?: string | null | undefined;
  key?: string | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
};

/** ACTIVE memories are retrieved while memory is switched on (enabled); the others are kept but never injected. */
export type MemoryStatus =
  | 'ACTIVE'
  /** replaced by a summary; restoring the summary brings it back */
  | 'ARCHIVED'
  /** expiresAt has passed */
  | 'EXPIRED'
  /** last written before the retention window */
  | 'OUT_OF_RETENTION'
  /** no longer true (validTo is set): replaced by a newer fact, or imported as ended */
  | 'SUPERSEDED';

export type MemoryType =
  | 'ENFORCED'
  | 'EPISODIC'
  | 'FACTUAL'
  | 'PROCEDURAL'
  | 'SEMANTIC';

export type MessageRole =
  | 'ASSISTANT'
  | 'USER';

export type ReceiptSkip =
  /** Memory is switched off in the settings: nothing was retrieved. */
  | 'DISABLED'
  /** The request asked for no memory: nothing was retrieved. */
  | 'OPTED_OUT'
  /** maxTokens is 0: nothing was retrieved. */
  | 'ZERO_BUDGET';

export type ReindexStatus =
  | 'CANCELLED'
  | 'COMPLETED'
  | 'FAILED'
  | 'RUNNING';

export type RetrievalSkip =
  /** Memory is switched off in the settings. */
  | 'DISABLED'
  /** maxTokens is 0. */
  | 'ZERO_BUDGET';

export type RetrievalStrategy =
  | 'EXACT'
  | 'HYBRID'
  | 'SEMANTIC';

export type RetrievalTier =
  /** Found by no tier, but written next to one of the best hits in the same session (see adjacentTo). */
  | 'ADJACENT'
  /** An enforced memory: included in every retrieval. */
  | 'ENFORCED'
  /** Newest first. */
  | 'EXACT'
  /** Found by both tiers; their normalised scores are combined. */
  | 'HYBRID'
  /** FTS5 with BM25 ranking. */
  | 'KEYWORD'
  /** A standing fact of the key (a preference, habit, identity or decision), added after the relevant hits. */
  | 'PROFILE'
  /** Nearest neighbours of the query embedding. */
  | 'VECTOR';

export type RetrieveInput = {
  /** Optional for tokens bound to one key. */
  apiKeyId?: string | null | undefined;
  /** Answer with what was true then: the memories written by that instant and valid at it (validFrom <= asOf < validTo), superseded later or not. Default: the current memories only. */
  asOf?: string | null | undefined;
  /** At most this many memories, 1 to 500 (default 50). */
  limit?: number | null | undefined;
  /** Budget for the injected block, 0 to 16000; defaults to the settings. */
  maxTokens?: number | null | undefined;
  /** The text to match, usually the last user message. */
  query?: string | null | undefined;
  /** Return a receipt (the result's receipt): every candidate with its scores and rank, injected or left out and why. */
  receipt?: boolean | null | undefined;
  /** Limit to this session and the key-wide memories. */
  sessionId?: string | null | undefined;
  /** Defaults to the settings. */
  strategy?: RetrievalStrategy | null | undefined;
  types?: Array<MemoryType> | null | undefined;
};

export type SortDirection =
  | 'ASC'
  | 'DESC';

export type ClientMemoryFragment = { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null };

export type ClientRetrievalFragment = { block: string | null, candidates: number, maxTokens: number, tokensUsed: number, skipped: RetrievalSkip | null, items: Array<{ content: string, tier: RetrievalTier, score: number, tokens: number, truncated: boolean, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } }>, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null } };

export type ClientReceiptFragment = { skipped: ReceiptSkip | null, maxTokens: number | null, tokensUsed: number, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, fusion: { keywordShare: number, vectorShare: number, reason: string } | null } | null, injected: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, keywordScore: number | null, vectorScore: number | null, tokens: number, truncated: boolean }>, leftOut: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, keywordScore: number | null, vectorScore: number | null, reason: LeftOutReason }> };

export type ClientReindexJobFragment = { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null };

export type RetrieveQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type RetrieveQuery = { retrieve: { block: string | null, candidates: number, maxTokens: number, tokensUsed: number, skipped: RetrievalSkip | null, items: Array<{ content: string, tier: RetrievalTier, score: number, tokens: number, truncated: boolean, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } }>, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null } } };

export type RetrievePreviewQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type RetrievePreviewQuery = { retrievePreview: { block: string | null, candidates: number, maxTokens: number, tokensUsed: number, skipped: RetrievalSkip | null, items: Array<{ content: string, tier: RetrievalTier, score: number, tokens: number, truncated: boolean, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } }>, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null } } };

export type InjectMemoryMutationVariables = Exact<{
  input: InjectMemoryInput;
}>;


export type InjectMemoryMutation = { injectMemory: { injected: boolean, optedOut: boolean, request: Record<string, unknown>, role: InjectionRole | null, shape: ChatRequestShape | null, retrieval: { block: string | null, candidates: number, maxTokens: number, tokensUsed: number, skipped: RetrievalSkip | null, items: Array<{ content: string, tier: RetrievalTier, score: number, tokens: number, truncated: boolean, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } }>, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null } } | null, receipt: { skipped: ReceiptSkip | null, maxTokens: number | null, tokensUsed: number, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, fusion: { keywordShare: number, vectorShare: number, reason: string } | null } | null, injected: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, keywordScore: number | null, vectorScore: number | null, tokens: number, truncated: boolean }>, leftOut: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, keywordScore: number | null, vectorScore: number | null, reason: LeftOutReason }> } | null } };

export type ExtractFactsMutationVariables = Exact<{
  input: ExtractFactsInput;
}>;


export type ExtractFactsMutation = { extractFacts: { skipped: ExtractionSkip | null, error: string | null, facts: Array<{ key: string, content: string, type: MemoryType, category: FactCategory, polarity: FactPolarity, source: string }>, memories: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null }> } };

export type CreateMemoryMutationVariables = Exact<{
  input: MemoryInput;
}>;


export type CreateMemoryMutation = { createMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } };

export type UpdateMemoryMutationVariables = Exact<{
  id: string | number;
  input: MemoryPatchInput;
}>;


export type UpdateMemoryMutation = { updateMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } };

export type DeleteMemoryMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteMemoryMutation = { deleteMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null } };

export type MemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  createdAfter?: string | null | undefined;
  createdBefore?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
  orderBy?: MemoryOrderField | null | undefined;
  direction?: SortDirection | null | undefined;
}>;


export type MemoriesQuery = { memories: { totalCount: number, limit: number, offset: number, hasMore: boolean, items: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null }> } };

export type ClearMemoriesMutationVariables = Exact<{
  apiKeyId: string;
  type?: MemoryType | null | undefined;
  createdBefore?: string | null | undefined;
}>;


export type ClearMemoriesMutation = { clearMemories: number };

export type ImportMemoriesMutationVariables = Exact<{
  memories: Array<MemoryInput> | MemoryInput;
}>;


export type ImportMemoriesMutation = { importMemories: { imported: number, updated: number, disabled: boolean, rejected: Array<{ index: number, key: string | null, reason: string }> } };

export type ExportMemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  createdAfter?: string | null | undefined;
  createdBefore?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
}>;


export type ExportMemoriesQuery = { exportMemories: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus, createdAt: string, updatedAt: string, expiresAt: string | null }> };

export type ReindexMutationVariables = Exact<{
  force?: boolean | null | undefined;
}>;


export type ReindexMutation = { reindex: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type ReindexProgressSubscriptionVariables = Exact<{
  jobId: string | number;
}>;


export type ReindexProgressSubscription = { reindexProgress: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ClientMemoryFragmentDoc = new TypedDocumentString(`
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}
    `, {"fragmentName":"ClientMemory"}) as unknown as TypedDocumentString<ClientMemoryFragment, unknown>;
export const ClientRetrievalFragmentDoc = new TypedDocumentString(`
    fragment ClientRetrieval on RetrievalResult {
  block
  candidates
  maxTokens
  tokensUsed
  skipped
  items {
    content
    tier
    score
    tokens
    truncated
    memory {
      ...ClientMemory
    }
  }
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`, {"fragmentName":"ClientRetrieval"}) as unknown as TypedDocumentString<ClientRetrievalFragment, unknown>;
export const ClientReceiptFragmentDoc = new TypedDocumentString(`
    fragment ClientReceipt on RetrievalReceipt {
  skipped
  maxTokens
  tokensUsed
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
    fusion {
      keywordShare
      vectorShare
      reason
    }
  }
  injected {
    memoryId
    tier
    rank
    score
    keywordScore
    vectorScore
    tokens
    truncated
  }
  leftOut {
    memoryId
    tier
    rank
    score
    keywordScore
    vectorScore
    reason
  }
}
    `, {"fragmentName":"ClientReceipt"}) as unknown as TypedDocumentString<ClientReceiptFragment, unknown>;
export const ClientReindexJobFragmentDoc = new TypedDocumentString(`
    fragment ClientReindexJob on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  rate
  etaSeconds
  error
  startedAt
  updatedAt
  finishedAt
}
    `, {"fragmentName":"ClientReindexJob"}) as unknown as TypedDocumentString<ClientReindexJobFragment, unknown>;
export const RetrieveDocument = new TypedDocumentString(`
    query Retrieve($input: RetrieveInput!) {
  retrieve(input: $input) {
    ...ClientRetrieval
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}
fragment ClientRetrieval on RetrievalResult {
  block
  candidates
  maxTokens
  tokensUsed
  skipped
  items {
    content
    tier
    score
    tokens
    truncated
    memory {
      ...ClientMemory
    }
  }
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
  }
}`) as unknown as TypedDocumentString<RetrieveQuery, RetrieveQueryVariables>;
export const RetrievePreviewDocument = new TypedDocumentString(`
    query RetrievePreview($input: RetrieveInput!) {
  retrievePreview(input: $input) {
    ...ClientRetrieval
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}
fragment ClientRetrieval on RetrievalResult {
  block
  candidates
  maxTokens
  tokensUsed
  skipped
  items {
    content
    tier
    score
    tokens
    truncated
    memory {
      ...ClientMemory
    }
  }
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
  }
}`) as unknown as TypedDocumentString<RetrievePreviewQuery, RetrievePreviewQueryVariables>;
export const InjectMemoryDocument = new TypedDocumentString(`
    mutation InjectMemory($input: InjectMemoryInput!) {
  injectMemory(input: $input) {
    injected
    optedOut
    request
    role
    shape
    retrieval {
      ...ClientRetrieval
    }
    receipt {
      ...ClientReceipt
    }
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}
fragment ClientRetrieval on RetrievalResult {
  block
  candidates
  maxTokens
  tokensUsed
  skipped
  items {
    content
    tier
    score
    tokens
    truncated
    memory {
      ...ClientMemory
    }
  }
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
  }
}
fragment ClientReceipt on RetrievalReceipt {
  skipped
  maxTokens
  tokensUsed
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
    fusion {
      keywordShare
      vectorShare
      reason
    }
  }
  injected {
    memoryId
    tier
    rank
    score
    keywordScore
    vectorScore
    tokens
    truncated
  }
  leftOut {
    memoryId
    tier
    rank
    score
    keywordScore
    vectorScore
    reason
  }
}`) as unknown as TypedDocumentString<InjectMemoryMutation, InjectMemoryMutationVariables>;
export const ExtractFactsDocument = new TypedDocumentString(`
    mutation ExtractFacts($input: ExtractFactsInput!) {
  extractFacts(input: $input) {
    skipped
    error
    facts {
      key
      content
      type
      category
      polarity
      source
    }
    memories {
      ...ClientMemory
    }
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<ExtractFactsMutation, ExtractFactsMutationVariables>;
export const CreateMemoryDocument = new TypedDocumentString(`
    mutation CreateMemory($input: MemoryInput!) {
  createMemory(input: $input) {
    ...ClientMemory
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<CreateMemoryMutation, CreateMemoryMutationVariables>;
export const UpdateMemoryDocument = new TypedDocumentString(`
    mutation UpdateMemory($id: ID!, $input: MemoryPatchInput!) {
  updateMemory(id: $id, input: $input) {
    ...ClientMemory
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<UpdateMemoryMutation, UpdateMemoryMutationVariables>;
export const DeleteMemoryDocument = new TypedDocumentString(`
    mutation DeleteMemory($id: ID!) {
  deleteMemory(id: $id) {
    ...ClientMemory
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<DeleteMemoryMutation, DeleteMemoryMutationVariables>;
export const MemoriesDocument = new TypedDocumentString(`
    query Memories($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $createdAfter: DateTime, $createdBefore: DateTime, $includeExpired: Boolean, $includeArchived: Boolean, $limit: Int, $offset: Int, $orderBy: MemoryOrderField, $direction: SortDirection) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    createdAfter: $createdAfter
    createdBefore: $createdBefore
    includeExpired: $includeExpired
    includeArchived: $includeArchived
    limit: $limit
    offset: $offset
    orderBy: $orderBy
    direction: $direction
  ) {
    totalCount
    limit
    offset
    hasMore
    items {
      ...ClientMemory
    }
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<MemoriesQuery, MemoriesQueryVariables>;
export const ClearMemoriesDocument = new TypedDocumentString(`
    mutation ClearMemories($apiKeyId: String!, $type: MemoryType, $createdBefore: DateTime) {
  clearMemories(apiKeyId: $apiKeyId, type: $type, createdBefore: $createdBefore)
}
    `) as unknown as TypedDocumentString<ClearMemoriesMutation, ClearMemoriesMutationVariables>;
export const ImportMemoriesDocument = new TypedDocumentString(`
    mutation ImportMemories($memories: [MemoryInput!]!) {
  importMemories(memories: $memories) {
    imported
    updated
    rejected {
      index
      key
      reason
    }
    disabled
  }
}
    `) as unknown as TypedDocumentString<ImportMemoriesMutation, ImportMemoriesMutationVariables>;
export const ExportMemoriesDocument = new TypedDocumentString(`
    query ExportMemories($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $createdAfter: DateTime, $createdBefore: DateTime, $includeExpired: Boolean, $includeArchived: Boolean) {
  exportMemories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    createdAfter: $createdAfter
    createdBefore: $createdBefore
    includeExpired: $includeExpired
    includeArchived: $includeArchived
  ) {
    ...ClientMemory
  }
}
    fragment ClientMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  status
  createdAt
  updatedAt
  expiresAt
}`) as unknown as TypedDocumentString<ExportMemoriesQuery, ExportMemoriesQueryVariables>;
export const ReindexDocument = new TypedDocumentString(`
    mutation Reindex($force: Boolean) {
  reindex(force: $force) {
    ...ClientReindexJob
  }
}
    fragment ClientReindexJob on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  rate
  etaSeconds
  error
  startedAt
  updatedAt
  finishedAt
}`) as unknown as TypedDocumentString<ReindexMutation, ReindexMutationVariables>;
export const ReindexProgressDocument = new TypedDocumentString(`
    subscription ReindexProgress($jobId: ID!) {
  reindexProgress(jobId: $jobId) {
    ...ClientReindexJob
  }
}
    fragment ClientReindexJob on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  rate
  etaSeconds
  error
  startedAt
  updatedAt
  finishedAt
}`) as unknown as TypedDocumentString<ReindexProgressSubscription, ReindexProgressSubscriptionVariables>;