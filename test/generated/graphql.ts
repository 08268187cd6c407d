/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type AuditAction =
  | 'API_KEY_FORGET'
  | 'AUDIT_PURGE'
  | 'DATABASE_BACKUP'
  | 'DATABASE_RESTORE'
  | 'MEMORIES_CLEAR'
  | 'MEMORIES_EXPORT'
  | 'MEMORIES_IMPORT'
  | 'MEMORIES_PURGE'
  | 'MEMORIES_SUMMARIZE'
  | 'PROVIDER_DELETE'
  | 'PROVIDER_UPSERT'
  | 'QDRANT_CLEANUP'
  | 'QDRANT_SETTINGS_UPDATE'
  | 'REINDEX_CANCEL'
  | 'REINDEX_START'
  | 'SETTINGS_UPDATE'
  | 'SUMMARY_RESTORE'
  | 'TOKEN_CREATE'
  | 'TOKEN_REVOKE';

export type CreateAccessTokenInput = {
  /** Bind a gateway token to this API key. */
  apiKeyId?: string | null | undefined;
  /** Let this bound gateway token erase its API key with forgetApiKey; refused for other tokens. */
  mayForgetKey?: boolean | null | undefined;
  name: string;
  role?: TokenRole | null | undefined;
};

export type EmbeddingSource =
  | 'AUTO'
  | 'REMOTE'
  | 'STATIC'
  | 'TRANSFORMERS';

export type ExtractFactsInput = {
  /** Optional for tokens bound to one key. */
  apiKeyId?: string | null | undefined;
  /** Mine assistant text too (off: the assistant's plans are not the user's facts). */
  includeAssistant?: boolean | null | undefined;
  /** The request opted out of memory: nothing is extracted. */
  noMemory?: boolean | null | undefined;
  /** Store the facts. false is a dry run: the facts are reported, nothing is stored (works with memory disabled). */
  persist?: boolean | null | undefined;
  role: MessageRole;
  /** Recorded in the facts' metadata; facts themselves are key-wide. */
  sessionId?: string | null | undefined;
  /** Message text; only the last 64 KiB is mined. */
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

/** Only the fields given change. Values out of range are rejected, not clamped. */
export type MemorySettingsInput = {
  auditRetentionDays?: number | null | undefined;
  autoSummarize?: boolean | null | undefined;
  embeddingProviderModel?: string | null | undefined;
  embeddingSource?: EmbeddingSource | null | undefined;
  enabled?: boolean | null | undefined;
  /** null returns to the calibrated guard. */
  fusionVectorShare?: number | null | undefined;
  maxTokens?: number | null | undefined;
  profileBudgetPercent?: number | null | undefined;
  purgeGraceDays?: number | null | undefined;
  rerankEnabled?: boolean | null | undefined;
  rerankProviderModel?: string | null | undefined;
  retentionDays?: number | null | undefined;
  retentionEnabled?: boolean | null | undefined;
  staticEnabled?: boolean | null | undefined;
  strategy?: RetrievalStrategy | null | undefined;
  transformersEnabled?: boolean | null | undefined;
  userRoleProviders?: Array<string> | null | undefined;
  vectorStore?: VectorStore | null | undefined;
};

/** ACTIVE memories can be retrieved; the others are kept but never injected. */
export type MemoryStatus =
  | 'ACTIVE'
  /** replaced by a summary; restoring the summary brings it back */
  | 'ARCHIVED'
  /** expiresAt has passed */
  | 'EXPIRED'
  /** last written before the retention window */
  | 'OUT_OF_RETENTION';

export type MemoryType =
  | 'ENFORCED'
  | 'EPISODIC'
  | 'FACTUAL'
  | 'PROCEDURAL'
  | 'SEMANTIC';

export type MessageRole =
  | 'ASSISTANT'
  | 'USER';

export type ModelKind =
  | 'EMBEDDING'
  | 'RERANK';

export type ModelProviderInput = {
  /** Write-only. Omit to keep the stored key; an empty string removes it. */
  apiKey?: string | null | undefined;
  /** API root as in OpenAI SDKs, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  id: string;
  /** The endpoint needs no API key (a local server). Omit to keep the stored mark. */
  keyless?: boolean | null | undefined;
  models: Array<ProviderModelInput>;
};

export type ProviderModelInput = {
  dimension?: number | null | undefined;
  kind: ModelKind;
  maxInputTokens?: number | null | undefined;
  name: string;
};

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
  /** At most this many memories, 1 to 500 (default 50). */
  limit?: number | null | undefined;
  /** Budget for the injected block, 0 to 16000; defaults to the settings. */
  maxTokens?: number | null | undefined;
  /** The text to match, usually the last user message. */
  query?: string | null | undefined;
  /** Limit to this session and the key-wide memories. */
  sessionId?: string | null | undefined;
  /** Defaults to the settings. */
  strategy?: RetrievalStrategy | null | undefined;
  types?: Array<MemoryType> | null | undefined;
};

