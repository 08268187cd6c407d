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
  | 'MEMORY_RESTORE'
  | 'MEMORY_REVERT'
  | 'MEMORY_SUPERSEDE'
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

/** Which chat messages extractFacts and injectMemory keep verbatim, secrets redacted, as episodic memories of their session. */
export type CaptureTurns =
  /** The user's and the assistant's messages. */
  | 'ALL'
  /** None: only the facts the rules find are stored. */
  | 'OFF'
  /** The user's messages (the default). */
  | 'USER';

export type ChatRequestShape =
  /** Anthropic messages: { system, messages }. */
  | 'ANTHROPIC'
  /** OpenAI chat completions: { messages }. */
  | 'CHAT_MESSAGES'
  /** OpenAI Responses API: { input, instructions }. */
  | 'RESPONSES_INPUT';

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

export type HealthCheckName =
  /** A write to a scratch table, committed and then deleted. */
  | 'COMMIT'
  | 'CREATE'
  | 'DELETE'
  /** Free space on the disk of the database. */
  | 'DISK'
  | 'READ'
  | 'SEARCH';

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

/** Only the fields given change. Values out of range are rejected, not clamped. */
export type MemorySettingsInput = {
  auditRetentionDays?: number | null | undefined;
  autoSummarize?: boolean | null | undefined;
  captureTurns?: CaptureTurns | null | undefined;
  embeddingProviderModel?: string | null | undefined;
  embeddingSource?: EmbeddingSource | null | undefined;
  enabled?: boolean | null | undefined;
  /** null returns to the rules alone. */
  extractionModel?: string | null | undefined;
  extractionModelDailyTokens?: number | null | undefined;
  /** null returns to the calibrated guard. */
  fusionVectorShare?: number | null | undefined;
  historyVersionsKept?: number | null | undefined;
  injectionLogDays?: number | null | undefined;
  maxTokens?: number | null | undefined;
  mergeParaphrases?: boolean | null | undefined;
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

export type MemorySource =
  /** Both. */
  | 'ALL'
  /** Every memory but captured chat turns: extracted facts, memories written by hand or imported, summaries. */
  | 'FACTS'
  /** Captured chat turns (metadata.source "capture"). */
  | 'TURNS';

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

export type ModelKind =
  | 'CHAT'
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

export type QdrantQuantization =
  /** Binary quantization, rescored with the original vectors. */
  | 'BINARY'
  /** Scalar int8 quantization, rescored with the original vectors. */
  | 'INT8'
  | 'NONE';

export type QdrantSettingsInput = {
  /** Write-only. Omit to keep; an empty string removes it. */
  apiKey?: string | null | undefined;
  collection?: string | null | undefined;
  /** true sets vectorStore to QDRANT; false returns it to AUTO. */
  enabled?: boolean | null | undefined;
  host?: string | null | undefined;
  https?: boolean | null | undefined;
  port?: number | null | undefined;
  quantization?: QdrantQuantization | null | undefined;
  timeoutMs?: number | null | undefined;
  /** e.g. http://localhost:6333; or give host and port. */
  url?: string | null | undefined;
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

export type SecretChange =
  /** A secret was replaced by another. */
  | 'CHANGED'
  /** A secret was removed. */
  | 'REMOVED'
  /** A secret was set where there was none. */
  | 'SET';

export type SortDirection =
  | 'ASC'
  | 'DESC';

export type StoreKind =
  /** A PostgreSQL server (MNEMO_DATABASE_URL), shared by any number of replicas. */
  | 'POSTGRES'
  /** A SQLite file in the data folder: one mnemo process. */
  | 'SQLITE';

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


export type E2eSettingsQuery = { memorySettings: { retentionEnabled: boolean, purgeGraceDays: number, userRoleProviders: Array<string>, captureTurns: CaptureTurns, extractionModel: string | null, extractionModelDailyTokens: number } };

export type E2eAuditLogQueryVariables = Exact<{
  action?: AuditAction | null | undefined;
}>;


export type E2eAuditLogQuery = { auditLog: { items: Array<{ apiKeyId: string | null, target: Record<string, unknown> | null }> } };

export type E2eProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eProvidersQuery = { embeddingProviders: Array<{ id: string, baseUrl: string, hasApiKey: boolean, models: Array<{ name: string, kind: ModelKind, dimension: number | null }> }> };

export type E2eQdrantSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eQdrantSettingsQuery = { qdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, fromEnvironment: Array<string> }, memorySettings: { vectorStore: VectorStore } };

export type E2eQdrantStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type E2eQdrantStatusQuery = { engineStatus: { qdrant: { url: string | null, error: string | null, incompatibleReason: string | null } } };

export type FaultsFullDiskHealthQueryVariables = Exact<{ [key: string]: never; }>;


export type FaultsFullDiskHealthQuery = { memoryHealth: { ok: boolean, error: string | null, errorCode: string | null, checks: Array<{ name: HealthCheckName, ok: boolean }> } };

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
  source?: MemorySource | null | undefined;
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


export type ExtractFactsMutation = { extractFacts: { error: string | null, skipped: ExtractionSkip | null, facts: Array<{ type: MemoryType, key: string, content: string, category: FactCategory, polarity: FactPolarity, source: string }>, memories: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, captured: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }> } };

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

export type UpdateQdrantMutationVariables = Exact<{
  input: QdrantSettingsInput;
}>;


export type UpdateQdrantMutation = { updateQdrantSettings: { enabled: boolean, hasApiKey: boolean } };

export type UpsertProviderMutationVariables = Exact<{
  input: ModelProviderInput;
}>;


export type UpsertProviderMutation = { upsertModelProvider: { id: string, hasApiKey: boolean } };

export type QdrantWaitingQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantWaitingQuery = { engineStatus: { vectorStore: { pendingReindex: number }, qdrant: { pendingSync: number } } };

export type PackagingInstallEnableMemoryMutationVariables = Exact<{ [key: string]: never; }>;


export type PackagingInstallEnableMemoryMutation = { updateMemorySettings: { enabled: boolean } };