export type SortDirection =
  | 'ASC'
  | 'DESC';

export type TokenRole =
  /** Everything, including settings and tokens. */
  | 'ADMIN'
  /** Memories only; bound tokens are confined to one API key. */
  | 'GATEWAY';

export type VectorStore =
  | 'AUTO'
  | 'QDRANT'
  | 'SQLITE_VEC';

export type E2eMemoryCountQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
}>;


export type E2eMemoryCountQuery = { memories: { totalCount: number } };

export type E2eMemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
}>;


export type E2eMemoriesQuery = { memories: { totalCount: number, items: Array<{ id: string, key: string, content: string, type: MemoryType, metadata: Record<string, unknown>, tokens: number, status: MemoryStatus }> } };

export type E2eRetentionStatsQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eRetentionStatsQuery = { memories: { stats: { nextPurgeAt: string | null, hiddenByRetention: number, hiddenByExpiry: number } } };

export type E2eSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eSettingsQuery = { memorySettings: { retentionEnabled: boolean, retentionDays: number, purgeGraceDays: number, userRoleProviders: Array<string> } };

export type E2eAuditLogQueryVariables = Exact<{
  action?: AuditAction | null | undefined;
}>;


export type E2eAuditLogQuery = { auditLog: { items: Array<{ apiKeyId: string | null, target: Record<string, unknown> | null }> } };

export type E2eProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eProvidersQuery = { embeddingProviders: Array<{ id: string, baseUrl: string, hasApiKey: boolean, models: Array<{ name: string, kind: ModelKind, dimension: number | null }> }> };

export type E2eUpsertProviderMutationVariables = Exact<{
  input: ModelProviderInput;
}>;


export type E2eUpsertProviderMutation = { upsertModelProvider: { id: string } };

export type E2eQdrantSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eQdrantSettingsQuery = { qdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, fromEnvironment: Array<string> }, memorySettings: { vectorStore: VectorStore } };

export type E2eQdrantStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eQdrantStatusQuery = { engineStatus: { qdrant: { url: string | null, error: string | null, incompatibleReason: string | null } } };

export type TestMemoryFragment = { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus };

export type TestSettingsFragment = { enabled: boolean, maxTokens: number, retentionDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean };

export type CreateMemoryMutationVariables = Exact<{
  input: MemoryInput;
}>;


export type CreateMemoryMutation = { createMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } };

export type UpdateMemoryMutationVariables = Exact<{
  id: string | number;
  input: MemoryPatchInput;
}>;


export type UpdateMemoryMutation = { updateMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } };

export type DeleteMemoryMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteMemoryMutation = { deleteMemory: { id: string } };

export type GetMemoryQueryVariables = Exact<{
  id: string | number;
}>;


export type GetMemoryQuery = { memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } | null };

export type ListMemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  createdAfter?: string | null | undefined;
  createdBefore?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
  orderBy?: MemoryOrderField | null | undefined;
  direction?: SortDirection | null | undefined;
}>;


export type ListMemoriesQuery = { memories: { totalCount: number, limit: number, offset: number, hasMore: boolean, items: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }> } };

export type MemoryStatsQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
}>;


export type MemoryStatsQuery = { memories: { stats: { totalEntries: number, tokensUsed: number, hitRate: number | null, retrievals: number, byType: Array<{ type: MemoryType, count: number }> } } };

export type ExportMemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
}>;


export type ExportMemoriesQuery = { exportMemories: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }> };

export type ClearMemoriesMutationVariables = Exact<{
  apiKeyId: string;
  type?: MemoryType | null | undefined;
  createdBefore?: string | null | undefined;
}>;


export type ClearMemoriesMutation = { clearMemories: number };

export type ImportMemoriesMutationVariables = Exact<{
  memories: Array<MemoryInput> | MemoryInput;
}>;


export type ImportMemoriesMutation = { importMemories: { imported: number, updated: number, rejected: Array<{ index: number, key: string | null, reason: string }> } };

export type GetSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type GetSettingsQuery = { memorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean } };

export type UpdateSettingsMutationVariables = Exact<{
  input: MemorySettingsInput;
}>;


export type UpdateSettingsMutation = { updateMemorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean } };

export type ListTokensQueryVariables = Exact<{
  includeRevoked?: boolean | null | undefined;
}>;


export type ListTokensQuery = { accessTokens: Array<{ id: string, name: string, role: TokenRole, apiKeyId: string | null, revokedAt: string | null }> };

export type CreateTokenMutationVariables = Exact<{
  input: CreateAccessTokenInput;
}>;


export type CreateTokenMutation = { createAccessToken: { token: string, accessToken: { id: string, name: string, role: TokenRole, apiKeyId: string | null } } };

export type RevokeTokenMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeTokenMutation = { revokeAccessToken: { id: string, revokedAt: string | null } };

export type TestRetrievalFragment = { tokensUsed: number, maxTokens: number, candidates: number, skipped: RetrievalSkip | null, block: string | null, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, nearDuplicates: number, embeddingSource: string | null, embeddingModel: string | null, embeddingReason: string | null, vectorStore: string | null, reranked: boolean, rerankModel: string | null, rerankReason: string | null, fusion: { vectorShare: number, keywordShare: number, agreement: number | null, margin: number | null, reason: string } | null }, items: Array<{ content: string, truncated: boolean, tier: RetrievalTier, score: number, tokens: number, keywordScore: number | null, keywordRank: number | null, vectorScore: number | null, vectorRank: number | null, adjacentTo: string | null, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } }> };

export type TestReindexJobFragment = { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null };

export type TestSummaryFragment = { dryRun: boolean, olderThanDays: number, candidateCount: number, tokensBefore: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, summaries: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, groups: Array<{ sessionId: string | null, tokensBefore: number, summaryTokens: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, summary: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } | null }> };

export type RetrieveQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type RetrieveQuery = { retrieve: { tokensUsed: number, maxTokens: number, candidates: number, skipped: RetrievalSkip | null, block: string | null, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, nearDuplicates: number, embeddingSource: string | null, embeddingModel: string | null, embeddingReason: string | null, vectorStore: string | null, reranked: boolean, rerankModel: string | null, rerankReason: string | null, fusion: { vectorShare: number, keywordShare: number, agreement: number | null, margin: number | null, reason: string } | null }, items: Array<{ content: string, truncated: boolean, tier: RetrievalTier, score: number, tokens: number, keywordScore: number | null, keywordRank: number | null, vectorScore: number | null, vectorRank: number | null, adjacentTo: string | null, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } }> } };