export type AuditLogQueryVariables = Exact<{
  action?: AuditAction | null | undefined;
  actor?: string | null | undefined;
  apiKeyId?: string | null | undefined;
  since?: string | null | undefined;
  until?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type AuditLogQuery = { auditLog: { totalCount: number, hasMore: boolean, items: Array<{ id: string, at: string, actorId: string, actorName: string, requestId: string | null, action: AuditAction, apiKeyId: string | null, target: Record<string, unknown> | null, outcome: string, changes: Array<{ field: string, before: string | null, after: string | null, secret: SecretChange | null }> }> } };

export type AuditCancelReindexMutationVariables = Exact<{
  jobId: string | number;
}>;


export type AuditCancelReindexMutation = { cancelReindex: { id: string } };

export type AuditBackupMutationVariables = Exact<{ [key: string]: never; }>;


export type AuditBackupMutation = { backupDatabase: { file: string } };

export type AuditForgetApiKeyMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type AuditForgetApiKeyMutation = { forgetApiKey: { memories: number, auditApiKeyId: string } };

export type AuthEveryTokenFieldQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthEveryTokenFieldQuery = { accessTokens: Array<{ id: string, name: string, role: TokenRole, apiKeyId: string | null, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type AuthAccessTokenFieldNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthAccessTokenFieldNamesQuery = { __type: { fields: Array<{ name: string }> | null } | null };

export type AuthTokenStartsQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthTokenStartsQuery = { accessTokens: Array<{ id: string, tokenStart: string | null }> };

export type AuthViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthViewerQuery = { viewer: { role: TokenRole, apiKeyId: string | null } };

export type BackupDatabaseMutationVariables = Exact<{ [key: string]: never; }>;


export type BackupDatabaseMutation = { backupDatabase: { file: string, bytes: number, migration: string | null, createdAt: string } };

export type CliTokenNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type CliTokenNamesQuery = { accessTokens: Array<{ name: string, role: TokenRole }> };

export type CliForgetApiKeyMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type CliForgetApiKeyMutation = { forgetApiKey: { apiKeyId: string } };

export type EngineStatusViewQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineStatusViewQuery = { engineStatus: { checkedAt: string, keyword: { available: boolean, latencyMs: number, error: string | null, documents: number }, embedding: { source: string | null, model: string | null, dimension: number | null, state: string, reason: string, lastError: { kind: string, message: string } | null, cache: { hits: number, misses: number, size: number, max: number, ttlMs: number } | null }, vectorStore: { backend: string, available: boolean, extensionVersion: string | null, rows: number, pendingReindex: number, signature: string | null, signatureMatches: boolean | null, dimension: number | null, quantization: string, lastResetAt: string | null }, rerank: { enabled: boolean, model: string | null, reason: string }, reindex: { id: string, status: ReindexStatus, total: number, processed: number } | null } };

export type EngineVectorStoreWithoutQdrantQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineVectorStoreWithoutQdrantQuery = { engineStatus: { vectorStore: { backend: string, available: boolean, unavailableReason: string | null, rows: number } } };

export type EngineVectorStoreAvailabilityQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineVectorStoreAvailabilityQuery = { engineStatus: { vectorStore: { available: boolean, unavailableReason: string | null } } };

export type EngineProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineProvidersQuery = { embeddingProviders: Array<{ id: string, baseUrl: string, hasApiKey: boolean, keyless: boolean, origin: string, models: Array<{ name: string, kind: ModelKind, dimension: number | null, maxInputTokens: number | null }> }> };

export type EngineUpsertProviderMutationVariables = Exact<{
  input: ModelProviderInput;
}>;


export type EngineUpsertProviderMutation = { upsertModelProvider: { id: string, baseUrl: string, hasApiKey: boolean, origin: string, models: Array<{ name: string, kind: ModelKind, dimension: number | null }> } };

export type EngineDeleteProviderMutationVariables = Exact<{
  id: string | number;
}>;


export type EngineDeleteProviderMutation = { deleteModelProvider: boolean };

export type EngineCallsRecentFragment = { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null };

export type EngineCallsStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineCallsStatusQuery = { engineStatus: { embedding: { state: string, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null }, rerank: { enabled: boolean, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null } } };

export type EngineCallsTestModelMutationVariables = Exact<{
  kind: ModelKind;
}>;


export type EngineCallsTestModelMutation = { testEngineModel: { kind: ModelKind, model: string | null, ok: boolean, latencyMs: number, answer: string | null, error: string | null } };

export type EngineCallsTestProviderMutationVariables = Exact<{
  id: string | number;
}>;


export type EngineCallsTestProviderMutation = { testModelProvider: Array<{ kind: ModelKind, model: string | null, ok: boolean, latencyMs: number, answer: string | null, error: string | null }> };

export type ErasureForgetApiKeyMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type ErasureForgetApiKeyMutation = { forgetApiKey: { memories: number } };

export type ExtractFactsInjectMutationVariables = Exact<{
  input: InjectMemoryInput;
}>;


export type ExtractFactsInjectMutation = { injectMemory: { request: Record<string, unknown>, injected: boolean, retrieval: { skipped: RetrievalSkip | null, items: Array<{ content: string }> } | null } };

export type ForgetApiKeyMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type ForgetApiKeyMutation = { forgetApiKey: { apiKeyId: string, memories: number, archivedOriginals: number, summaries: number, keywordEntries: number, vectors: number, qdrantDeletesQueued: number, retrievals: number, walEmptied: boolean } };

export type ForgetTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ForgetTokensQuery = { accessTokens: Array<{ apiKeyId: string | null, mayForgetKey: boolean }> };

export type HealthProbeQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthProbeQuery = { memoryHealth: { ok: boolean, latencyMs: number, error: string | null, checkedAt: string, checks: Array<{ name: HealthCheckName, ok: boolean, latencyMs: number }> } };

export type HealthStoreKindQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthStoreKindQuery = { memoryHealth: { store: StoreKind, ok: boolean } };

export type HealthEngineStoreQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthEngineStoreQuery = { engineStatus: { store: { kind: StoreKind, available: boolean, error: string | null, file: string | null, host: string | null, port: number | null, database: string | null, version: string | null } } };

export type InjectRequestMutationVariables = Exact<{
  input: InjectMemoryInput;
}>;


export type InjectRequestMutation = { injectMemory: { request: Record<string, unknown>, injected: boolean, role: InjectionRole | null, shape: ChatRequestShape | null, optedOut: boolean, retrieval: { tokensUsed: number, maxTokens: number, block: string | null, items: Array<{ content: string, truncated: boolean, memory: { id: string, content: string, accessCount: number } }> } | null } };

export type MemoryBadinputExportSinceQueryVariables = Exact<{
  createdAfter?: string | null | undefined;
}>;


export type MemoryBadinputExportSinceQuery = { exportMemories: Array<{ id: string }> };

export type MemoryLifecycleImportRowLimitQueryVariables = Exact<{ [key: string]: never; }>;


export type MemoryLifecycleImportRowLimitQuery = { importRowLimit: number };

export type MemoryListStatsQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  includeExpired?: boolean | null | undefined;
}>;


export type MemoryListStatsQuery = { memories: { stats: { totalEntries: number, tokensUsed: number, hitRate: number | null, retrievals: number, byType: Array<{ type: MemoryType, count: number }> } } };

export type MemoryListExportQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  sessionId?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
}>;


export type MemoryListExportQuery = { exportMemories: Array<{ key: string, content: string, type: MemoryType }> };

export type MemoryListSearchWordsQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  search?: string | null | undefined;
}>;


export type MemoryListSearchWordsQuery = { memories: { searchWords: Array<string> } };

export type MemoryListHiddenByRetentionQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
}>;


export type MemoryListHiddenByRetentionQuery = { memories: { totalCount: number, stats: { totalEntries: number, hiddenByRetention: number, retentionDays: number } } };

export type MemoryListApiKeysQueryVariables = Exact<{
  contains?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type MemoryListApiKeysQuery = { apiKeys: { totalCount: number, limit: number, offset: number, items: Array<{ apiKeyId: string, memories: number }> } };

export type MetricsAliasedRootFieldsQueryVariables = Exact<{ [key: string]: never; }>;


export type MetricsAliasedRootFieldsQuery = { a: { id: string } | null, b: Array<{ id: string }> };

export type ProfileInjectMutationVariables = Exact<{
  input: InjectMemoryInput;
}>;


export type ProfileInjectMutation = { injectMemory: { injected: boolean, retrieval: { tokensUsed: number, maxTokens: number, items: Array<{ content: string, tier: RetrievalTier, score: number }>, resolution: { tiers: Array<RetrievalTier> } } | null } };

export type PurgeStatsQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
}>;


export type PurgeStatsQuery = { memories: { stats: { totalEntries: number, hiddenByExpiry: number, hiddenByRetention: number, nextPurgeAt: string | null } } };

export type PurgeWithArchivedQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
}>;


export type PurgeWithArchivedQuery = { memories: { items: Array<{ id: string, key: string }> } };

export type PurgeRetentionSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type PurgeRetentionSettingsQuery = { memorySettings: { purgeGraceDays: number, retentionEnabled: boolean, retentionDays: number } };

export type QdrantSettingsFieldsFragment = { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> };

export type QdrantGetSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantGetSettingsQuery = { qdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> } };

export type QdrantUpdateSettingsMutationVariables = Exact<{
  input: QdrantSettingsInput;
}>;


export type QdrantUpdateSettingsMutation = { updateQdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> } };

export type QdrantEngineStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantEngineStatusQuery = { engineStatus: { qdrant: { configured: boolean, enabled: boolean, url: string | null, collection: string | null, breaker: string, ready: boolean | null, latencyMs: number | null, error: string | null, compatible: boolean | null, incompatibleReason: string | null, points: number | null, pendingSync: number } } };

export type QdrantCallsQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantCallsQuery = { engineStatus: { qdrant: { calls: { calls: number, failures: number, lastError: string | null } | null } } };

export type QdrantHealthCheckQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantHealthCheckQuery = { qdrantHealth: { ready: boolean, latencyMs: number, error: string | null } };

export type QdrantSearchTestMutationVariables = Exact<{
  apiKeyId: string;
  query: string;
  topK?: number | null | undefined;
}>;


export type QdrantSearchTestMutation = { qdrantSearchTest: { latencyMs: number, hits: Array<{ score: number, memory: { id: string, apiKeyId: string, content: string } }> } };

export type QdrantCleanupMutationVariables = Exact<{ [key: string]: never; }>;


export type QdrantCleanupMutation = { qdrantCleanup: number };

export type QdrantNotSelectedSearchTestMutationVariables = Exact<{
  apiKeyId: string;
  query: string;
}>;


export type QdrantNotSelectedSearchTestMutation = { qdrantSearchTest: { hits: Array<{ score: number }> } };

export type ReindexCancelMutationVariables = Exact<{
  jobId: string | number;
}>;


export type ReindexCancelMutation = { cancelReindex: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, rate: number, etaSeconds: number | null, error: string | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type ReindexEngineStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type ReindexEngineStatusQuery = { engineStatus: { embedding: { source: string | null, model: string | null, dimension: number | null, state: string }, vectorStore: { rows: number, pendingReindex: number, signature: string | null, signatureMatches: boolean | null, dimension: number | null, quantization: string, lastResetAt: string | null } } };

export type ReplicasEnableQdrantMutationVariables = Exact<{ [key: string]: never; }>;


export type ReplicasEnableQdrantMutation = { updateQdrantSettings: { enabled: boolean } };

export type ReplicasViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ReplicasViewerQuery = { viewer: { role: TokenRole } };

export type RetentionImportMutationVariables = Exact<{
  memories: Array<MemoryInput> | MemoryInput;
  dryRun?: boolean | null | undefined;
}>;


export type RetentionImportMutation = { importMemories: { dryRun: boolean, imported: number, updated: number, outsideRetention: number, expired: number, nextPurgeAt: string | null, rejected: Array<{ index: number }> } };

export type RetentionWindowQueryVariables = Exact<{ [key: string]: never; }>;


export type RetentionWindowQuery = { memorySettings: { retentionDays: number, retentionEnabled: boolean } };

export type RetentionDefaultsQueryVariables = Exact<{ [key: string]: never; }>;


export type RetentionDefaultsQuery = { memorySettings: { retentionDays: number, retentionEnabled: boolean, purgeGraceDays: number } };

export type SummarizeMemoryFragment = { archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus };

export type SummarizeRunMutationVariables = Exact<{
  apiKeyId: string;
  olderThanDays?: number | null | undefined;
  dryRun?: boolean | null | undefined;
}>;


export type SummarizeRunMutation = { summarize: { dryRun: boolean, olderThanDays: number, candidateCount: number, tokensBefore: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, summaries: Array<{ archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }>, groups: Array<{ sessionId: string | null, tokensBefore: number, summaryTokens: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string }>, summary: { id: string } | null }> } };