export type RetrievePreviewQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type RetrievePreviewQuery = { retrievePreview: { tokensUsed: number, maxTokens: number, candidates: number, skipped: RetrievalSkip | null, block: string | null, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, nearDuplicates: number, embeddingSource: string | null, embeddingModel: string | null, embeddingReason: string | null, vectorStore: string | null, reranked: boolean, rerankModel: string | null, rerankReason: string | null, fusion: { vectorShare: number, keywordShare: number, agreement: number | null, margin: number | null, reason: string } | null }, items: Array<{ content: string, truncated: boolean, tier: RetrievalTier, score: number, tokens: number, keywordScore: number | null, keywordRank: number | null, vectorScore: number | null, vectorRank: number | null, adjacentTo: string | null, memory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } }> } };

export type ExtractFactsMutationVariables = Exact<{
  input: ExtractFactsInput;
}>;


export type ExtractFactsMutation = { extractFacts: { error: string | null, skipped: ExtractionSkip | null, facts: Array<{ type: MemoryType, key: string, content: string, category: FactCategory, polarity: FactPolarity, source: string }>, memories: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }> } };

export type SummarizeMutationVariables = Exact<{
  apiKeyId: string;
  olderThanDays?: number | null | undefined;
  dryRun?: boolean | null | undefined;
}>;


export type SummarizeMutation = { summarize: { dryRun: boolean, olderThanDays: number, candidateCount: number, tokensBefore: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, summaries: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, groups: Array<{ sessionId: string | null, tokensBefore: number, summaryTokens: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, summary: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } | null }> } };

export type RestoreSummaryMutationVariables = Exact<{
  summaryId: string | number;
}>;


export type RestoreSummaryMutation = { restoreSummary: { restored: number, summary: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } } };

export type StartReindexMutationVariables = Exact<{
  force?: boolean | null | undefined;
}>;


export type StartReindexMutation = { reindex: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type ReindexJobQueryVariables = Exact<{
  id?: string | number | null | undefined;
}>;


export type ReindexJobQuery = { reindexJob: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null } | null };

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
export const TestSettingsFragmentDoc = new TypedDocumentString(`
    fragment TestSettings on MemorySettings {
  enabled
  maxTokens
  retentionDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
}
    `, {"fragmentName":"TestSettings"}) as unknown as TypedDocumentString<TestSettingsFragment, unknown>;
export const TestMemoryFragmentDoc = new TypedDocumentString(`
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}
    `, {"fragmentName":"TestMemory"}) as unknown as TypedDocumentString<TestMemoryFragment, unknown>;
export const TestRetrievalFragmentDoc = new TypedDocumentString(`
    fragment TestRetrieval on RetrievalResult {
  tokensUsed
  maxTokens
  candidates
  skipped
  block
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
    nearDuplicates
    embeddingSource
    embeddingModel
    embeddingReason
    vectorStore
    reranked
    rerankModel
    rerankReason
    fusion {
      vectorShare
      keywordShare
      agreement
      margin
      reason
    }
  }
  items {
    content
    truncated
    tier
    score
    tokens
    keywordScore
    keywordRank
    vectorScore
    vectorRank
    adjacentTo
    memory {
      ...TestMemory
    }
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`, {"fragmentName":"TestRetrieval"}) as unknown as TypedDocumentString<TestRetrievalFragment, unknown>;
export const TestReindexJobFragmentDoc = new TypedDocumentString(`
    fragment TestReindexJob on ReindexJob {
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
    `, {"fragmentName":"TestReindexJob"}) as unknown as TypedDocumentString<TestReindexJobFragment, unknown>;
export const TestSummaryFragmentDoc = new TypedDocumentString(`
    fragment TestSummary on SummaryResult {
  dryRun
  olderThanDays
  candidateCount
  tokensBefore
  tokensAfter
  tokensSaved
  refusedReason
  candidates {
    ...TestMemory
  }
  summaries {
    ...TestMemory
  }
  groups {
    sessionId
    tokensBefore
    summaryTokens
    tokensAfter
    tokensSaved
    refusedReason
    candidates {
      ...TestMemory
    }
    summary {
      ...TestMemory
    }
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`, {"fragmentName":"TestSummary"}) as unknown as TypedDocumentString<TestSummaryFragment, unknown>;
export const E2eMemoryCountDocument = new TypedDocumentString(`
    query E2eMemoryCount($apiKeyId: String) {
  memories(apiKeyId: $apiKeyId, includeExpired: true, includeArchived: true) {
    totalCount
  }
}
    `) as unknown as TypedDocumentString<E2eMemoryCountQuery, E2eMemoryCountQueryVariables>;
export const E2eMemoriesDocument = new TypedDocumentString(`
    query E2eMemories($apiKeyId: String) {
  memories(
    apiKeyId: $apiKeyId
    limit: 500
    includeExpired: true
    includeArchived: true
  ) {
    totalCount
    items {
      id
      key
      content
      type
      metadata
      tokens
      status
    }
  }
}
    `) as unknown as TypedDocumentString<E2eMemoriesQuery, E2eMemoriesQueryVariables>;
export const E2eRetentionStatsDocument = new TypedDocumentString(`
    query E2eRetentionStats {
  memories(limit: 1) {
    stats {
      nextPurgeAt
      hiddenByRetention
      hiddenByExpiry
    }
  }
}
    `) as unknown as TypedDocumentString<E2eRetentionStatsQuery, E2eRetentionStatsQueryVariables>;
export const E2eSettingsDocument = new TypedDocumentString(`
    query E2eSettings {
  memorySettings {
    retentionEnabled
    retentionDays
    purgeGraceDays
    userRoleProviders
  }
}
    `) as unknown as TypedDocumentString<E2eSettingsQuery, E2eSettingsQueryVariables>;
export const E2eAuditLogDocument = new TypedDocumentString(`
    query E2eAuditLog($action: AuditAction) {
  auditLog(action: $action) {
    items {
      apiKeyId
      target
    }
  }
}
    `) as unknown as TypedDocumentString<E2eAuditLogQuery, E2eAuditLogQueryVariables>;
export const E2eProvidersDocument = new TypedDocumentString(`
    query E2eProviders {
  embeddingProviders {
    id
    baseUrl
    hasApiKey
    models {
      name
      kind
      dimension
    }
  }
}
    `) as unknown as TypedDocumentString<E2eProvidersQuery, E2eProvidersQueryVariables>;