export type SummarizeByDefaultMutationVariables = Exact<{
  apiKeyId: string;
  olderThanDays?: number | null | undefined;
}>;


export type SummarizeByDefaultMutation = { summarize: { dryRun: boolean, candidateCount: number, summaries: Array<{ id: string }> } };

export type SummarizeDefaultCutoffMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type SummarizeDefaultCutoffMutation = { summarize: { olderThanDays: number, candidateCount: number, refusedReason: string | null } };

export type SummarizeListQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  includeArchived?: boolean | null | undefined;
}>;


export type SummarizeListQuery = { memories: { totalCount: number, items: Array<{ archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus }> } };

export type SummarizeCreateMemoryMutationVariables = Exact<{
  input: MemoryInput;
}>;


export type SummarizeCreateMemoryMutation = { createMemory: { archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } };

export type SummarizeGetMemoryQueryVariables = Exact<{
  id: string | number;
}>;


export type SummarizeGetMemoryQuery = { memory: { archivedBy: string | null, id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, pendingReindex: boolean, status: MemoryStatus } | null };

export type WebsocketRetrieveQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type WebsocketRetrieveQuery = { retrieve: { items: Array<{ memory: { apiKeyId: string, content: string } }> } };

export type WellFormedOwnMemoriesQueryVariables = Exact<{ [key: string]: never; }>;


export type WellFormedOwnMemoriesQuery = { memories: { items: Array<{ apiKeyId: string, content: string }> } };

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
export const EngineCallsRecentFragmentDoc = new TypedDocumentString(`
    fragment EngineCallsRecent on RecentCalls {
  windowSeconds
  calls
  failures
  lastError
  lastErrorAt
  lastSuccessAt
}
    `, {"fragmentName":"EngineCallsRecent"}) as unknown as TypedDocumentString<EngineCallsRecentFragment, unknown>;
export const QdrantSettingsFieldsFragmentDoc = new TypedDocumentString(`
    fragment QdrantSettingsFields on QdrantSettings {
  enabled
  url
  collection
  hasApiKey
  quantization
  timeoutMs
  fromEnvironment
}
    `, {"fragmentName":"QdrantSettingsFields"}) as unknown as TypedDocumentString<QdrantSettingsFieldsFragment, unknown>;