export const E2eUpsertProviderDocument = new TypedDocumentString(`
    mutation E2eUpsertProvider($input: ModelProviderInput!) {
  upsertModelProvider(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<E2eUpsertProviderMutation, E2eUpsertProviderMutationVariables>;
export const E2eQdrantSettingsDocument = new TypedDocumentString(`
    query E2eQdrantSettings {
  qdrantSettings {
    enabled
    url
    collection
    hasApiKey
    fromEnvironment
  }
  memorySettings {
    vectorStore
  }
}
    `) as unknown as TypedDocumentString<E2eQdrantSettingsQuery, E2eQdrantSettingsQueryVariables>;
export const E2eQdrantStatusDocument = new TypedDocumentString(`
    query E2eQdrantStatus {
  engineStatus {
    qdrant {
      url
      error
      incompatibleReason
    }
  }
}
    `) as unknown as TypedDocumentString<E2eQdrantStatusQuery, E2eQdrantStatusQueryVariables>;
export const CreateMemoryDocument = new TypedDocumentString(`
    mutation CreateMemory($input: MemoryInput!) {
  createMemory(input: $input) {
    ...TestMemory
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<CreateMemoryMutation, CreateMemoryMutationVariables>;
export const UpdateMemoryDocument = new TypedDocumentString(`
    mutation UpdateMemory($id: ID!, $input: MemoryPatchInput!) {
  updateMemory(id: $id, input: $input) {
    ...TestMemory
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<UpdateMemoryMutation, UpdateMemoryMutationVariables>;
export const DeleteMemoryDocument = new TypedDocumentString(`
    mutation DeleteMemory($id: ID!) {
  deleteMemory(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<DeleteMemoryMutation, DeleteMemoryMutationVariables>;
export const GetMemoryDocument = new TypedDocumentString(`
    query GetMemory($id: ID!) {
  memory(id: $id) {
    ...TestMemory
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<GetMemoryQuery, GetMemoryQueryVariables>;
export const ListMemoriesDocument = new TypedDocumentString(`
    query ListMemories($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $createdAfter: DateTime, $createdBefore: DateTime, $includeExpired: Boolean, $limit: Int, $offset: Int, $orderBy: MemoryOrderField, $direction: SortDirection) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    createdAfter: $createdAfter
    createdBefore: $createdBefore
    includeExpired: $includeExpired
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
      ...TestMemory
    }
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<ListMemoriesQuery, ListMemoriesQueryVariables>;
export const MemoryStatsDocument = new TypedDocumentString(`
    query MemoryStats($apiKeyId: String) {
  memories(apiKeyId: $apiKeyId, limit: 1) {
    stats {
      totalEntries
      tokensUsed
      hitRate
      retrievals
      byType {
        type
        count
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryStatsQuery, MemoryStatsQueryVariables>;
export const ExportMemoriesDocument = new TypedDocumentString(`
    query ExportMemories($apiKeyId: String, $includeExpired: Boolean) {
  exportMemories(apiKeyId: $apiKeyId, includeExpired: $includeExpired) {
    ...TestMemory
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<ExportMemoriesQuery, ExportMemoriesQueryVariables>;
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
  }
}
    `) as unknown as TypedDocumentString<ImportMemoriesMutation, ImportMemoriesMutationVariables>;
export const GetSettingsDocument = new TypedDocumentString(`
    query GetSettings {
  memorySettings {
    ...TestSettings
  }
}
    fragment TestSettings on MemorySettings {
  enabled
  maxTokens
  retentionDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
}`) as unknown as TypedDocumentString<GetSettingsQuery, GetSettingsQueryVariables>;
export const UpdateSettingsDocument = new TypedDocumentString(`
    mutation UpdateSettings($input: MemorySettingsInput!) {
  updateMemorySettings(input: $input) {
    ...TestSettings
  }
}
    fragment TestSettings on MemorySettings {
  enabled
  maxTokens
  retentionDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
}`) as unknown as TypedDocumentString<UpdateSettingsMutation, UpdateSettingsMutationVariables>;
export const ListTokensDocument = new TypedDocumentString(`
    query ListTokens($includeRevoked: Boolean) {
  accessTokens(includeRevoked: $includeRevoked) {
    id
    name
    role
    apiKeyId
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<ListTokensQuery, ListTokensQueryVariables>;
export const CreateTokenDocument = new TypedDocumentString(`
    mutation CreateToken($input: CreateAccessTokenInput!) {
  createAccessToken(input: $input) {
    token
    accessToken {
      id
      name
      role
      apiKeyId
    }
  }
}
    `) as unknown as TypedDocumentString<CreateTokenMutation, CreateTokenMutationVariables>;
export const RevokeTokenDocument = new TypedDocumentString(`
    mutation RevokeToken($id: ID!) {
  revokeAccessToken(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokeTokenMutation, RevokeTokenMutationVariables>;
export const RetrieveDocument = new TypedDocumentString(`
    query Retrieve($input: RetrieveInput!) {
  retrieve(input: $input) {
    ...TestRetrieval
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}
fragment TestRetrieval on RetrievalResult {
  tokensUsed
  maxTokens
  candidates
  skipped
  block
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
    nearDuplicates
    embeddingSource
    embeddingModel
    embeddingReason
    vectorStore
    reranked
    rerankModel
    rerankReason
    fusion {
      vectorShare
      keywordShare
      agreement
      margin
      reason
    }
  }
  items {
    content
    truncated
    tier
    score
    tokens
    keywordScore
    keywordRank
    vectorScore
    vectorRank
    adjacentTo
    memory {
      ...TestMemory
    }
  }
}`) as unknown as TypedDocumentString<RetrieveQuery, RetrieveQueryVariables>;
export const RetrievePreviewDocument = new TypedDocumentString(`
    query RetrievePreview($input: RetrieveInput!) {
  retrievePreview(input: $input) {
    ...TestRetrieval
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}
fragment TestRetrieval on RetrievalResult {
  tokensUsed
  maxTokens
  candidates
  skipped
  block
  resolution {
    requestedStrategy
    tiers
    fallback
    fallbackReason
    nearDuplicates
    embeddingSource
    embeddingModel
    embeddingReason
    vectorStore
    reranked
    rerankModel
    rerankReason
    fusion {
      vectorShare
      keywordShare
      agreement
      margin
      reason
    }
  }
  items {
    content
    truncated
    tier
    score
    tokens
    keywordScore
    keywordRank
    vectorScore
    vectorRank
    adjacentTo
    memory {
      ...TestMemory
    }
  }
}`) as unknown as TypedDocumentString<RetrievePreviewQuery, RetrievePreviewQueryVariables>;
export const ExtractFactsDocument = new TypedDocumentString(`
    mutation ExtractFacts($input: ExtractFactsInput!) {
  extractFacts(input: $input) {
    error
    skipped
    facts {
      type
      key
      content
      category
      polarity
      source
    }
    memories {
      ...TestMemory
    }
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<ExtractFactsMutation, ExtractFactsMutationVariables>;
export const SummarizeDocument = new TypedDocumentString(`
    mutation Summarize($apiKeyId: String!, $olderThanDays: Int, $dryRun: Boolean) {
  summarize(apiKeyId: $apiKeyId, olderThanDays: $olderThanDays, dryRun: $dryRun) {
    ...TestSummary
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}
fragment TestSummary on SummaryResult {
  dryRun
  olderThanDays
  candidateCount
  tokensBefore
  tokensAfter
  tokensSaved
  refusedReason
  candidates {
    ...TestMemory
  }
  summaries {
    ...TestMemory
  }
  groups {
    sessionId
    tokensBefore
    summaryTokens
    tokensAfter
    tokensSaved
    refusedReason
    candidates {
      ...TestMemory
    }
    summary {
      ...TestMemory
    }
  }
}`) as unknown as TypedDocumentString<SummarizeMutation, SummarizeMutationVariables>;
export const RestoreSummaryDocument = new TypedDocumentString(`
    mutation RestoreSummary($summaryId: ID!) {
  restoreSummary(summaryId: $summaryId) {
    restored
    summary {
      ...TestMemory
    }
  }
}
    fragment TestMemory on Memory {
  id
  apiKeyId
  sessionId
  type
  key
  content
  metadata
  tokens
  createdAt
  updatedAt
  expiresAt
  accessCount
  pendingReindex
  status
}`) as unknown as TypedDocumentString<RestoreSummaryMutation, RestoreSummaryMutationVariables>;
export const StartReindexDocument = new TypedDocumentString(`
    mutation StartReindex($force: Boolean) {
  reindex(force: $force) {
    ...TestReindexJob
  }
}
    fragment TestReindexJob on ReindexJob {
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
}`) as unknown as TypedDocumentString<StartReindexMutation, StartReindexMutationVariables>;
export const ReindexJobDocument = new TypedDocumentString(`
    query ReindexJob($id: ID) {
  reindexJob(id: $id) {
    ...TestReindexJob
  }
}
    fragment TestReindexJob on ReindexJob {
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
}`) as unknown as TypedDocumentString<ReindexJobQuery, ReindexJobQueryVariables>;
export const ReindexProgressDocument = new TypedDocumentString(`
    subscription ReindexProgress($jobId: ID!) {
  reindexProgress(jobId: $jobId) {
    ...TestReindexJob
  }
}
    fragment TestReindexJob on ReindexJob {
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