export const SummarizeMemoryFragmentDoc = new TypedDocumentString(`
    fragment SummarizeMemory on Memory {
  ...TestMemory
  archivedBy
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
}`, {"fragmentName":"SummarizeMemory"}) as unknown as TypedDocumentString<SummarizeMemoryFragment, unknown>;
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
    purgeGraceDays
    userRoleProviders
    captureTurns
    extractionModel
    extractionModelDailyTokens
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
export const FaultsFullDiskHealthDocument = new TypedDocumentString(`
    query FaultsFullDiskHealth {
  memoryHealth {
    ok
    error
    errorCode
    checks {
      name
      ok
    }
  }
}
    `) as unknown as TypedDocumentString<FaultsFullDiskHealthQuery, FaultsFullDiskHealthQueryVariables>;
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
    query ListMemories($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $createdAfter: DateTime, $createdBefore: DateTime, $includeExpired: Boolean, $source: MemorySource, $limit: Int, $offset: Int, $orderBy: MemoryOrderField, $direction: SortDirection) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    createdAfter: $createdAfter
    createdBefore: $createdBefore
    includeExpired: $includeExpired
    source: $source
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
    captured {
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
export const UpdateQdrantDocument = new TypedDocumentString(`
    mutation UpdateQdrant($input: QdrantSettingsInput!) {
  updateQdrantSettings(input: $input) {
    enabled
    hasApiKey
  }
}
    `) as unknown as TypedDocumentString<UpdateQdrantMutation, UpdateQdrantMutationVariables>;
export const UpsertProviderDocument = new TypedDocumentString(`
    mutation UpsertProvider($input: ModelProviderInput!) {
  upsertModelProvider(input: $input) {
    id
    hasApiKey
  }
}
    `) as unknown as TypedDocumentString<UpsertProviderMutation, UpsertProviderMutationVariables>;
export const QdrantWaitingDocument = new TypedDocumentString(`
    query QdrantWaiting {
  engineStatus {
    vectorStore {
      pendingReindex
    }
    qdrant {
      pendingSync
    }
  }
}
    `) as unknown as TypedDocumentString<QdrantWaitingQuery, QdrantWaitingQueryVariables>;
export const PackagingInstallEnableMemoryDocument = new TypedDocumentString(`
    mutation PackagingInstallEnableMemory {
  updateMemorySettings(input: {enabled: true}) {
    enabled
  }
}
    `) as unknown as TypedDocumentString<PackagingInstallEnableMemoryMutation, PackagingInstallEnableMemoryMutationVariables>;
export const AuditLogDocument = new TypedDocumentString(`
    query AuditLog($action: AuditAction, $actor: String, $apiKeyId: String, $since: DateTime, $until: DateTime, $limit: Int, $offset: Int) {
  auditLog(
    action: $action
    actor: $actor
    apiKeyId: $apiKeyId
    since: $since
    until: $until
    limit: $limit
    offset: $offset
  ) {
    totalCount
    hasMore
    items {
      id
      at
      actorId
      actorName
      requestId
      action
      apiKeyId
      target
      outcome
      changes {
        field
        before
        after
        secret
      }
    }
  }
}
    `) as unknown as TypedDocumentString<AuditLogQuery, AuditLogQueryVariables>;
export const AuditCancelReindexDocument = new TypedDocumentString(`
    mutation AuditCancelReindex($jobId: ID!) {
  cancelReindex(jobId: $jobId) {
    id
  }
}
    `) as unknown as TypedDocumentString<AuditCancelReindexMutation, AuditCancelReindexMutationVariables>;
export const AuditBackupDocument = new TypedDocumentString(`
    mutation AuditBackup {
  backupDatabase {
    file
  }
}
    `) as unknown as TypedDocumentString<AuditBackupMutation, AuditBackupMutationVariables>;
export const AuditForgetApiKeyDocument = new TypedDocumentString(`
    mutation AuditForgetApiKey($apiKeyId: String!) {
  forgetApiKey(apiKeyId: $apiKeyId) {
    memories
    auditApiKeyId
  }
}
    `) as unknown as TypedDocumentString<AuditForgetApiKeyMutation, AuditForgetApiKeyMutationVariables>;
export const AuthEveryTokenFieldDocument = new TypedDocumentString(`
    query AuthEveryTokenField {
  accessTokens(includeRevoked: true) {
    id
    name
    role
    apiKeyId
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<AuthEveryTokenFieldQuery, AuthEveryTokenFieldQueryVariables>;
export const AuthAccessTokenFieldNamesDocument = new TypedDocumentString(`
    query AuthAccessTokenFieldNames {
  __type(name: "AccessToken") {
    fields {
      name
    }
  }
}
    `) as unknown as TypedDocumentString<AuthAccessTokenFieldNamesQuery, AuthAccessTokenFieldNamesQueryVariables>;
export const AuthTokenStartsDocument = new TypedDocumentString(`
    query AuthTokenStarts {
  accessTokens {
    id
    tokenStart
  }
}
    `) as unknown as TypedDocumentString<AuthTokenStartsQuery, AuthTokenStartsQueryVariables>;
export const AuthViewerDocument = new TypedDocumentString(`
    query AuthViewer {
  viewer {
    role
    apiKeyId
  }
}
    `) as unknown as TypedDocumentString<AuthViewerQuery, AuthViewerQueryVariables>;
export const BackupDatabaseDocument = new TypedDocumentString(`
    mutation BackupDatabase {
  backupDatabase {
    file
    bytes
    migration
    createdAt
  }
}
    `) as unknown as TypedDocumentString<BackupDatabaseMutation, BackupDatabaseMutationVariables>;
export const CliTokenNamesDocument = new TypedDocumentString(`
    query CliTokenNames {
  accessTokens {
    name
    role
  }
}
    `) as unknown as TypedDocumentString<CliTokenNamesQuery, CliTokenNamesQueryVariables>;
export const CliForgetApiKeyDocument = new TypedDocumentString(`
    mutation CliForgetApiKey($apiKeyId: String!) {
  forgetApiKey(apiKeyId: $apiKeyId) {
    apiKeyId
  }
}
    `) as unknown as TypedDocumentString<CliForgetApiKeyMutation, CliForgetApiKeyMutationVariables>;
export const EngineStatusViewDocument = new TypedDocumentString(`
    query EngineStatusView {
  engineStatus {
    keyword {
      available
      latencyMs
      error
      documents
    }
    embedding {
      source
      model
      dimension
      state
      reason
      lastError {
        kind
        message
      }
      cache {
        hits
        misses
        size
        max
        ttlMs
      }
    }
    vectorStore {
      backend
      available
      extensionVersion
      rows
      pendingReindex
      signature
      signatureMatches
      dimension
      quantization
      lastResetAt
    }
    rerank {
      enabled
      model
      reason
    }
    reindex {
      id
      status
      total
      processed
    }
    checkedAt
  }
}
    `) as unknown as TypedDocumentString<EngineStatusViewQuery, EngineStatusViewQueryVariables>;
export const EngineVectorStoreWithoutQdrantDocument = new TypedDocumentString(`
    query EngineVectorStoreWithoutQdrant {
  engineStatus {
    vectorStore {
      backend
      available
      unavailableReason
      rows
    }
  }
}
    `) as unknown as TypedDocumentString<EngineVectorStoreWithoutQdrantQuery, EngineVectorStoreWithoutQdrantQueryVariables>;
export const EngineVectorStoreAvailabilityDocument = new TypedDocumentString(`
    query EngineVectorStoreAvailability {
  engineStatus {
    vectorStore {
      available
      unavailableReason
    }
  }
}
    `) as unknown as TypedDocumentString<EngineVectorStoreAvailabilityQuery, EngineVectorStoreAvailabilityQueryVariables>;
export const EngineProvidersDocument = new TypedDocumentString(`
    query EngineProviders {
  embeddingProviders {
    id
    baseUrl
    hasApiKey
    keyless
    origin
    models {
      name
      kind
      dimension
      maxInputTokens
    }
  }
}
    `) as unknown as TypedDocumentString<EngineProvidersQuery, EngineProvidersQueryVariables>;
export const EngineUpsertProviderDocument = new TypedDocumentString(`
    mutation EngineUpsertProvider($input: ModelProviderInput!) {
  upsertModelProvider(input: $input) {
    id
    baseUrl
    hasApiKey
    origin
    models {
      name
      kind
      dimension
    }
  }
}
    `) as unknown as TypedDocumentString<EngineUpsertProviderMutation, EngineUpsertProviderMutationVariables>;
export const EngineDeleteProviderDocument = new TypedDocumentString(`
    mutation EngineDeleteProvider($id: ID!) {
  deleteModelProvider(id: $id)
}
    `) as unknown as TypedDocumentString<EngineDeleteProviderMutation, EngineDeleteProviderMutationVariables>;
export const EngineCallsStatusDocument = new TypedDocumentString(`
    query EngineCallsStatus {
  engineStatus {
    embedding {
      state
      calls {
        ...EngineCallsRecent
      }
    }
    rerank {
      enabled
      calls {
        ...EngineCallsRecent
      }
    }
  }
}
    fragment EngineCallsRecent on RecentCalls {
  windowSeconds
  calls
  failures
  lastError
  lastErrorAt
  lastSuccessAt
}`) as unknown as TypedDocumentString<EngineCallsStatusQuery, EngineCallsStatusQueryVariables>;
export const EngineCallsTestModelDocument = new TypedDocumentString(`
    mutation EngineCallsTestModel($kind: ModelKind!) {
  testEngineModel(kind: $kind) {
    kind
    model
    ok
    latencyMs
    answer
    error
  }
}
    `) as unknown as TypedDocumentString<EngineCallsTestModelMutation, EngineCallsTestModelMutationVariables>;
export const EngineCallsTestProviderDocument = new TypedDocumentString(`
    mutation EngineCallsTestProvider($id: ID!) {
  testModelProvider(id: $id) {
    kind
    model
    ok
    latencyMs
    answer
    error
  }
}
    `) as unknown as TypedDocumentString<EngineCallsTestProviderMutation, EngineCallsTestProviderMutationVariables>;
export const ErasureForgetApiKeyDocument = new TypedDocumentString(`
    mutation ErasureForgetApiKey($apiKeyId: String!) {
  forgetApiKey(apiKeyId: $apiKeyId) {
    memories
  }
}
    `) as unknown as TypedDocumentString<ErasureForgetApiKeyMutation, ErasureForgetApiKeyMutationVariables>;
export const ExtractFactsInjectDocument = new TypedDocumentString(`
    mutation ExtractFactsInject($input: InjectMemoryInput!) {
  injectMemory(input: $input) {
    request
    injected
    retrieval {
      skipped
      items {
        content
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExtractFactsInjectMutation, ExtractFactsInjectMutationVariables>;
export const ForgetApiKeyDocument = new TypedDocumentString(`
    mutation ForgetApiKey($apiKeyId: String!) {
  forgetApiKey(apiKeyId: $apiKeyId) {
    apiKeyId
    memories
    archivedOriginals
    summaries
    keywordEntries
    vectors
    qdrantDeletesQueued
    retrievals
    walEmptied
  }
}
    `) as unknown as TypedDocumentString<ForgetApiKeyMutation, ForgetApiKeyMutationVariables>;
export const ForgetTokensDocument = new TypedDocumentString(`
    query ForgetTokens {
  accessTokens {
    apiKeyId
    mayForgetKey
  }
}
    `) as unknown as TypedDocumentString<ForgetTokensQuery, ForgetTokensQueryVariables>;
export const HealthProbeDocument = new TypedDocumentString(`
    query HealthProbe {
  memoryHealth {
    ok
    latencyMs
    error
    checkedAt
    checks {
      name
      ok
      latencyMs
    }
  }
}
    `) as unknown as TypedDocumentString<HealthProbeQuery, HealthProbeQueryVariables>;
export const HealthStoreKindDocument = new TypedDocumentString(`
    query HealthStoreKind {
  memoryHealth {
    store
    ok
  }
}
    `) as unknown as TypedDocumentString<HealthStoreKindQuery, HealthStoreKindQueryVariables>;
export const HealthEngineStoreDocument = new TypedDocumentString(`
    query HealthEngineStore {
  engineStatus {
    store {
      kind
      available
      error
      file
      host
      port
      database
      version
    }
  }
}
    `) as unknown as TypedDocumentString<HealthEngineStoreQuery, HealthEngineStoreQueryVariables>;
export const InjectRequestDocument = new TypedDocumentString(`
    mutation InjectRequest($input: InjectMemoryInput!) {
  injectMemory(input: $input) {
    request
    injected
    role
    shape
    optedOut
    retrieval {
      tokensUsed
      maxTokens
      block
      items {
        memory {
          id
          content
          accessCount
        }
        content
        truncated
      }
    }
  }
}
    `) as unknown as TypedDocumentString<InjectRequestMutation, InjectRequestMutationVariables>;
export const MemoryBadinputExportSinceDocument = new TypedDocumentString(`
    query MemoryBadinputExportSince($createdAfter: DateTime) {
  exportMemories(createdAfter: $createdAfter) {
    id
  }
}
    `) as unknown as TypedDocumentString<MemoryBadinputExportSinceQuery, MemoryBadinputExportSinceQueryVariables>;
export const MemoryLifecycleImportRowLimitDocument = new TypedDocumentString(`
    query MemoryLifecycleImportRowLimit {
  importRowLimit
}
    `) as unknown as TypedDocumentString<MemoryLifecycleImportRowLimitQuery, MemoryLifecycleImportRowLimitQueryVariables>;
export const MemoryListStatsDocument = new TypedDocumentString(`
    query MemoryListStats($apiKeyId: String, $type: MemoryType, $includeExpired: Boolean) {
  memories(
    apiKeyId: $apiKeyId
    type: $type
    includeExpired: $includeExpired
    limit: 1
  ) {
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
    `) as unknown as TypedDocumentString<MemoryListStatsQuery, MemoryListStatsQueryVariables>;
export const MemoryListExportDocument = new TypedDocumentString(`
    query MemoryListExport($apiKeyId: String, $type: MemoryType, $search: String, $sessionId: String, $includeExpired: Boolean) {
  exportMemories(
    apiKeyId: $apiKeyId
    type: $type
    search: $search
    sessionId: $sessionId
    includeExpired: $includeExpired
  ) {
    key
    content
    type
  }
}
    `) as unknown as TypedDocumentString<MemoryListExportQuery, MemoryListExportQueryVariables>;
export const MemoryListSearchWordsDocument = new TypedDocumentString(`
    query MemoryListSearchWords($apiKeyId: String, $search: String) {
  memories(apiKeyId: $apiKeyId, search: $search, limit: 1) {
    searchWords
  }
}
    `) as unknown as TypedDocumentString<MemoryListSearchWordsQuery, MemoryListSearchWordsQueryVariables>;
export const MemoryListHiddenByRetentionDocument = new TypedDocumentString(`
    query MemoryListHiddenByRetention($apiKeyId: String, $includeExpired: Boolean) {
  memories(apiKeyId: $apiKeyId, includeExpired: $includeExpired, limit: 1) {
    totalCount
    stats {
      totalEntries
      hiddenByRetention
      retentionDays
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryListHiddenByRetentionQuery, MemoryListHiddenByRetentionQueryVariables>;
export const MemoryListApiKeysDocument = new TypedDocumentString(`
    query MemoryListApiKeys($contains: String, $limit: Int, $offset: Int) {
  apiKeys(contains: $contains, limit: $limit, offset: $offset) {
    totalCount
    limit
    offset
    items {
      apiKeyId
      memories
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryListApiKeysQuery, MemoryListApiKeysQueryVariables>;
export const MetricsAliasedRootFieldsDocument = new TypedDocumentString(`
    query MetricsAliasedRootFields {
  a: memory(id: "missing") {
    id
  }
  b: accessTokens {
    id
  }
}
    `) as unknown as TypedDocumentString<MetricsAliasedRootFieldsQuery, MetricsAliasedRootFieldsQueryVariables>;
export const ProfileInjectDocument = new TypedDocumentString(`
    mutation ProfileInject($input: InjectMemoryInput!) {
  injectMemory(input: $input) {
    injected
    retrieval {
      tokensUsed
      maxTokens
      items {
        content
        tier
        score
      }
      resolution {
        tiers
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProfileInjectMutation, ProfileInjectMutationVariables>;
export const PurgeStatsDocument = new TypedDocumentString(`
    query PurgeStats($apiKeyId: String, $includeExpired: Boolean) {
  memories(apiKeyId: $apiKeyId, includeExpired: $includeExpired, limit: 1) {
    stats {
      totalEntries
      hiddenByExpiry
      hiddenByRetention
      nextPurgeAt
    }
  }
}
    `) as unknown as TypedDocumentString<PurgeStatsQuery, PurgeStatsQueryVariables>;
export const PurgeWithArchivedDocument = new TypedDocumentString(`
    query PurgeWithArchived($apiKeyId: String) {
  memories(apiKeyId: $apiKeyId, includeArchived: true) {
    items {
      id
      key
    }
  }
}
    `) as unknown as TypedDocumentString<PurgeWithArchivedQuery, PurgeWithArchivedQueryVariables>;
export const PurgeRetentionSettingsDocument = new TypedDocumentString(`
    query PurgeRetentionSettings {
  memorySettings {
    purgeGraceDays
    retentionEnabled
    retentionDays
  }
}
    `) as unknown as TypedDocumentString<PurgeRetentionSettingsQuery, PurgeRetentionSettingsQueryVariables>;
export const QdrantGetSettingsDocument = new TypedDocumentString(`
    query QdrantGetSettings {
  qdrantSettings {
    ...QdrantSettingsFields
  }
}
    fragment QdrantSettingsFields on QdrantSettings {
  enabled
  url
  collection
  hasApiKey
  quantization
  timeoutMs
  fromEnvironment
}`) as unknown as TypedDocumentString<QdrantGetSettingsQuery, QdrantGetSettingsQueryVariables>;
export const QdrantUpdateSettingsDocument = new TypedDocumentString(`
    mutation QdrantUpdateSettings($input: QdrantSettingsInput!) {
  updateQdrantSettings(input: $input) {
    ...QdrantSettingsFields
  }
}
    fragment QdrantSettingsFields on QdrantSettings {
  enabled
  url
  collection
  hasApiKey
  quantization
  timeoutMs
  fromEnvironment
}`) as unknown as TypedDocumentString<QdrantUpdateSettingsMutation, QdrantUpdateSettingsMutationVariables>;
export const QdrantEngineStatusDocument = new TypedDocumentString(`
    query QdrantEngineStatus {
  engineStatus {
    qdrant {
      configured
      enabled
      url
      collection
      breaker
      ready
      latencyMs
      error
      compatible
      incompatibleReason
      points
      pendingSync
    }
  }
}
    `) as unknown as TypedDocumentString<QdrantEngineStatusQuery, QdrantEngineStatusQueryVariables>;
export const QdrantCallsDocument = new TypedDocumentString(`
    query QdrantCalls {
  engineStatus {
    qdrant {
      calls {
        calls
        failures
        lastError
      }
    }
  }
}
    `) as unknown as TypedDocumentString<QdrantCallsQuery, QdrantCallsQueryVariables>;
export const QdrantHealthCheckDocument = new TypedDocumentString(`
    query QdrantHealthCheck {
  qdrantHealth {
    ready
    latencyMs
    error
  }
}
    `) as unknown as TypedDocumentString<QdrantHealthCheckQuery, QdrantHealthCheckQueryVariables>;
export const QdrantSearchTestDocument = new TypedDocumentString(`
    mutation QdrantSearchTest($apiKeyId: String!, $query: String!, $topK: Int) {
  qdrantSearchTest(apiKeyId: $apiKeyId, query: $query, topK: $topK) {
    latencyMs
    hits {
      score
      memory {
        id
        apiKeyId
        content
      }
    }
  }
}
    `) as unknown as TypedDocumentString<QdrantSearchTestMutation, QdrantSearchTestMutationVariables>;
export const QdrantCleanupDocument = new TypedDocumentString(`
    mutation QdrantCleanup {
  qdrantCleanup
}
    `) as unknown as TypedDocumentString<QdrantCleanupMutation, QdrantCleanupMutationVariables>;
export const QdrantNotSelectedSearchTestDocument = new TypedDocumentString(`
    mutation QdrantNotSelectedSearchTest($apiKeyId: String!, $query: String!) {
  qdrantSearchTest(apiKeyId: $apiKeyId, query: $query) {
    hits {
      score
    }
  }
}
    `) as unknown as TypedDocumentString<QdrantNotSelectedSearchTestMutation, QdrantNotSelectedSearchTestMutationVariables>;
export const ReindexCancelDocument = new TypedDocumentString(`
    mutation ReindexCancel($jobId: ID!) {
  cancelReindex(jobId: $jobId) {
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
}`) as unknown as TypedDocumentString<ReindexCancelMutation, ReindexCancelMutationVariables>;
export const ReindexEngineStatusDocument = new TypedDocumentString(`
    query ReindexEngineStatus {
  engineStatus {
    embedding {
      source
      model
      dimension
      state
    }
    vectorStore {
      rows
      pendingReindex
      signature
      signatureMatches
      dimension
      quantization
      lastResetAt
    }
  }
}
    `) as unknown as TypedDocumentString<ReindexEngineStatusQuery, ReindexEngineStatusQueryVariables>;
export const ReplicasEnableQdrantDocument = new TypedDocumentString(`
    mutation ReplicasEnableQdrant {
  updateQdrantSettings(input: {enabled: true}) {
    enabled
  }
}
    `) as unknown as TypedDocumentString<ReplicasEnableQdrantMutation, ReplicasEnableQdrantMutationVariables>;
export const ReplicasViewerDocument = new TypedDocumentString(`
    query ReplicasViewer {
  viewer {
    role
  }
}
    `) as unknown as TypedDocumentString<ReplicasViewerQuery, ReplicasViewerQueryVariables>;
export const RetentionImportDocument = new TypedDocumentString(`
    mutation RetentionImport($memories: [MemoryInput!]!, $dryRun: Boolean) {
  importMemories(memories: $memories, dryRun: $dryRun) {
    dryRun
    imported
    updated
    rejected {
      index
    }
    outsideRetention
    expired
    nextPurgeAt
  }
}
    `) as unknown as TypedDocumentString<RetentionImportMutation, RetentionImportMutationVariables>;
export const RetentionWindowDocument = new TypedDocumentString(`
    query RetentionWindow {
  memorySettings {
    retentionDays
    retentionEnabled
  }
}
    `) as unknown as TypedDocumentString<RetentionWindowQuery, RetentionWindowQueryVariables>;
export const RetentionDefaultsDocument = new TypedDocumentString(`
    query RetentionDefaults {
  memorySettings {
    retentionDays
    retentionEnabled
    purgeGraceDays
  }
}
    `) as unknown as TypedDocumentString<RetentionDefaultsQuery, RetentionDefaultsQueryVariables>;
export const SummarizeRunDocument = new TypedDocumentString(`
    mutation SummarizeRun($apiKeyId: String!, $olderThanDays: Int, $dryRun: Boolean) {
  summarize(apiKeyId: $apiKeyId, olderThanDays: $olderThanDays, dryRun: $dryRun) {
    dryRun
    olderThanDays
    candidateCount
    candidates {
      ...SummarizeMemory
    }
    tokensBefore
    tokensAfter
    tokensSaved
    refusedReason
    summaries {
      ...SummarizeMemory
    }
    groups {
      sessionId
      candidates {
        id
      }
      tokensBefore
      summaryTokens
      tokensAfter
      tokensSaved
      refusedReason
      summary {
        id
      }
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
}
fragment SummarizeMemory on Memory {
  ...TestMemory
  archivedBy
}`) as unknown as TypedDocumentString<SummarizeRunMutation, SummarizeRunMutationVariables>;
export const SummarizeByDefaultDocument = new TypedDocumentString(`
    mutation SummarizeByDefault($apiKeyId: String!, $olderThanDays: Int) {
  summarize(apiKeyId: $apiKeyId, olderThanDays: $olderThanDays) {
    dryRun
    candidateCount
    summaries {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<SummarizeByDefaultMutation, SummarizeByDefaultMutationVariables>;
export const SummarizeDefaultCutoffDocument = new TypedDocumentString(`
    mutation SummarizeDefaultCutoff($apiKeyId: String!) {
  summarize(apiKeyId: $apiKeyId) {
    olderThanDays
    candidateCount
    refusedReason
  }
}
    `) as unknown as TypedDocumentString<SummarizeDefaultCutoffMutation, SummarizeDefaultCutoffMutationVariables>;
export const SummarizeListDocument = new TypedDocumentString(`
    query SummarizeList($apiKeyId: String, $includeArchived: Boolean) {
  memories(apiKeyId: $apiKeyId, includeArchived: $includeArchived, limit: 500) {
    totalCount
    items {
      ...SummarizeMemory
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
}
fragment SummarizeMemory on Memory {
  ...TestMemory
  archivedBy
}`) as unknown as TypedDocumentString<SummarizeListQuery, SummarizeListQueryVariables>;
export const SummarizeCreateMemoryDocument = new TypedDocumentString(`
    mutation SummarizeCreateMemory($input: MemoryInput!) {
  createMemory(input: $input) {
    ...SummarizeMemory
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
fragment SummarizeMemory on Memory {
  ...TestMemory
  archivedBy
}`) as unknown as TypedDocumentString<SummarizeCreateMemoryMutation, SummarizeCreateMemoryMutationVariables>;
export const SummarizeGetMemoryDocument = new TypedDocumentString(`
    query SummarizeGetMemory($id: ID!) {
  memory(id: $id) {
    ...SummarizeMemory
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
fragment SummarizeMemory on Memory {
  ...TestMemory
  archivedBy
}`) as unknown as TypedDocumentString<SummarizeGetMemoryQuery, SummarizeGetMemoryQueryVariables>;
export const WebsocketRetrieveDocument = new TypedDocumentString(`
    query WebsocketRetrieve($input: RetrieveInput!) {
  retrieve(input: $input) {
    items {
      memory {
        apiKeyId
        content
      }
    }
  }
}
    `) as unknown as TypedDocumentString<WebsocketRetrieveQuery, WebsocketRetrieveQueryVariables>;
export const WellFormedOwnMemoriesDocument = new TypedDocumentString(`
    query WellFormedOwnMemories {
  memories(limit: 500) {
    items {
      apiKeyId
      content
    }
  }
}
    `) as unknown as TypedDocumentString<WellFormedOwnMemoriesQuery, WellFormedOwnMemoriesQueryVariables>;