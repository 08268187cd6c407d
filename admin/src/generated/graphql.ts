/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { useQuery, useMutation, UseQueryOptions, UseMutationOptions } from '@tanstack/react-query';
import { fetcher } from '../lib/fetcher';
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

export type EvaluationChange =
  /** Found both times, higher now. */
  | 'BETTER'
  /** Missed before, found now. */
  | 'NEWLY_HIT'
  /** Found before, missed now. */
  | 'NEWLY_MISSED'
  /** Found both times, lower now. */
  | 'WORSE';

/** Settings of retrieval changed for one run only, never saved; those not given are the saved ones. */
export type EvaluationSettingsDraft = {
  /** null: the calibrated guard. */
  fusionVectorShare?: number | null | undefined;
  maxTokens?: number | null | undefined;
  profileBudgetPercent?: number | null | undefined;
  rerankEnabled?: boolean | null | undefined;
  rerankProviderModel?: string | null | undefined;
  strategy?: RetrievalStrategy | null | undefined;
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

export type FileImportStatus =
  | 'COMPLETED'
  | 'FAILED'
  | 'RUNNING';

/** The file formats an import reads (`mnemo import --from`). */
export type ImportFormat =
  | 'CSV'
  | 'JSONL'
  | 'LETTA'
  | 'MEM0'
  | 'OMNIROUTE';

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

/** A field of a mem0 memory that names its owner. */
export type Mem0Field =
  | 'AGENT_ID'
  | 'RUN_ID'
  | 'USER_ID';

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

export type RetrievalSpeaker =
  /** The query asks what the assistant said ("What did you recommend?"). */
  | 'ASSISTANT'
  /** The query asks about what the user said of themselves ("What did I buy?"). */
  | 'USER';

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

export type AccessTokensQueryVariables = Exact<{
  includeRevoked?: boolean | null | undefined;
}>;


export type AccessTokensQuery = { accessTokens: Array<{ id: string, name: string, role: TokenRole, apiKeyId: string | null, mayForgetKey: boolean, tokenStart: string | null, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type CreateAccessTokenMutationVariables = Exact<{
  input: CreateAccessTokenInput;
}>;


export type CreateAccessTokenMutation = { createAccessToken: { token: string, accessToken: { id: string, name: string, role: TokenRole, apiKeyId: string | null, mayForgetKey: boolean } } };

export type RevokeAccessTokenMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeAccessTokenMutation = { revokeAccessToken: { id: string, revokedAt: string | null } };

export type AuditLogQueryVariables = Exact<{
  action?: AuditAction | null | undefined;
  actor?: string | null | undefined;
  apiKeyId?: string | null | undefined;
  since?: string | null | undefined;
  until?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type AuditLogQuery = { auditLog: { totalCount: number, offset: number, items: Array<{ id: string, at: string, action: AuditAction, actorId: string, actorName: string, apiKeyId: string | null, requestId: string | null, target: Record<string, unknown> | null, outcome: string, changes: Array<{ field: string, before: string | null, after: string | null, secret: SecretChange | null }> }> } };

export type AuditActorsQueryVariables = Exact<{ [key: string]: never; }>;


export type AuditActorsQuery = { accessTokens: Array<{ id: string, name: string, tokenStart: string | null }> };

export type MemoryHealthQueryVariables = Exact<{ [key: string]: never; }>;


export type MemoryHealthQuery = { memoryHealth: { store: StoreKind, ok: boolean, latencyMs: number, error: string | null, errorCode: string | null, checkedAt: string } };

export type ReindexJobFieldsFragment = { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, error: string | null, rate: number, etaSeconds: number | null, startedAt: string, updatedAt: string, finishedAt: string | null };

export type ModelProviderFieldsFragment = { id: string, baseUrl: string, hasApiKey: boolean, keyless: boolean, origin: string, models: Array<{ name: string, kind: ModelKind, dimension: number | null, maxInputTokens: number | null }> };

export type RecentCallsFieldsFragment = { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null };

export type ModelTestFieldsFragment = { kind: ModelKind, model: string | null, ok: boolean, latencyMs: number, answer: string | null, error: string | null };

export type EngineStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type EngineStatusQuery = { engineStatus: { checkedAt: string, store: { kind: StoreKind, available: boolean, latencyMs: number, error: string | null, file: string | null, host: string | null, port: number | null, database: string | null, version: string | null }, keyword: { available: boolean, documents: number, latencyMs: number, error: string | null }, embedding: { source: string | null, model: string | null, dimension: number | null, state: string, reason: string, lastError: { kind: string, message: string } | null, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null, cache: { hits: number, misses: number, size: number, max: number, ttlMs: number } | null }, vectorStore: { backend: string, available: boolean, unavailableReason: string | null, extensionVersion: string | null, rows: number, pendingReindex: number, signature: string | null, signatureMatches: boolean | null, dimension: number | null, quantization: string, lastResetAt: string | null }, rerank: { enabled: boolean, model: string | null, reason: string, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null }, qdrant: { configured: boolean, enabled: boolean, url: string | null, collection: string | null, breaker: string, ready: boolean | null, latencyMs: number | null, error: string | null, compatible: boolean | null, incompatibleReason: string | null, points: number | null, pendingSync: number, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null } } };

export type LatestReindexJobQueryVariables = Exact<{ [key: string]: never; }>;


export type LatestReindexJobQuery = { reindexJob: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, error: string | null, rate: number, etaSeconds: number | null, startedAt: string, updatedAt: string, finishedAt: string | null } | null };

export type StartReindexMutationVariables = Exact<{
  force?: boolean | null | undefined;
}>;


export type StartReindexMutation = { reindex: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, error: string | null, rate: number, etaSeconds: number | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type CancelReindexMutationVariables = Exact<{
  jobId: string | number;
}>;


export type CancelReindexMutation = { cancelReindex: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, error: string | null, rate: number, etaSeconds: number | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type ReindexProgressSubscriptionVariables = Exact<{
  jobId: string | number;
}>;


export type ReindexProgressSubscription = { reindexProgress: { id: string, status: ReindexStatus, force: boolean, total: number, processed: number, failed: number, error: string | null, rate: number, etaSeconds: number | null, startedAt: string, updatedAt: string, finishedAt: string | null } };

export type EmbeddingProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type EmbeddingProvidersQuery = { embeddingProviders: Array<{ id: string, baseUrl: string, hasApiKey: boolean, keyless: boolean, origin: string, models: Array<{ name: string, kind: ModelKind, dimension: number | null, maxInputTokens: number | null }> }> };

export type UpsertModelProviderMutationVariables = Exact<{
  input: ModelProviderInput;
}>;


export type UpsertModelProviderMutation = { upsertModelProvider: { id: string, baseUrl: string, hasApiKey: boolean, keyless: boolean, origin: string, models: Array<{ name: string, kind: ModelKind, dimension: number | null, maxInputTokens: number | null }> } };

export type DeleteModelProviderMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteModelProviderMutation = { deleteModelProvider: boolean };

export type TestEngineModelMutationVariables = Exact<{
  kind: ModelKind;
}>;


export type TestEngineModelMutation = { testEngineModel: { kind: ModelKind, model: string | null, ok: boolean, latencyMs: number, answer: string | null, error: string | null } };

export type TestModelProviderMutationVariables = Exact<{
  id: string | number;
}>;


export type TestModelProviderMutation = { testModelProvider: Array<{ kind: ModelKind, model: string | null, ok: boolean, latencyMs: number, answer: string | null, error: string | null }> };

export type QdrantStatusFieldsFragment = { configured: boolean, enabled: boolean, url: string | null, collection: string | null, breaker: string, ready: boolean | null, latencyMs: number | null, error: string | null, compatible: boolean | null, incompatibleReason: string | null, points: number | null, pendingSync: number, calls: { windowSeconds: number, calls: number, failures: number, lastError: string | null, lastErrorAt: string | null, lastSuccessAt: string | null } | null };

export type QdrantSettingsFieldsFragment = { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> };

export type QdrantSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantSettingsQuery = { qdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> } };

export type UpdateQdrantSettingsMutationVariables = Exact<{
  input: QdrantSettingsInput;
}>;


export type UpdateQdrantSettingsMutation = { updateQdrantSettings: { enabled: boolean, url: string | null, collection: string, hasApiKey: boolean, quantization: QdrantQuantization, timeoutMs: number, fromEnvironment: Array<string> } };

export type QdrantHealthQueryVariables = Exact<{ [key: string]: never; }>;


export type QdrantHealthQuery = { qdrantHealth: { ready: boolean, latencyMs: number, error: string | null } };

export type QdrantSearchTestMutationVariables = Exact<{
  apiKeyId: string;
  query: string;
  topK?: number | null | undefined;
}>;


export type QdrantSearchTestMutation = { qdrantSearchTest: { latencyMs: number, hits: Array<{ score: number, memory: { id: string, key: string, type: MemoryType, content: string } }> } };

export type QdrantCleanupMutationVariables = Exact<{ [key: string]: never; }>;


export type QdrantCleanupMutation = { qdrantCleanup: number };

export type EvaluateRunFragment = { id: string, at: string, draft: Array<string>, settings: { strategy: RetrievalStrategy, maxTokens: number, fusionVectorShare: number | null, profileBudgetPercent: number, rerankEnabled: boolean, rerankProviderModel: string | null }, metrics: { scored: number, expectedGone: number, hitAt1: number, hitAt5: number, hitAt10: number, mrr: number, meanTokens: number, p50Ms: number } };

export type EvaluateQuestionFragment = { id: string, question: string, gone: Array<string>, expected: Array<{ id: string, key: string | null, content: string | null }> };

export type EvaluateSetsQueryVariables = Exact<{
  apiKeyId: string;
}>;


export type EvaluateSetsQuery = { evaluationSets: Array<{ id: string, name: string, questionCount: number, runCount: number, questions: Array<{ id: string, question: string, gone: Array<string>, expected: Array<{ id: string, key: string | null, content: string | null }> }> }> };

export type EvaluateRunsQueryVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
}>;


export type EvaluateRunsQuery = { evaluationRuns: Array<{ id: string, at: string, draft: Array<string>, settings: { strategy: RetrievalStrategy, maxTokens: number, fusionVectorShare: number | null, profileBudgetPercent: number, rerankEnabled: boolean, rerankProviderModel: string | null }, metrics: { scored: number, expectedGone: number, hitAt1: number, hitAt5: number, hitAt10: number, mrr: number, meanTokens: number, p50Ms: number } }> };

export type EvaluateCompareRunsQueryVariables = Exact<{
  apiKeyId: string;
  beforeRunId: string | number;
  afterRunId: string | number;
}>;


export type EvaluateCompareRunsQuery = { compareEvaluationRuns: { delta: { hitAt1: number, hitAt5: number, hitAt10: number, mrr: number, meanTokens: number, p50Ms: number }, changes: Array<{ questionId: string, question: string, change: EvaluationChange, before: number | null, after: number | null }> } };

export type EvaluateMemorySearchQueryVariables = Exact<{
  apiKeyId: string;
  search: string;
}>;


export type EvaluateMemorySearchQuery = { memories: { items: Array<{ id: string, key: string, content: string }> } };

export type CreateEvaluationSetMutationVariables = Exact<{
  apiKeyId: string;
  name: string;
}>;


export type CreateEvaluationSetMutation = { createEvaluationSet: { id: string, name: string } };

export type RenameEvaluationSetMutationVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
  name: string;
}>;


export type RenameEvaluationSetMutation = { renameEvaluationSet: { id: string, name: string } };

export type DeleteEvaluationSetMutationVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
}>;


export type DeleteEvaluationSetMutation = { deleteEvaluationSet: { id: string } };

export type AddEvaluationQuestionMutationVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
  question: string;
  expected: Array<string> | string;
}>;


export type AddEvaluationQuestionMutation = { addEvaluationQuestion: { id: string, question: string, gone: Array<string>, expected: Array<{ id: string, key: string | null, content: string | null }> } };

export type EditEvaluationQuestionMutationVariables = Exact<{
  apiKeyId: string;
  questionId: string | number;
  question: string;
  expected: Array<string> | string;
}>;


export type EditEvaluationQuestionMutation = { editEvaluationQuestion: { id: string, question: string, gone: Array<string>, expected: Array<{ id: string, key: string | null, content: string | null }> } };

export type RemoveEvaluationQuestionMutationVariables = Exact<{
  apiKeyId: string;
  questionId: string | number;
}>;


export type RemoveEvaluationQuestionMutation = { removeEvaluationQuestion: { id: string } };

export type ImportEvaluationQuestionsMutationVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
  jsonl: string;
}>;


export type ImportEvaluationQuestionsMutation = { importEvaluationQuestions: { imported: Array<{ id: string }>, errors: Array<{ line: number, message: string }> } };

export type EvaluateRunProgressSubscriptionVariables = Exact<{
  apiKeyId: string;
  setId: string | number;
  settingsDraft?: EvaluationSettingsDraft | null | undefined;
}>;


export type EvaluateRunProgressSubscription = { evaluationRunProgress: { done: number, total: number, run: { id: string } | null } };

export type FileImportJobFieldsFragment = { id: string, format: ImportFormat, fileName: string, dryRun: boolean, status: FileImportStatus, report: { read: number, imported: number, updated: number, merged: number, skipped: number, expired: number, outsideRetention: number, disabled: boolean, versions: number, tombstones: number, deletedByTombstones: number, skippedRows: Array<{ at: string, reason: string }> }, error: { code: string, message: string } | null };

export type StartFileImportMutationVariables = Exact<{
  file: File;
  format: ImportFormat;
  dryRun: boolean;
  apiKeyId?: string | null | undefined;
  keyFrom?: Mem0Field | null | undefined;
  sessionFrom?: Mem0Field | null | undefined;
}>;


export type StartFileImportMutation = { startFileImport: { id: string, format: ImportFormat, fileName: string, dryRun: boolean, status: FileImportStatus, report: { read: number, imported: number, updated: number, merged: number, skipped: number, expired: number, outsideRetention: number, disabled: boolean, versions: number, tombstones: number, deletedByTombstones: number, skippedRows: Array<{ at: string, reason: string }> }, error: { code: string, message: string } | null } };

export type FileImportQueryVariables = Exact<{
  id: string | number;
}>;


export type FileImportQuery = { fileImport: { id: string, format: ImportFormat, fileName: string, dryRun: boolean, status: FileImportStatus, report: { read: number, imported: number, updated: number, merged: number, skipped: number, expired: number, outsideRetention: number, disabled: boolean, versions: number, tombstones: number, deletedByTombstones: number, skippedRows: Array<{ at: string, reason: string }> }, error: { code: string, message: string } | null } };

export type PurgeStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type PurgeStatusQuery = { memorySettings: { retentionEnabled: boolean, retentionDays: number, purgeGraceDays: number }, memories: { stats: { totalEntries: number, hiddenByExpiry: number, hiddenByRetention: number, nextPurgeAt: string | null } }, auditLog: { totalCount: number, items: Array<{ at: string, actorName: string, target: Record<string, unknown> | null }> } };

export type MemoryRowFieldsFragment = { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null };

export type MemoryListQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
  includeSuperseded?: boolean | null | undefined;
  source?: MemorySource | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
  orderBy?: MemoryOrderField | null | undefined;
  direction?: SortDirection | null | undefined;
}>;


export type MemoryListQuery = { memories: { totalCount: number, limit: number, offset: number, hasMore: boolean, searchWords: Array<string>, items: Array<{ id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null }> } };

export type MemoryOverviewQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
  includeSuperseded?: boolean | null | undefined;
  source?: MemorySource | null | undefined;
}>;


export type MemoryOverviewQuery = { memories: { stats: { totalEntries: number, hiddenByRetention: number, retentionDays: number, tokensUsed: number, hitRate: number | null, retrievals: number, hiddenByExpiry: number, nextPurgeAt: string | null, byType: Array<{ type: MemoryType, count: number }>, byWeek: Array<{ weekStart: string, count: number }> } } };

export type ExportMemoriesQueryVariables = Exact<{
  apiKeyId?: string | null | undefined;
  sessionId?: string | null | undefined;
  type?: MemoryType | null | undefined;
  search?: string | null | undefined;
  includeExpired?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
  includeSuperseded?: boolean | null | undefined;
  source?: MemorySource | null | undefined;
}>;


export type ExportMemoriesQuery = { exportMemories: Array<{ apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, createdAt: string, expiresAt: string | null, validFrom: string, validTo: string | null }> };

export type CreateMemoryMutationVariables = Exact<{
  input: MemoryInput;
}>;


export type CreateMemoryMutation = { createMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null } };

export type UpdateMemoryMutationVariables = Exact<{
  id: string | number;
  input: MemoryPatchInput;
}>;


export type UpdateMemoryMutation = { updateMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null } };

export type DeleteMemoryMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteMemoryMutation = { deleteMemory: { id: string, key: string } };

export type ImportRowLimitQueryVariables = Exact<{ [key: string]: never; }>;


export type ImportRowLimitQuery = { importRowLimit: number };

export type ImportMemoriesMutationVariables = Exact<{
  memories: Array<MemoryInput> | MemoryInput;
  dryRun?: boolean | null | undefined;
}>;


export type ImportMemoriesMutation = { importMemories: { dryRun: boolean, imported: number, updated: number, outsideRetention: number, expired: number, nextPurgeAt: string | null, rejected: Array<{ index: number, key: string | null, reason: string }> } };

export type ForgetApiKeyMutationVariables = Exact<{
  apiKeyId: string;
}>;


export type ForgetApiKeyMutation = { forgetApiKey: { apiKeyId: string, memories: number, archivedOriginals: number, summaries: number, keywordEntries: number, vectors: number, qdrantDeletesQueued: number, retrievals: number, tombstones: number, auditApiKeyId: string, walEmptied: boolean } };

export type CompactMemoriesMutationVariables = Exact<{
  apiKeyId: string;
  olderThanDays?: number | null | undefined;
  dryRun: boolean;
}>;


export type CompactMemoriesMutation = { summarize: { dryRun: boolean, olderThanDays: number, candidateCount: number, tokensBefore: number, tokensAfter: number, tokensSaved: number, refusedReason: string | null, candidates: Array<{ id: string, key: string, content: string, tokens: number, type: MemoryType }>, groups: Array<{ sessionId: string | null, tokensBefore: number, summaryTokens: number, tokensSaved: number, refusedReason: string | null }>, summaries: Array<{ id: string, key: string, sessionId: string | null }> } };

export type RestoreSummaryMutationVariables = Exact<{
  summaryId: string | number;
}>;


export type RestoreSummaryMutation = { restoreSummary: { restored: number, summary: { id: string, key: string } } };

export type ApiKeySuggestionsQueryVariables = Exact<{
  contains?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type ApiKeySuggestionsQuery = { apiKeys: { totalCount: number, items: Array<{ apiKeyId: string, memories: number }> } };

export type ExtractionUsageQueryVariables = Exact<{
  apiKeyId: string;
}>;


export type ExtractionUsageQuery = { memorySettings: { extractionModel: string | null }, extractionModelUsage: { day: string, calls: number, tokensUsed: number, dailyTokens: number } };

export type SessionConversationQueryVariables = Exact<{
  apiKeyId: string;
  sessionId: string;
  offset?: number | null | undefined;
}>;


export type SessionConversationQuery = { memories: { totalCount: number, hasMore: boolean, offset: number, items: Array<{ id: string, key: string, content: string, createdAt: string, status: MemoryStatus, metadata: Record<string, unknown> }> } };

export type RestoreMemoryMutationVariables = Exact<{
  id: string | number;
}>;


export type RestoreMemoryMutation = { restoreMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null } };

export type MemoryHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type MemoryHistoryQuery = { memoryHistory: Array<{ version: number, content: string, type: MemoryType, metadata: Record<string, unknown>, expiresAt: string | null, validFrom: string | null, validTo: string | null, supersededBy: string | null, changedAt: string, changedBy: string, reason: string }> };

export type SupersedingMemoryQueryVariables = Exact<{
  id: string | number;
}>;


export type SupersedingMemoryQuery = { memory: { id: string, key: string, content: string } | null };

export type RevertMemoryMutationVariables = Exact<{
  id: string | number;
  version: number;
}>;


export type RevertMemoryMutation = { revertMemory: { id: string, apiKeyId: string, sessionId: string | null, type: MemoryType, key: string, content: string, metadata: Record<string, unknown>, tokens: number, createdAt: string, updatedAt: string, expiresAt: string | null, accessCount: number, lastAccessedAt: string | null, status: MemoryStatus, archivedBy: string | null, validFrom: string, validTo: string | null, supersededBy: string | null, supersession: { rule: string, sentence: string | null, at: string, supersededBy: { id: string, key: string, content: string } | null } | null } };

export type RetrievePreviewQueryVariables = Exact<{
  input: RetrieveInput;
}>;


export type RetrievePreviewQuery = { retrievePreview: { block: string | null, tokensUsed: number, maxTokens: number, candidates: number, skipped: RetrievalSkip | null, items: Array<{ content: string, truncated: boolean, tier: RetrievalTier, score: number, tokens: number, keywordScore: number | null, keywordRank: number | null, vectorScore: number | null, vectorRank: number | null, adjacentTo: string | null, memory: { id: string, key: string, type: MemoryType, sessionId: string | null } }>, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallback: boolean, fallbackReason: string | null, embeddingSource: string | null, embeddingModel: string | null, embeddingReason: string | null, vectorStore: string | null, reranked: boolean, rerankModel: string | null, rerankReason: string | null, nearDuplicates: number, speaker: RetrievalSpeaker | null, fusion: { keywordShare: number, vectorShare: number, agreement: number | null, margin: number | null, reason: string } | null } } };

export type PlaygroundRecentKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type PlaygroundRecentKeysQuery = { memories: { items: Array<{ apiKeyId: string }> } };

export type ExtractFactsDryRunMutationVariables = Exact<{
  apiKeyId: string;
  text: string;
  role: MessageRole;
}>;


export type ExtractFactsDryRunMutation = { extractFacts: { skipped: ExtractionSkip | null, error: string | null, facts: Array<{ key: string, content: string, type: MemoryType, category: FactCategory, polarity: FactPolarity, source: string }> } };

export type RecentInjectionsQueryVariables = Exact<{
  apiKeyId: string | number;
  after?: string | null | undefined;
}>;


export type RecentInjectionsQuery = { injections: { endCursor: string | null, hasMore: boolean, items: Array<{ id: string, at: string, sessionId: string | null, query: string | null, receipt: { skipped: ReceiptSkip | null, maxTokens: number | null, tokensUsed: number, resolution: { requestedStrategy: RetrievalStrategy, tiers: Array<RetrievalTier>, fallbackReason: string | null } | null, injected: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, tokens: number, truncated: boolean, memory: { id: string, key: string, content: string } | null }>, leftOut: Array<{ memoryId: string, tier: RetrievalTier, rank: number, score: number, reason: LeftOutReason, memory: { id: string, key: string, content: string } | null }> } }> } };

export type SettingsFieldsFragment = { enabled: boolean, maxTokens: number, retentionDays: number, retentionEnabled: boolean, purgeGraceDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean, fusionVectorShare: number | null, profileBudgetPercent: number, userRoleProviders: Array<string>, captureTurns: CaptureTurns, extractionModel: string | null, extractionModelDailyTokens: number, historyVersionsKept: number, mergeParaphrases: boolean, injectionLogDays: number };

export type MemorySettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type MemorySettingsQuery = { memorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, retentionEnabled: boolean, purgeGraceDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean, fusionVectorShare: number | null, profileBudgetPercent: number, userRoleProviders: Array<string>, captureTurns: CaptureTurns, extractionModel: string | null, extractionModelDailyTokens: number, historyVersionsKept: number, mergeParaphrases: boolean, injectionLogDays: number } };

export type UpdateMemorySettingsMutationVariables = Exact<{
  input: MemorySettingsInput;
}>;


export type UpdateMemorySettingsMutation = { updateMemorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, retentionEnabled: boolean, purgeGraceDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean, fusionVectorShare: number | null, profileBudgetPercent: number, userRoleProviders: Array<string>, captureTurns: CaptureTurns, extractionModel: string | null, extractionModelDailyTokens: number, historyVersionsKept: number, mergeParaphrases: boolean, injectionLogDays: number } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { role: TokenRole, apiKeyId: string | null } };


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
export const ReindexJobFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReindexJobFields on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  error
  rate
  etaSeconds
  startedAt
  updatedAt
  finishedAt
}
    `, {"fragmentName":"ReindexJobFields"});
export const ModelProviderFieldsFragmentDoc = new TypedDocumentString(`
    fragment ModelProviderFields on ModelProvider {
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
    `, {"fragmentName":"ModelProviderFields"});
export const ModelTestFieldsFragmentDoc = new TypedDocumentString(`
    fragment ModelTestFields on ModelTestResult {
  kind
  model
  ok
  latencyMs
  answer
  error
}
    `, {"fragmentName":"ModelTestFields"});
export const RecentCallsFieldsFragmentDoc = new TypedDocumentString(`
    fragment RecentCallsFields on RecentCalls {
  windowSeconds
  calls
  failures
  lastError
  lastErrorAt
  lastSuccessAt
}
    `, {"fragmentName":"RecentCallsFields"});
export const QdrantStatusFieldsFragmentDoc = new TypedDocumentString(`
    fragment QdrantStatusFields on QdrantStatus {
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
  calls {
    ...RecentCallsFields
  }
}
    fragment RecentCallsFields on RecentCalls {
  windowSeconds
  calls
  failures
  lastError
  lastErrorAt
  lastSuccessAt
}`, {"fragmentName":"QdrantStatusFields"});
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
    `, {"fragmentName":"QdrantSettingsFields"});
export const EvaluateRunFragmentDoc = new TypedDocumentString(`
    fragment EvaluateRun on EvaluationRun {
  id
  at
  draft
  settings {
    strategy
    maxTokens
    fusionVectorShare
    profileBudgetPercent
    rerankEnabled
    rerankProviderModel
  }
  metrics {
    scored
    expectedGone
    hitAt1
    hitAt5
    hitAt10
    mrr
    meanTokens
    p50Ms
  }
}
    `, {"fragmentName":"EvaluateRun"});
export const EvaluateQuestionFragmentDoc = new TypedDocumentString(`
    fragment EvaluateQuestion on EvaluationQuestion {
  id
  question
  expected {
    id
    key
    content
  }
  gone
}
    `, {"fragmentName":"EvaluateQuestion"});
export const FileImportJobFieldsFragmentDoc = new TypedDocumentString(`
    fragment FileImportJobFields on FileImportJob {
  id
  format
  fileName
  dryRun
  status
  report {
    read
    imported
    updated
    merged
    skipped
    skippedRows {
      at
      reason
    }
    expired
    outsideRetention
    disabled
    versions
    tombstones
    deletedByTombstones
  }
  error {
    code
    message
  }
}
    `, {"fragmentName":"FileImportJobFields"});
export const MemoryRowFieldsFragmentDoc = new TypedDocumentString(`
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}
    `, {"fragmentName":"MemoryRowFields"});
export const SettingsFieldsFragmentDoc = new TypedDocumentString(`
    fragment SettingsFields on MemorySettings {
  enabled
  maxTokens
  retentionDays
  retentionEnabled
  purgeGraceDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
  fusionVectorShare
  profileBudgetPercent
  userRoleProviders
  captureTurns
  extractionModel
  extractionModelDailyTokens
  historyVersionsKept
  mergeParaphrases
  injectionLogDays
}
    `, {"fragmentName":"SettingsFields"});
export const AccessTokensDocument = new TypedDocumentString(`
    query AccessTokens($includeRevoked: Boolean) {
  accessTokens(includeRevoked: $includeRevoked) {
    id
    name
    role
    apiKeyId
    mayForgetKey
    tokenStart
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `);

export const useAccessTokensQuery = <
      TData = AccessTokensQuery,
      TError = unknown
    >(
      variables?: AccessTokensQueryVariables,
      options?: Omit<UseQueryOptions<AccessTokensQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<AccessTokensQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<AccessTokensQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['AccessTokens'] : ['AccessTokens', variables],
    queryFn: fetcher<AccessTokensQuery, AccessTokensQueryVariables>(AccessTokensDocument, variables),
    ...options
  }
    )};

useAccessTokensQuery.getKey = (variables?: AccessTokensQueryVariables) => variables === undefined ? ['AccessTokens'] : ['AccessTokens', variables];


useAccessTokensQuery.fetcher = (variables?: AccessTokensQueryVariables, options?: RequestInit['headers']) => fetcher<AccessTokensQuery, AccessTokensQueryVariables>(AccessTokensDocument, variables, options);

export const CreateAccessTokenDocument = new TypedDocumentString(`
    mutation CreateAccessToken($input: CreateAccessTokenInput!) {
  createAccessToken(input: $input) {
    token
    accessToken {
      id
      name
      role
      apiKeyId
      mayForgetKey
    }
  }
}
    `);

export const useCreateAccessTokenMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<CreateAccessTokenMutation, TError, CreateAccessTokenMutationVariables, TContext>) => {
    
    return useMutation<CreateAccessTokenMutation, TError, CreateAccessTokenMutationVariables, TContext>(
      {
    mutationKey: ['CreateAccessToken'],
    mutationFn: (variables?: CreateAccessTokenMutationVariables) => fetcher<CreateAccessTokenMutation, CreateAccessTokenMutationVariables>(CreateAccessTokenDocument, variables)(),
    ...options
  }
    )};


useCreateAccessTokenMutation.fetcher = (variables: CreateAccessTokenMutationVariables, options?: RequestInit['headers']) => fetcher<CreateAccessTokenMutation, CreateAccessTokenMutationVariables>(CreateAccessTokenDocument, variables, options);

export const RevokeAccessTokenDocument = new TypedDocumentString(`
    mutation RevokeAccessToken($id: ID!) {
  revokeAccessToken(id: $id) {
    id
    revokedAt
  }
}
    `);

export const useRevokeAccessTokenMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RevokeAccessTokenMutation, TError, RevokeAccessTokenMutationVariables, TContext>) => {
    
    return useMutation<RevokeAccessTokenMutation, TError, RevokeAccessTokenMutationVariables, TContext>(
      {
    mutationKey: ['RevokeAccessToken'],
    mutationFn: (variables?: RevokeAccessTokenMutationVariables) => fetcher<RevokeAccessTokenMutation, RevokeAccessTokenMutationVariables>(RevokeAccessTokenDocument, variables)(),
    ...options
  }
    )};


useRevokeAccessTokenMutation.fetcher = (variables: RevokeAccessTokenMutationVariables, options?: RequestInit['headers']) => fetcher<RevokeAccessTokenMutation, RevokeAccessTokenMutationVariables>(RevokeAccessTokenDocument, variables, options);

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
    offset
    items {
      id
      at
      action
      actorId
      actorName
      apiKeyId
      requestId
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
    `);

export const useAuditLogQuery = <
      TData = AuditLogQuery,
      TError = unknown
    >(
      variables?: AuditLogQueryVariables,
      options?: Omit<UseQueryOptions<AuditLogQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<AuditLogQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<AuditLogQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['AuditLog'] : ['AuditLog', variables],
    queryFn: fetcher<AuditLogQuery, AuditLogQueryVariables>(AuditLogDocument, variables),
    ...options
  }
    )};

useAuditLogQuery.getKey = (variables?: AuditLogQueryVariables) => variables === undefined ? ['AuditLog'] : ['AuditLog', variables];


useAuditLogQuery.fetcher = (variables?: AuditLogQueryVariables, options?: RequestInit['headers']) => fetcher<AuditLogQuery, AuditLogQueryVariables>(AuditLogDocument, variables, options);

export const AuditActorsDocument = new TypedDocumentString(`
    query AuditActors {
  accessTokens(includeRevoked: true) {
    id
    name
    tokenStart
  }
}
    `);

export const useAuditActorsQuery = <
      TData = AuditActorsQuery,
      TError = unknown
    >(
      variables?: AuditActorsQueryVariables,
      options?: Omit<UseQueryOptions<AuditActorsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<AuditActorsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<AuditActorsQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['AuditActors'] : ['AuditActors', variables],
    queryFn: fetcher<AuditActorsQuery, AuditActorsQueryVariables>(AuditActorsDocument, variables),
    ...options
  }
    )};

useAuditActorsQuery.getKey = (variables?: AuditActorsQueryVariables) => variables === undefined ? ['AuditActors'] : ['AuditActors', variables];


useAuditActorsQuery.fetcher = (variables?: AuditActorsQueryVariables, options?: RequestInit['headers']) => fetcher<AuditActorsQuery, AuditActorsQueryVariables>(AuditActorsDocument, variables, options);

export const MemoryHealthDocument = new TypedDocumentString(`
    query MemoryHealth {
  memoryHealth {
    store
    ok
    latencyMs
    error
    errorCode
    checkedAt
  }
}
    `);

export const useMemoryHealthQuery = <
      TData = MemoryHealthQuery,
      TError = unknown
    >(
      variables?: MemoryHealthQueryVariables,
      options?: Omit<UseQueryOptions<MemoryHealthQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemoryHealthQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemoryHealthQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemoryHealth'] : ['MemoryHealth', variables],
    queryFn: fetcher<MemoryHealthQuery, MemoryHealthQueryVariables>(MemoryHealthDocument, variables),
    ...options
  }
    )};

useMemoryHealthQuery.getKey = (variables?: MemoryHealthQueryVariables) => variables === undefined ? ['MemoryHealth'] : ['MemoryHealth', variables];


useMemoryHealthQuery.fetcher = (variables?: MemoryHealthQueryVariables, options?: RequestInit['headers']) => fetcher<MemoryHealthQuery, MemoryHealthQueryVariables>(MemoryHealthDocument, variables, options);

export const EngineStatusDocument = new TypedDocumentString(`
    query EngineStatus {
  engineStatus {
    checkedAt
    store {
      kind
      available
      latencyMs
      error
      file
      host
      port
      database
      version
    }
    keyword {
      available
      documents
      latencyMs
      error
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
      calls {
        ...RecentCallsFields
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
      unavailableReason
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
      calls {
        ...RecentCallsFields
      }
    }
    qdrant {
      ...QdrantStatusFields
    }
  }
}
    fragment RecentCallsFields on RecentCalls {
  windowSeconds
  calls
  failures
  lastError
  lastErrorAt
  lastSuccessAt
}
fragment QdrantStatusFields on QdrantStatus {
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
  calls {
    ...RecentCallsFields
  }
}`);

export const useEngineStatusQuery = <
      TData = EngineStatusQuery,
      TError = unknown
    >(
      variables?: EngineStatusQueryVariables,
      options?: Omit<UseQueryOptions<EngineStatusQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EngineStatusQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EngineStatusQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['EngineStatus'] : ['EngineStatus', variables],
    queryFn: fetcher<EngineStatusQuery, EngineStatusQueryVariables>(EngineStatusDocument, variables),
    ...options
  }
    )};

useEngineStatusQuery.getKey = (variables?: EngineStatusQueryVariables) => variables === undefined ? ['EngineStatus'] : ['EngineStatus', variables];


useEngineStatusQuery.fetcher = (variables?: EngineStatusQueryVariables, options?: RequestInit['headers']) => fetcher<EngineStatusQuery, EngineStatusQueryVariables>(EngineStatusDocument, variables, options);

export const LatestReindexJobDocument = new TypedDocumentString(`
    query LatestReindexJob {
  reindexJob {
    ...ReindexJobFields
  }
}
    fragment ReindexJobFields on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  error
  rate
  etaSeconds
  startedAt
  updatedAt
  finishedAt
}`);

export const useLatestReindexJobQuery = <
      TData = LatestReindexJobQuery,
      TError = unknown
    >(
      variables?: LatestReindexJobQueryVariables,
      options?: Omit<UseQueryOptions<LatestReindexJobQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<LatestReindexJobQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<LatestReindexJobQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['LatestReindexJob'] : ['LatestReindexJob', variables],
    queryFn: fetcher<LatestReindexJobQuery, LatestReindexJobQueryVariables>(LatestReindexJobDocument, variables),
    ...options
  }
    )};

useLatestReindexJobQuery.getKey = (variables?: LatestReindexJobQueryVariables) => variables === undefined ? ['LatestReindexJob'] : ['LatestReindexJob', variables];


useLatestReindexJobQuery.fetcher = (variables?: LatestReindexJobQueryVariables, options?: RequestInit['headers']) => fetcher<LatestReindexJobQuery, LatestReindexJobQueryVariables>(LatestReindexJobDocument, variables, options);

export const StartReindexDocument = new TypedDocumentString(`
    mutation StartReindex($force: Boolean) {
  reindex(force: $force) {
    ...ReindexJobFields
  }
}
    fragment ReindexJobFields on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  error
  rate
  etaSeconds
  startedAt
  updatedAt
  finishedAt
}`);

export const useStartReindexMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<StartReindexMutation, TError, StartReindexMutationVariables, TContext>) => {
    
    return useMutation<StartReindexMutation, TError, StartReindexMutationVariables, TContext>(
      {
    mutationKey: ['StartReindex'],
    mutationFn: (variables?: StartReindexMutationVariables) => fetcher<StartReindexMutation, StartReindexMutationVariables>(StartReindexDocument, variables)(),
    ...options
  }
    )};


useStartReindexMutation.fetcher = (variables?: StartReindexMutationVariables, options?: RequestInit['headers']) => fetcher<StartReindexMutation, StartReindexMutationVariables>(StartReindexDocument, variables, options);

export const CancelReindexDocument = new TypedDocumentString(`
    mutation CancelReindex($jobId: ID!) {
  cancelReindex(jobId: $jobId) {
    ...ReindexJobFields
  }
}
    fragment ReindexJobFields on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  error
  rate
  etaSeconds
  startedAt
  updatedAt
  finishedAt
}`);

export const useCancelReindexMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<CancelReindexMutation, TError, CancelReindexMutationVariables, TContext>) => {
    
    return useMutation<CancelReindexMutation, TError, CancelReindexMutationVariables, TContext>(
      {
    mutationKey: ['CancelReindex'],
    mutationFn: (variables?: CancelReindexMutationVariables) => fetcher<CancelReindexMutation, CancelReindexMutationVariables>(CancelReindexDocument, variables)(),
    ...options
  }
    )};


useCancelReindexMutation.fetcher = (variables: CancelReindexMutationVariables, options?: RequestInit['headers']) => fetcher<CancelReindexMutation, CancelReindexMutationVariables>(CancelReindexDocument, variables, options);

export const ReindexProgressDocument = new TypedDocumentString(`
    subscription ReindexProgress($jobId: ID!) {
  reindexProgress(jobId: $jobId) {
    ...ReindexJobFields
  }
}
    fragment ReindexJobFields on ReindexJob {
  id
  status
  force
  total
  processed
  failed
  error
  rate
  etaSeconds
  startedAt
  updatedAt
  finishedAt
}`);
export const EmbeddingProvidersDocument = new TypedDocumentString(`
    query EmbeddingProviders {
  embeddingProviders {
    ...ModelProviderFields
  }
}
    fragment ModelProviderFields on ModelProvider {
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
}`);

export const useEmbeddingProvidersQuery = <
      TData = EmbeddingProvidersQuery,
      TError = unknown
    >(
      variables?: EmbeddingProvidersQueryVariables,
      options?: Omit<UseQueryOptions<EmbeddingProvidersQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EmbeddingProvidersQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EmbeddingProvidersQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['EmbeddingProviders'] : ['EmbeddingProviders', variables],
    queryFn: fetcher<EmbeddingProvidersQuery, EmbeddingProvidersQueryVariables>(EmbeddingProvidersDocument, variables),
    ...options
  }
    )};

useEmbeddingProvidersQuery.getKey = (variables?: EmbeddingProvidersQueryVariables) => variables === undefined ? ['EmbeddingProviders'] : ['EmbeddingProviders', variables];


useEmbeddingProvidersQuery.fetcher = (variables?: EmbeddingProvidersQueryVariables, options?: RequestInit['headers']) => fetcher<EmbeddingProvidersQuery, EmbeddingProvidersQueryVariables>(EmbeddingProvidersDocument, variables, options);

export const UpsertModelProviderDocument = new TypedDocumentString(`
    mutation UpsertModelProvider($input: ModelProviderInput!) {
  upsertModelProvider(input: $input) {
    ...ModelProviderFields
  }
}
    fragment ModelProviderFields on ModelProvider {
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
}`);

export const useUpsertModelProviderMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<UpsertModelProviderMutation, TError, UpsertModelProviderMutationVariables, TContext>) => {
    
    return useMutation<UpsertModelProviderMutation, TError, UpsertModelProviderMutationVariables, TContext>(
      {
    mutationKey: ['UpsertModelProvider'],
    mutationFn: (variables?: UpsertModelProviderMutationVariables) => fetcher<UpsertModelProviderMutation, UpsertModelProviderMutationVariables>(UpsertModelProviderDocument, variables)(),
    ...options
  }
    )};


useUpsertModelProviderMutation.fetcher = (variables: UpsertModelProviderMutationVariables, options?: RequestInit['headers']) => fetcher<UpsertModelProviderMutation, UpsertModelProviderMutationVariables>(UpsertModelProviderDocument, variables, options);

export const DeleteModelProviderDocument = new TypedDocumentString(`
    mutation DeleteModelProvider($id: ID!) {
  deleteModelProvider(id: $id)
}
    `);

export const useDeleteModelProviderMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<DeleteModelProviderMutation, TError, DeleteModelProviderMutationVariables, TContext>) => {
    
    return useMutation<DeleteModelProviderMutation, TError, DeleteModelProviderMutationVariables, TContext>(
      {
    mutationKey: ['DeleteModelProvider'],
    mutationFn: (variables?: DeleteModelProviderMutationVariables) => fetcher<DeleteModelProviderMutation, DeleteModelProviderMutationVariables>(DeleteModelProviderDocument, variables)(),
    ...options
  }
    )};


useDeleteModelProviderMutation.fetcher = (variables: DeleteModelProviderMutationVariables, options?: RequestInit['headers']) => fetcher<DeleteModelProviderMutation, DeleteModelProviderMutationVariables>(DeleteModelProviderDocument, variables, options);

export const TestEngineModelDocument = new TypedDocumentString(`
    mutation TestEngineModel($kind: ModelKind!) {
  testEngineModel(kind: $kind) {
    ...ModelTestFields
  }
}
    fragment ModelTestFields on ModelTestResult {
  kind
  model
  ok
  latencyMs
  answer
  error
}`);

export const useTestEngineModelMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<TestEngineModelMutation, TError, TestEngineModelMutationVariables, TContext>) => {
    
    return useMutation<TestEngineModelMutation, TError, TestEngineModelMutationVariables, TContext>(
      {
    mutationKey: ['TestEngineModel'],
    mutationFn: (variables?: TestEngineModelMutationVariables) => fetcher<TestEngineModelMutation, TestEngineModelMutationVariables>(TestEngineModelDocument, variables)(),
    ...options
  }
    )};


useTestEngineModelMutation.fetcher = (variables: TestEngineModelMutationVariables, options?: RequestInit['headers']) => fetcher<TestEngineModelMutation, TestEngineModelMutationVariables>(TestEngineModelDocument, variables, options);

export const TestModelProviderDocument = new TypedDocumentString(`
    mutation TestModelProvider($id: ID!) {
  testModelProvider(id: $id) {
    ...ModelTestFields
  }
}
    fragment ModelTestFields on ModelTestResult {
  kind
  model
  ok
  latencyMs
  answer
  error
}`);

export const useTestModelProviderMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<TestModelProviderMutation, TError, TestModelProviderMutationVariables, TContext>) => {
    
    return useMutation<TestModelProviderMutation, TError, TestModelProviderMutationVariables, TContext>(
      {
    mutationKey: ['TestModelProvider'],
    mutationFn: (variables?: TestModelProviderMutationVariables) => fetcher<TestModelProviderMutation, TestModelProviderMutationVariables>(TestModelProviderDocument, variables)(),
    ...options
  }
    )};


useTestModelProviderMutation.fetcher = (variables: TestModelProviderMutationVariables, options?: RequestInit['headers']) => fetcher<TestModelProviderMutation, TestModelProviderMutationVariables>(TestModelProviderDocument, variables, options);

export const QdrantSettingsDocument = new TypedDocumentString(`
    query QdrantSettings {
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
}`);

export const useQdrantSettingsQuery = <
      TData = QdrantSettingsQuery,
      TError = unknown
    >(
      variables?: QdrantSettingsQueryVariables,
      options?: Omit<UseQueryOptions<QdrantSettingsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<QdrantSettingsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<QdrantSettingsQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['QdrantSettings'] : ['QdrantSettings', variables],
    queryFn: fetcher<QdrantSettingsQuery, QdrantSettingsQueryVariables>(QdrantSettingsDocument, variables),
    ...options
  }
    )};

useQdrantSettingsQuery.getKey = (variables?: QdrantSettingsQueryVariables) => variables === undefined ? ['QdrantSettings'] : ['QdrantSettings', variables];


useQdrantSettingsQuery.fetcher = (variables?: QdrantSettingsQueryVariables, options?: RequestInit['headers']) => fetcher<QdrantSettingsQuery, QdrantSettingsQueryVariables>(QdrantSettingsDocument, variables, options);

export const UpdateQdrantSettingsDocument = new TypedDocumentString(`
    mutation UpdateQdrantSettings($input: QdrantSettingsInput!) {
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
}`);

export const useUpdateQdrantSettingsMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<UpdateQdrantSettingsMutation, TError, UpdateQdrantSettingsMutationVariables, TContext>) => {
    
    return useMutation<UpdateQdrantSettingsMutation, TError, UpdateQdrantSettingsMutationVariables, TContext>(
      {
    mutationKey: ['UpdateQdrantSettings'],
    mutationFn: (variables?: UpdateQdrantSettingsMutationVariables) => fetcher<UpdateQdrantSettingsMutation, UpdateQdrantSettingsMutationVariables>(UpdateQdrantSettingsDocument, variables)(),
    ...options
  }
    )};


useUpdateQdrantSettingsMutation.fetcher = (variables: UpdateQdrantSettingsMutationVariables, options?: RequestInit['headers']) => fetcher<UpdateQdrantSettingsMutation, UpdateQdrantSettingsMutationVariables>(UpdateQdrantSettingsDocument, variables, options);

export const QdrantHealthDocument = new TypedDocumentString(`
    query QdrantHealth {
  qdrantHealth {
    ready
    latencyMs
    error
  }
}
    `);

export const useQdrantHealthQuery = <
      TData = QdrantHealthQuery,
      TError = unknown
    >(
      variables?: QdrantHealthQueryVariables,
      options?: Omit<UseQueryOptions<QdrantHealthQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<QdrantHealthQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<QdrantHealthQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['QdrantHealth'] : ['QdrantHealth', variables],
    queryFn: fetcher<QdrantHealthQuery, QdrantHealthQueryVariables>(QdrantHealthDocument, variables),
    ...options
  }
    )};

useQdrantHealthQuery.getKey = (variables?: QdrantHealthQueryVariables) => variables === undefined ? ['QdrantHealth'] : ['QdrantHealth', variables];


useQdrantHealthQuery.fetcher = (variables?: QdrantHealthQueryVariables, options?: RequestInit['headers']) => fetcher<QdrantHealthQuery, QdrantHealthQueryVariables>(QdrantHealthDocument, variables, options);

export const QdrantSearchTestDocument = new TypedDocumentString(`
    mutation QdrantSearchTest($apiKeyId: String!, $query: String!, $topK: Int) {
  qdrantSearchTest(apiKeyId: $apiKeyId, query: $query, topK: $topK) {
    latencyMs
    hits {
      score
      memory {
        id
        key
        type
        content
      }
    }
  }
}
    `);

export const useQdrantSearchTestMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<QdrantSearchTestMutation, TError, QdrantSearchTestMutationVariables, TContext>) => {
    
    return useMutation<QdrantSearchTestMutation, TError, QdrantSearchTestMutationVariables, TContext>(
      {
    mutationKey: ['QdrantSearchTest'],
    mutationFn: (variables?: QdrantSearchTestMutationVariables) => fetcher<QdrantSearchTestMutation, QdrantSearchTestMutationVariables>(QdrantSearchTestDocument, variables)(),
    ...options
  }
    )};


useQdrantSearchTestMutation.fetcher = (variables: QdrantSearchTestMutationVariables, options?: RequestInit['headers']) => fetcher<QdrantSearchTestMutation, QdrantSearchTestMutationVariables>(QdrantSearchTestDocument, variables, options);

export const QdrantCleanupDocument = new TypedDocumentString(`
    mutation QdrantCleanup {
  qdrantCleanup
}
    `);

export const useQdrantCleanupMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<QdrantCleanupMutation, TError, QdrantCleanupMutationVariables, TContext>) => {
    
    return useMutation<QdrantCleanupMutation, TError, QdrantCleanupMutationVariables, TContext>(
      {
    mutationKey: ['QdrantCleanup'],
    mutationFn: (variables?: QdrantCleanupMutationVariables) => fetcher<QdrantCleanupMutation, QdrantCleanupMutationVariables>(QdrantCleanupDocument, variables)(),
    ...options
  }
    )};


useQdrantCleanupMutation.fetcher = (variables?: QdrantCleanupMutationVariables, options?: RequestInit['headers']) => fetcher<QdrantCleanupMutation, QdrantCleanupMutationVariables>(QdrantCleanupDocument, variables, options);

export const EvaluateSetsDocument = new TypedDocumentString(`
    query EvaluateSets($apiKeyId: String!) {
  evaluationSets(apiKeyId: $apiKeyId) {
    id
    name
    questionCount
    runCount
    questions {
      ...EvaluateQuestion
    }
  }
}
    fragment EvaluateQuestion on EvaluationQuestion {
  id
  question
  expected {
    id
    key
    content
  }
  gone
}`);

export const useEvaluateSetsQuery = <
      TData = EvaluateSetsQuery,
      TError = unknown
    >(
      variables: EvaluateSetsQueryVariables,
      options?: Omit<UseQueryOptions<EvaluateSetsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EvaluateSetsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EvaluateSetsQuery, TError, TData>(
      {
    queryKey: ['EvaluateSets', variables],
    queryFn: fetcher<EvaluateSetsQuery, EvaluateSetsQueryVariables>(EvaluateSetsDocument, variables),
    ...options
  }
    )};

useEvaluateSetsQuery.getKey = (variables: EvaluateSetsQueryVariables) => ['EvaluateSets', variables];


useEvaluateSetsQuery.fetcher = (variables: EvaluateSetsQueryVariables, options?: RequestInit['headers']) => fetcher<EvaluateSetsQuery, EvaluateSetsQueryVariables>(EvaluateSetsDocument, variables, options);

export const EvaluateRunsDocument = new TypedDocumentString(`
    query EvaluateRuns($apiKeyId: String!, $setId: ID!) {
  evaluationRuns(apiKeyId: $apiKeyId, setId: $setId) {
    ...EvaluateRun
  }
}
    fragment EvaluateRun on EvaluationRun {
  id
  at
  draft
  settings {
    strategy
    maxTokens
    fusionVectorShare
    profileBudgetPercent
    rerankEnabled
    rerankProviderModel
  }
  metrics {
    scored
    expectedGone
    hitAt1
    hitAt5
    hitAt10
    mrr
    meanTokens
    p50Ms
  }
}`);

export const useEvaluateRunsQuery = <
      TData = EvaluateRunsQuery,
      TError = unknown
    >(
      variables: EvaluateRunsQueryVariables,
      options?: Omit<UseQueryOptions<EvaluateRunsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EvaluateRunsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EvaluateRunsQuery, TError, TData>(
      {
    queryKey: ['EvaluateRuns', variables],
    queryFn: fetcher<EvaluateRunsQuery, EvaluateRunsQueryVariables>(EvaluateRunsDocument, variables),
    ...options
  }
    )};

useEvaluateRunsQuery.getKey = (variables: EvaluateRunsQueryVariables) => ['EvaluateRuns', variables];


useEvaluateRunsQuery.fetcher = (variables: EvaluateRunsQueryVariables, options?: RequestInit['headers']) => fetcher<EvaluateRunsQuery, EvaluateRunsQueryVariables>(EvaluateRunsDocument, variables, options);

export const EvaluateCompareRunsDocument = new TypedDocumentString(`
    query EvaluateCompareRuns($apiKeyId: String!, $beforeRunId: ID!, $afterRunId: ID!) {
  compareEvaluationRuns(
    apiKeyId: $apiKeyId
    beforeRunId: $beforeRunId
    afterRunId: $afterRunId
  ) {
    delta {
      hitAt1
      hitAt5
      hitAt10
      mrr
      meanTokens
      p50Ms
    }
    changes {
      questionId
      question
      change
      before
      after
    }
  }
}
    `);

export const useEvaluateCompareRunsQuery = <
      TData = EvaluateCompareRunsQuery,
      TError = unknown
    >(
      variables: EvaluateCompareRunsQueryVariables,
      options?: Omit<UseQueryOptions<EvaluateCompareRunsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EvaluateCompareRunsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EvaluateCompareRunsQuery, TError, TData>(
      {
    queryKey: ['EvaluateCompareRuns', variables],
    queryFn: fetcher<EvaluateCompareRunsQuery, EvaluateCompareRunsQueryVariables>(EvaluateCompareRunsDocument, variables),
    ...options
  }
    )};

useEvaluateCompareRunsQuery.getKey = (variables: EvaluateCompareRunsQueryVariables) => ['EvaluateCompareRuns', variables];


useEvaluateCompareRunsQuery.fetcher = (variables: EvaluateCompareRunsQueryVariables, options?: RequestInit['headers']) => fetcher<EvaluateCompareRunsQuery, EvaluateCompareRunsQueryVariables>(EvaluateCompareRunsDocument, variables, options);

export const EvaluateMemorySearchDocument = new TypedDocumentString(`
    query EvaluateMemorySearch($apiKeyId: String!, $search: String!) {
  memories(apiKeyId: $apiKeyId, search: $search, limit: 8, orderBy: UPDATED_AT) {
    items {
      id
      key
      content
    }
  }
}
    `);

export const useEvaluateMemorySearchQuery = <
      TData = EvaluateMemorySearchQuery,
      TError = unknown
    >(
      variables: EvaluateMemorySearchQueryVariables,
      options?: Omit<UseQueryOptions<EvaluateMemorySearchQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<EvaluateMemorySearchQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<EvaluateMemorySearchQuery, TError, TData>(
      {
    queryKey: ['EvaluateMemorySearch', variables],
    queryFn: fetcher<EvaluateMemorySearchQuery, EvaluateMemorySearchQueryVariables>(EvaluateMemorySearchDocument, variables),
    ...options
  }
    )};

useEvaluateMemorySearchQuery.getKey = (variables: EvaluateMemorySearchQueryVariables) => ['EvaluateMemorySearch', variables];


useEvaluateMemorySearchQuery.fetcher = (variables: EvaluateMemorySearchQueryVariables, options?: RequestInit['headers']) => fetcher<EvaluateMemorySearchQuery, EvaluateMemorySearchQueryVariables>(EvaluateMemorySearchDocument, variables, options);

export const CreateEvaluationSetDocument = new TypedDocumentString(`
    mutation CreateEvaluationSet($apiKeyId: String!, $name: String!) {
  createEvaluationSet(apiKeyId: $apiKeyId, name: $name) {
    id
    name
  }
}
    `);

export const useCreateEvaluationSetMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<CreateEvaluationSetMutation, TError, CreateEvaluationSetMutationVariables, TContext>) => {
    
    return useMutation<CreateEvaluationSetMutation, TError, CreateEvaluationSetMutationVariables, TContext>(
      {
    mutationKey: ['CreateEvaluationSet'],
    mutationFn: (variables?: CreateEvaluationSetMutationVariables) => fetcher<CreateEvaluationSetMutation, CreateEvaluationSetMutationVariables>(CreateEvaluationSetDocument, variables)(),
    ...options
  }
    )};


useCreateEvaluationSetMutation.fetcher = (variables: CreateEvaluationSetMutationVariables, options?: RequestInit['headers']) => fetcher<CreateEvaluationSetMutation, CreateEvaluationSetMutationVariables>(CreateEvaluationSetDocument, variables, options);

export const RenameEvaluationSetDocument = new TypedDocumentString(`
    mutation RenameEvaluationSet($apiKeyId: String!, $setId: ID!, $name: String!) {
  renameEvaluationSet(apiKeyId: $apiKeyId, setId: $setId, name: $name) {
    id
    name
  }
}
    `);

export const useRenameEvaluationSetMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RenameEvaluationSetMutation, TError, RenameEvaluationSetMutationVariables, TContext>) => {
    
    return useMutation<RenameEvaluationSetMutation, TError, RenameEvaluationSetMutationVariables, TContext>(
      {
    mutationKey: ['RenameEvaluationSet'],
    mutationFn: (variables?: RenameEvaluationSetMutationVariables) => fetcher<RenameEvaluationSetMutation, RenameEvaluationSetMutationVariables>(RenameEvaluationSetDocument, variables)(),
    ...options
  }
    )};


useRenameEvaluationSetMutation.fetcher = (variables: RenameEvaluationSetMutationVariables, options?: RequestInit['headers']) => fetcher<RenameEvaluationSetMutation, RenameEvaluationSetMutationVariables>(RenameEvaluationSetDocument, variables, options);

export const DeleteEvaluationSetDocument = new TypedDocumentString(`
    mutation DeleteEvaluationSet($apiKeyId: String!, $setId: ID!) {
  deleteEvaluationSet(apiKeyId: $apiKeyId, setId: $setId) {
    id
  }
}
    `);

export const useDeleteEvaluationSetMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<DeleteEvaluationSetMutation, TError, DeleteEvaluationSetMutationVariables, TContext>) => {
    
    return useMutation<DeleteEvaluationSetMutation, TError, DeleteEvaluationSetMutationVariables, TContext>(
      {
    mutationKey: ['DeleteEvaluationSet'],
    mutationFn: (variables?: DeleteEvaluationSetMutationVariables) => fetcher<DeleteEvaluationSetMutation, DeleteEvaluationSetMutationVariables>(DeleteEvaluationSetDocument, variables)(),
    ...options
  }
    )};


useDeleteEvaluationSetMutation.fetcher = (variables: DeleteEvaluationSetMutationVariables, options?: RequestInit['headers']) => fetcher<DeleteEvaluationSetMutation, DeleteEvaluationSetMutationVariables>(DeleteEvaluationSetDocument, variables, options);

export const AddEvaluationQuestionDocument = new TypedDocumentString(`
    mutation AddEvaluationQuestion($apiKeyId: String!, $setId: ID!, $question: String!, $expected: [String!]!) {
  addEvaluationQuestion(
    apiKeyId: $apiKeyId
    setId: $setId
    question: $question
    expected: $expected
  ) {
    ...EvaluateQuestion
  }
}
    fragment EvaluateQuestion on EvaluationQuestion {
  id
  question
  expected {
    id
    key
    content
  }
  gone
}`);

export const useAddEvaluationQuestionMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<AddEvaluationQuestionMutation, TError, AddEvaluationQuestionMutationVariables, TContext>) => {
    
    return useMutation<AddEvaluationQuestionMutation, TError, AddEvaluationQuestionMutationVariables, TContext>(
      {
    mutationKey: ['AddEvaluationQuestion'],
    mutationFn: (variables?: AddEvaluationQuestionMutationVariables) => fetcher<AddEvaluationQuestionMutation, AddEvaluationQuestionMutationVariables>(AddEvaluationQuestionDocument, variables)(),
    ...options
  }
    )};


useAddEvaluationQuestionMutation.fetcher = (variables: AddEvaluationQuestionMutationVariables, options?: RequestInit['headers']) => fetcher<AddEvaluationQuestionMutation, AddEvaluationQuestionMutationVariables>(AddEvaluationQuestionDocument, variables, options);

export const EditEvaluationQuestionDocument = new TypedDocumentString(`
    mutation EditEvaluationQuestion($apiKeyId: String!, $questionId: ID!, $question: String!, $expected: [String!]!) {
  editEvaluationQuestion(
    apiKeyId: $apiKeyId
    questionId: $questionId
    question: $question
    expected: $expected
  ) {
    ...EvaluateQuestion
  }
}
    fragment EvaluateQuestion on EvaluationQuestion {
  id
  question
  expected {
    id
    key
    content
  }
  gone
}`);

export const useEditEvaluationQuestionMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<EditEvaluationQuestionMutation, TError, EditEvaluationQuestionMutationVariables, TContext>) => {
    
    return useMutation<EditEvaluationQuestionMutation, TError, EditEvaluationQuestionMutationVariables, TContext>(
      {
    mutationKey: ['EditEvaluationQuestion'],
    mutationFn: (variables?: EditEvaluationQuestionMutationVariables) => fetcher<EditEvaluationQuestionMutation, EditEvaluationQuestionMutationVariables>(EditEvaluationQuestionDocument, variables)(),
    ...options
  }
    )};


useEditEvaluationQuestionMutation.fetcher = (variables: EditEvaluationQuestionMutationVariables, options?: RequestInit['headers']) => fetcher<EditEvaluationQuestionMutation, EditEvaluationQuestionMutationVariables>(EditEvaluationQuestionDocument, variables, options);

export const RemoveEvaluationQuestionDocument = new TypedDocumentString(`
    mutation RemoveEvaluationQuestion($apiKeyId: String!, $questionId: ID!) {
  removeEvaluationQuestion(apiKeyId: $apiKeyId, questionId: $questionId) {
    id
  }
}
    `);

export const useRemoveEvaluationQuestionMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RemoveEvaluationQuestionMutation, TError, RemoveEvaluationQuestionMutationVariables, TContext>) => {
    
    return useMutation<RemoveEvaluationQuestionMutation, TError, RemoveEvaluationQuestionMutationVariables, TContext>(
      {
    mutationKey: ['RemoveEvaluationQuestion'],
    mutationFn: (variables?: RemoveEvaluationQuestionMutationVariables) => fetcher<RemoveEvaluationQuestionMutation, RemoveEvaluationQuestionMutationVariables>(RemoveEvaluationQuestionDocument, variables)(),
    ...options
  }
    )};


useRemoveEvaluationQuestionMutation.fetcher = (variables: RemoveEvaluationQuestionMutationVariables, options?: RequestInit['headers']) => fetcher<RemoveEvaluationQuestionMutation, RemoveEvaluationQuestionMutationVariables>(RemoveEvaluationQuestionDocument, variables, options);

export const ImportEvaluationQuestionsDocument = new TypedDocumentString(`
    mutation ImportEvaluationQuestions($apiKeyId: String!, $setId: ID!, $jsonl: String!) {
  importEvaluationQuestions(apiKeyId: $apiKeyId, setId: $setId, jsonl: $jsonl) {
    imported {
      id
    }
    errors {
      line
      message
    }
  }
}
    `);

export const useImportEvaluationQuestionsMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<ImportEvaluationQuestionsMutation, TError, ImportEvaluationQuestionsMutationVariables, TContext>) => {
    
    return useMutation<ImportEvaluationQuestionsMutation, TError, ImportEvaluationQuestionsMutationVariables, TContext>(
      {
    mutationKey: ['ImportEvaluationQuestions'],
    mutationFn: (variables?: ImportEvaluationQuestionsMutationVariables) => fetcher<ImportEvaluationQuestionsMutation, ImportEvaluationQuestionsMutationVariables>(ImportEvaluationQuestionsDocument, variables)(),
    ...options
  }
    )};


useImportEvaluationQuestionsMutation.fetcher = (variables: ImportEvaluationQuestionsMutationVariables, options?: RequestInit['headers']) => fetcher<ImportEvaluationQuestionsMutation, ImportEvaluationQuestionsMutationVariables>(ImportEvaluationQuestionsDocument, variables, options);

export const EvaluateRunProgressDocument = new TypedDocumentString(`
    subscription EvaluateRunProgress($apiKeyId: String!, $setId: ID!, $settingsDraft: EvaluationSettingsDraft) {
  evaluationRunProgress(
    apiKeyId: $apiKeyId
    setId: $setId
    settingsDraft: $settingsDraft
  ) {
    done
    total
    run {
      id
    }
  }
}
    `);
export const StartFileImportDocument = new TypedDocumentString(`
    mutation StartFileImport($file: File!, $format: ImportFormat!, $dryRun: Boolean!, $apiKeyId: String, $keyFrom: Mem0Field, $sessionFrom: Mem0Field) {
  startFileImport(
    file: $file
    format: $format
    dryRun: $dryRun
    apiKeyId: $apiKeyId
    keyFrom: $keyFrom
    sessionFrom: $sessionFrom
  ) {
    ...FileImportJobFields
  }
}
    fragment FileImportJobFields on FileImportJob {
  id
  format
  fileName
  dryRun
  status
  report {
    read
    imported
    updated
    merged
    skipped
    skippedRows {
      at
      reason
    }
    expired
    outsideRetention
    disabled
    versions
    tombstones
    deletedByTombstones
  }
  error {
    code
    message
  }
}`);

export const useStartFileImportMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<StartFileImportMutation, TError, StartFileImportMutationVariables, TContext>) => {
    
    return useMutation<StartFileImportMutation, TError, StartFileImportMutationVariables, TContext>(
      {
    mutationKey: ['StartFileImport'],
    mutationFn: (variables?: StartFileImportMutationVariables) => fetcher<StartFileImportMutation, StartFileImportMutationVariables>(StartFileImportDocument, variables)(),
    ...options
  }
    )};


useStartFileImportMutation.fetcher = (variables: StartFileImportMutationVariables, options?: RequestInit['headers']) => fetcher<StartFileImportMutation, StartFileImportMutationVariables>(StartFileImportDocument, variables, options);

export const FileImportDocument = new TypedDocumentString(`
    query FileImport($id: ID!) {
  fileImport(id: $id) {
    ...FileImportJobFields
  }
}
    fragment FileImportJobFields on FileImportJob {
  id
  format
  fileName
  dryRun
  status
  report {
    read
    imported
    updated
    merged
    skipped
    skippedRows {
      at
      reason
    }
    expired
    outsideRetention
    disabled
    versions
    tombstones
    deletedByTombstones
  }
  error {
    code
    message
  }
}`);

export const useFileImportQuery = <
      TData = FileImportQuery,
      TError = unknown
    >(
      variables: FileImportQueryVariables,
      options?: Omit<UseQueryOptions<FileImportQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<FileImportQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<FileImportQuery, TError, TData>(
      {
    queryKey: ['FileImport', variables],
    queryFn: fetcher<FileImportQuery, FileImportQueryVariables>(FileImportDocument, variables),
    ...options
  }
    )};

useFileImportQuery.getKey = (variables: FileImportQueryVariables) => ['FileImport', variables];


useFileImportQuery.fetcher = (variables: FileImportQueryVariables, options?: RequestInit['headers']) => fetcher<FileImportQuery, FileImportQueryVariables>(FileImportDocument, variables, options);

export const PurgeStatusDocument = new TypedDocumentString(`
    query PurgeStatus {
  memorySettings {
    retentionEnabled
    retentionDays
    purgeGraceDays
  }
  memories(limit: 1) {
    stats {
      totalEntries
      hiddenByExpiry
      hiddenByRetention
      nextPurgeAt
    }
  }
  auditLog(action: MEMORIES_PURGE, limit: 1) {
    totalCount
    items {
      at
      actorName
      target
    }
  }
}
    `);

export const usePurgeStatusQuery = <
      TData = PurgeStatusQuery,
      TError = unknown
    >(
      variables?: PurgeStatusQueryVariables,
      options?: Omit<UseQueryOptions<PurgeStatusQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<PurgeStatusQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<PurgeStatusQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['PurgeStatus'] : ['PurgeStatus', variables],
    queryFn: fetcher<PurgeStatusQuery, PurgeStatusQueryVariables>(PurgeStatusDocument, variables),
    ...options
  }
    )};

usePurgeStatusQuery.getKey = (variables?: PurgeStatusQueryVariables) => variables === undefined ? ['PurgeStatus'] : ['PurgeStatus', variables];


usePurgeStatusQuery.fetcher = (variables?: PurgeStatusQueryVariables, options?: RequestInit['headers']) => fetcher<PurgeStatusQuery, PurgeStatusQueryVariables>(PurgeStatusDocument, variables, options);

export const MemoryListDocument = new TypedDocumentString(`
    query MemoryList($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $includeExpired: Boolean, $includeArchived: Boolean, $includeSuperseded: Boolean, $source: MemorySource, $limit: Int, $offset: Int, $orderBy: MemoryOrderField, $direction: SortDirection) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    includeExpired: $includeExpired
    includeArchived: $includeArchived
    includeSuperseded: $includeSuperseded
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
    searchWords
    items {
      ...MemoryRowFields
    }
  }
}
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}`);

export const useMemoryListQuery = <
      TData = MemoryListQuery,
      TError = unknown
    >(
      variables?: MemoryListQueryVariables,
      options?: Omit<UseQueryOptions<MemoryListQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemoryListQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemoryListQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemoryList'] : ['MemoryList', variables],
    queryFn: fetcher<MemoryListQuery, MemoryListQueryVariables>(MemoryListDocument, variables),
    ...options
  }
    )};

useMemoryListQuery.getKey = (variables?: MemoryListQueryVariables) => variables === undefined ? ['MemoryList'] : ['MemoryList', variables];


useMemoryListQuery.fetcher = (variables?: MemoryListQueryVariables, options?: RequestInit['headers']) => fetcher<MemoryListQuery, MemoryListQueryVariables>(MemoryListDocument, variables, options);

export const MemoryOverviewDocument = new TypedDocumentString(`
    query MemoryOverview($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $includeExpired: Boolean, $includeArchived: Boolean, $includeSuperseded: Boolean, $source: MemorySource) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    includeExpired: $includeExpired
    includeArchived: $includeArchived
    includeSuperseded: $includeSuperseded
    source: $source
    limit: 1
  ) {
    stats {
      totalEntries
      hiddenByRetention
      retentionDays
      tokensUsed
      hitRate
      retrievals
      byType {
        type
        count
      }
      byWeek {
        weekStart
        count
      }
      hiddenByExpiry
      hiddenByRetention
      nextPurgeAt
    }
  }
}
    `);

export const useMemoryOverviewQuery = <
      TData = MemoryOverviewQuery,
      TError = unknown
    >(
      variables?: MemoryOverviewQueryVariables,
      options?: Omit<UseQueryOptions<MemoryOverviewQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemoryOverviewQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemoryOverviewQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemoryOverview'] : ['MemoryOverview', variables],
    queryFn: fetcher<MemoryOverviewQuery, MemoryOverviewQueryVariables>(MemoryOverviewDocument, variables),
    ...options
  }
    )};

useMemoryOverviewQuery.getKey = (variables?: MemoryOverviewQueryVariables) => variables === undefined ? ['MemoryOverview'] : ['MemoryOverview', variables];


useMemoryOverviewQuery.fetcher = (variables?: MemoryOverviewQueryVariables, options?: RequestInit['headers']) => fetcher<MemoryOverviewQuery, MemoryOverviewQueryVariables>(MemoryOverviewDocument, variables, options);

export const ExportMemoriesDocument = new TypedDocumentString(`
    query ExportMemories($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $includeExpired: Boolean, $includeArchived: Boolean, $includeSuperseded: Boolean, $source: MemorySource) {
  exportMemories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    type: $type
    search: $search
    includeExpired: $includeExpired
    includeArchived: $includeArchived
    includeSuperseded: $includeSuperseded
    source: $source
  ) {
    apiKeyId
    sessionId
    type
    key
    content
    metadata
    createdAt
    expiresAt
    validFrom
    validTo
  }
}
    `);

export const useExportMemoriesQuery = <
      TData = ExportMemoriesQuery,
      TError = unknown
    >(
      variables?: ExportMemoriesQueryVariables,
      options?: Omit<UseQueryOptions<ExportMemoriesQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<ExportMemoriesQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<ExportMemoriesQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['ExportMemories'] : ['ExportMemories', variables],
    queryFn: fetcher<ExportMemoriesQuery, ExportMemoriesQueryVariables>(ExportMemoriesDocument, variables),
    ...options
  }
    )};

useExportMemoriesQuery.getKey = (variables?: ExportMemoriesQueryVariables) => variables === undefined ? ['ExportMemories'] : ['ExportMemories', variables];


useExportMemoriesQuery.fetcher = (variables?: ExportMemoriesQueryVariables, options?: RequestInit['headers']) => fetcher<ExportMemoriesQuery, ExportMemoriesQueryVariables>(ExportMemoriesDocument, variables, options);

export const CreateMemoryDocument = new TypedDocumentString(`
    mutation CreateMemory($input: MemoryInput!) {
  createMemory(input: $input) {
    ...MemoryRowFields
  }
}
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}`);

export const useCreateMemoryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<CreateMemoryMutation, TError, CreateMemoryMutationVariables, TContext>) => {
    
    return useMutation<CreateMemoryMutation, TError, CreateMemoryMutationVariables, TContext>(
      {
    mutationKey: ['CreateMemory'],
    mutationFn: (variables?: CreateMemoryMutationVariables) => fetcher<CreateMemoryMutation, CreateMemoryMutationVariables>(CreateMemoryDocument, variables)(),
    ...options
  }
    )};


useCreateMemoryMutation.fetcher = (variables: CreateMemoryMutationVariables, options?: RequestInit['headers']) => fetcher<CreateMemoryMutation, CreateMemoryMutationVariables>(CreateMemoryDocument, variables, options);

export const UpdateMemoryDocument = new TypedDocumentString(`
    mutation UpdateMemory($id: ID!, $input: MemoryPatchInput!) {
  updateMemory(id: $id, input: $input) {
    ...MemoryRowFields
  }
}
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}`);

export const useUpdateMemoryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<UpdateMemoryMutation, TError, UpdateMemoryMutationVariables, TContext>) => {
    
    return useMutation<UpdateMemoryMutation, TError, UpdateMemoryMutationVariables, TContext>(
      {
    mutationKey: ['UpdateMemory'],
    mutationFn: (variables?: UpdateMemoryMutationVariables) => fetcher<UpdateMemoryMutation, UpdateMemoryMutationVariables>(UpdateMemoryDocument, variables)(),
    ...options
  }
    )};


useUpdateMemoryMutation.fetcher = (variables: UpdateMemoryMutationVariables, options?: RequestInit['headers']) => fetcher<UpdateMemoryMutation, UpdateMemoryMutationVariables>(UpdateMemoryDocument, variables, options);

export const DeleteMemoryDocument = new TypedDocumentString(`
    mutation DeleteMemory($id: ID!) {
  deleteMemory(id: $id) {
    id
    key
  }
}
    `);

export const useDeleteMemoryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<DeleteMemoryMutation, TError, DeleteMemoryMutationVariables, TContext>) => {
    
    return useMutation<DeleteMemoryMutation, TError, DeleteMemoryMutationVariables, TContext>(
      {
    mutationKey: ['DeleteMemory'],
    mutationFn: (variables?: DeleteMemoryMutationVariables) => fetcher<DeleteMemoryMutation, DeleteMemoryMutationVariables>(DeleteMemoryDocument, variables)(),
    ...options
  }
    )};


useDeleteMemoryMutation.fetcher = (variables: DeleteMemoryMutationVariables, options?: RequestInit['headers']) => fetcher<DeleteMemoryMutation, DeleteMemoryMutationVariables>(DeleteMemoryDocument, variables, options);

export const ImportRowLimitDocument = new TypedDocumentString(`
    query ImportRowLimit {
  importRowLimit
}
    `);

export const useImportRowLimitQuery = <
      TData = ImportRowLimitQuery,
      TError = unknown
    >(
      variables?: ImportRowLimitQueryVariables,
      options?: Omit<UseQueryOptions<ImportRowLimitQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<ImportRowLimitQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<ImportRowLimitQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['ImportRowLimit'] : ['ImportRowLimit', variables],
    queryFn: fetcher<ImportRowLimitQuery, ImportRowLimitQueryVariables>(ImportRowLimitDocument, variables),
    ...options
  }
    )};

useImportRowLimitQuery.getKey = (variables?: ImportRowLimitQueryVariables) => variables === undefined ? ['ImportRowLimit'] : ['ImportRowLimit', variables];


useImportRowLimitQuery.fetcher = (variables?: ImportRowLimitQueryVariables, options?: RequestInit['headers']) => fetcher<ImportRowLimitQuery, ImportRowLimitQueryVariables>(ImportRowLimitDocument, variables, options);

export const ImportMemoriesDocument = new TypedDocumentString(`
    mutation ImportMemories($memories: [MemoryInput!]!, $dryRun: Boolean) {
  importMemories(memories: $memories, dryRun: $dryRun) {
    dryRun
    imported
    updated
    rejected {
      index
      key
      reason
    }
    outsideRetention
    expired
    nextPurgeAt
  }
}
    `);

export const useImportMemoriesMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<ImportMemoriesMutation, TError, ImportMemoriesMutationVariables, TContext>) => {
    
    return useMutation<ImportMemoriesMutation, TError, ImportMemoriesMutationVariables, TContext>(
      {
    mutationKey: ['ImportMemories'],
    mutationFn: (variables?: ImportMemoriesMutationVariables) => fetcher<ImportMemoriesMutation, ImportMemoriesMutationVariables>(ImportMemoriesDocument, variables)(),
    ...options
  }
    )};


useImportMemoriesMutation.fetcher = (variables: ImportMemoriesMutationVariables, options?: RequestInit['headers']) => fetcher<ImportMemoriesMutation, ImportMemoriesMutationVariables>(ImportMemoriesDocument, variables, options);

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
    tombstones
    auditApiKeyId
    walEmptied
  }
}
    `);

export const useForgetApiKeyMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<ForgetApiKeyMutation, TError, ForgetApiKeyMutationVariables, TContext>) => {
    
    return useMutation<ForgetApiKeyMutation, TError, ForgetApiKeyMutationVariables, TContext>(
      {
    mutationKey: ['ForgetApiKey'],
    mutationFn: (variables?: ForgetApiKeyMutationVariables) => fetcher<ForgetApiKeyMutation, ForgetApiKeyMutationVariables>(ForgetApiKeyDocument, variables)(),
    ...options
  }
    )};


useForgetApiKeyMutation.fetcher = (variables: ForgetApiKeyMutationVariables, options?: RequestInit['headers']) => fetcher<ForgetApiKeyMutation, ForgetApiKeyMutationVariables>(ForgetApiKeyDocument, variables, options);

export const CompactMemoriesDocument = new TypedDocumentString(`
    mutation CompactMemories($apiKeyId: String!, $olderThanDays: Int, $dryRun: Boolean!) {
  summarize(apiKeyId: $apiKeyId, olderThanDays: $olderThanDays, dryRun: $dryRun) {
    dryRun
    olderThanDays
    candidateCount
    tokensBefore
    tokensAfter
    tokensSaved
    refusedReason
    candidates {
      id
      key
      content
      tokens
      type
    }
    groups {
      sessionId
      tokensBefore
      summaryTokens
      tokensSaved
      refusedReason
    }
    summaries {
      id
      key
      sessionId
    }
  }
}
    `);

export const useCompactMemoriesMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<CompactMemoriesMutation, TError, CompactMemoriesMutationVariables, TContext>) => {
    
    return useMutation<CompactMemoriesMutation, TError, CompactMemoriesMutationVariables, TContext>(
      {
    mutationKey: ['CompactMemories'],
    mutationFn: (variables?: CompactMemoriesMutationVariables) => fetcher<CompactMemoriesMutation, CompactMemoriesMutationVariables>(CompactMemoriesDocument, variables)(),
    ...options
  }
    )};


useCompactMemoriesMutation.fetcher = (variables: CompactMemoriesMutationVariables, options?: RequestInit['headers']) => fetcher<CompactMemoriesMutation, CompactMemoriesMutationVariables>(CompactMemoriesDocument, variables, options);

export const RestoreSummaryDocument = new TypedDocumentString(`
    mutation RestoreSummary($summaryId: ID!) {
  restoreSummary(summaryId: $summaryId) {
    restored
    summary {
      id
      key
    }
  }
}
    `);

export const useRestoreSummaryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RestoreSummaryMutation, TError, RestoreSummaryMutationVariables, TContext>) => {
    
    return useMutation<RestoreSummaryMutation, TError, RestoreSummaryMutationVariables, TContext>(
      {
    mutationKey: ['RestoreSummary'],
    mutationFn: (variables?: RestoreSummaryMutationVariables) => fetcher<RestoreSummaryMutation, RestoreSummaryMutationVariables>(RestoreSummaryDocument, variables)(),
    ...options
  }
    )};


useRestoreSummaryMutation.fetcher = (variables: RestoreSummaryMutationVariables, options?: RequestInit['headers']) => fetcher<RestoreSummaryMutation, RestoreSummaryMutationVariables>(RestoreSummaryDocument, variables, options);

export const ApiKeySuggestionsDocument = new TypedDocumentString(`
    query ApiKeySuggestions($contains: String, $limit: Int) {
  apiKeys(contains: $contains, limit: $limit) {
    totalCount
    items {
      apiKeyId
      memories
    }
  }
}
    `);

export const useApiKeySuggestionsQuery = <
      TData = ApiKeySuggestionsQuery,
      TError = unknown
    >(
      variables?: ApiKeySuggestionsQueryVariables,
      options?: Omit<UseQueryOptions<ApiKeySuggestionsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<ApiKeySuggestionsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<ApiKeySuggestionsQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['ApiKeySuggestions'] : ['ApiKeySuggestions', variables],
    queryFn: fetcher<ApiKeySuggestionsQuery, ApiKeySuggestionsQueryVariables>(ApiKeySuggestionsDocument, variables),
    ...options
  }
    )};

useApiKeySuggestionsQuery.getKey = (variables?: ApiKeySuggestionsQueryVariables) => variables === undefined ? ['ApiKeySuggestions'] : ['ApiKeySuggestions', variables];


useApiKeySuggestionsQuery.fetcher = (variables?: ApiKeySuggestionsQueryVariables, options?: RequestInit['headers']) => fetcher<ApiKeySuggestionsQuery, ApiKeySuggestionsQueryVariables>(ApiKeySuggestionsDocument, variables, options);

export const ExtractionUsageDocument = new TypedDocumentString(`
    query ExtractionUsage($apiKeyId: String!) {
  memorySettings {
    extractionModel
  }
  extractionModelUsage(apiKeyId: $apiKeyId) {
    day
    calls
    tokensUsed
    dailyTokens
  }
}
    `);

export const useExtractionUsageQuery = <
      TData = ExtractionUsageQuery,
      TError = unknown
    >(
      variables: ExtractionUsageQueryVariables,
      options?: Omit<UseQueryOptions<ExtractionUsageQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<ExtractionUsageQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<ExtractionUsageQuery, TError, TData>(
      {
    queryKey: ['ExtractionUsage', variables],
    queryFn: fetcher<ExtractionUsageQuery, ExtractionUsageQueryVariables>(ExtractionUsageDocument, variables),
    ...options
  }
    )};

useExtractionUsageQuery.getKey = (variables: ExtractionUsageQueryVariables) => ['ExtractionUsage', variables];


useExtractionUsageQuery.fetcher = (variables: ExtractionUsageQueryVariables, options?: RequestInit['headers']) => fetcher<ExtractionUsageQuery, ExtractionUsageQueryVariables>(ExtractionUsageDocument, variables, options);

export const SessionConversationDocument = new TypedDocumentString(`
    query SessionConversation($apiKeyId: String!, $sessionId: String!, $offset: Int) {
  memories(
    apiKeyId: $apiKeyId
    sessionId: $sessionId
    source: TURNS
    includeExpired: true
    includeArchived: true
    orderBy: CREATED_AT
    direction: ASC
    limit: 200
    offset: $offset
  ) {
    totalCount
    hasMore
    offset
    items {
      id
      key
      content
      createdAt
      status
      metadata
    }
  }
}
    `);

export const useSessionConversationQuery = <
      TData = SessionConversationQuery,
      TError = unknown
    >(
      variables: SessionConversationQueryVariables,
      options?: Omit<UseQueryOptions<SessionConversationQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<SessionConversationQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<SessionConversationQuery, TError, TData>(
      {
    queryKey: ['SessionConversation', variables],
    queryFn: fetcher<SessionConversationQuery, SessionConversationQueryVariables>(SessionConversationDocument, variables),
    ...options
  }
    )};

useSessionConversationQuery.getKey = (variables: SessionConversationQueryVariables) => ['SessionConversation', variables];


useSessionConversationQuery.fetcher = (variables: SessionConversationQueryVariables, options?: RequestInit['headers']) => fetcher<SessionConversationQuery, SessionConversationQueryVariables>(SessionConversationDocument, variables, options);

export const RestoreMemoryDocument = new TypedDocumentString(`
    mutation RestoreMemory($id: ID!) {
  restoreMemory(id: $id) {
    ...MemoryRowFields
  }
}
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}`);

export const useRestoreMemoryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RestoreMemoryMutation, TError, RestoreMemoryMutationVariables, TContext>) => {
    
    return useMutation<RestoreMemoryMutation, TError, RestoreMemoryMutationVariables, TContext>(
      {
    mutationKey: ['RestoreMemory'],
    mutationFn: (variables?: RestoreMemoryMutationVariables) => fetcher<RestoreMemoryMutation, RestoreMemoryMutationVariables>(RestoreMemoryDocument, variables)(),
    ...options
  }
    )};


useRestoreMemoryMutation.fetcher = (variables: RestoreMemoryMutationVariables, options?: RequestInit['headers']) => fetcher<RestoreMemoryMutation, RestoreMemoryMutationVariables>(RestoreMemoryDocument, variables, options);

export const MemoryHistoryDocument = new TypedDocumentString(`
    query MemoryHistory($id: ID!) {
  memoryHistory(id: $id) {
    version
    content
    type
    metadata
    expiresAt
    validFrom
    validTo
    supersededBy
    changedAt
    changedBy
    reason
  }
}
    `);

export const useMemoryHistoryQuery = <
      TData = MemoryHistoryQuery,
      TError = unknown
    >(
      variables: MemoryHistoryQueryVariables,
      options?: Omit<UseQueryOptions<MemoryHistoryQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemoryHistoryQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemoryHistoryQuery, TError, TData>(
      {
    queryKey: ['MemoryHistory', variables],
    queryFn: fetcher<MemoryHistoryQuery, MemoryHistoryQueryVariables>(MemoryHistoryDocument, variables),
    ...options
  }
    )};

useMemoryHistoryQuery.getKey = (variables: MemoryHistoryQueryVariables) => ['MemoryHistory', variables];


useMemoryHistoryQuery.fetcher = (variables: MemoryHistoryQueryVariables, options?: RequestInit['headers']) => fetcher<MemoryHistoryQuery, MemoryHistoryQueryVariables>(MemoryHistoryDocument, variables, options);

export const SupersedingMemoryDocument = new TypedDocumentString(`
    query SupersedingMemory($id: ID!) {
  memory(id: $id) {
    id
    key
    content
  }
}
    `);

export const useSupersedingMemoryQuery = <
      TData = SupersedingMemoryQuery,
      TError = unknown
    >(
      variables: SupersedingMemoryQueryVariables,
      options?: Omit<UseQueryOptions<SupersedingMemoryQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<SupersedingMemoryQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<SupersedingMemoryQuery, TError, TData>(
      {
    queryKey: ['SupersedingMemory', variables],
    queryFn: fetcher<SupersedingMemoryQuery, SupersedingMemoryQueryVariables>(SupersedingMemoryDocument, variables),
    ...options
  }
    )};

useSupersedingMemoryQuery.getKey = (variables: SupersedingMemoryQueryVariables) => ['SupersedingMemory', variables];


useSupersedingMemoryQuery.fetcher = (variables: SupersedingMemoryQueryVariables, options?: RequestInit['headers']) => fetcher<SupersedingMemoryQuery, SupersedingMemoryQueryVariables>(SupersedingMemoryDocument, variables, options);

export const RevertMemoryDocument = new TypedDocumentString(`
    mutation RevertMemory($id: ID!, $version: Int!) {
  revertMemory(id: $id, version: $version) {
    ...MemoryRowFields
  }
}
    fragment MemoryRowFields on Memory {
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
  lastAccessedAt
  status
  archivedBy
  validFrom
  validTo
  supersededBy
  supersession {
    rule
    sentence
    at
    supersededBy {
      id
      key
      content
    }
  }
}`);

export const useRevertMemoryMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<RevertMemoryMutation, TError, RevertMemoryMutationVariables, TContext>) => {
    
    return useMutation<RevertMemoryMutation, TError, RevertMemoryMutationVariables, TContext>(
      {
    mutationKey: ['RevertMemory'],
    mutationFn: (variables?: RevertMemoryMutationVariables) => fetcher<RevertMemoryMutation, RevertMemoryMutationVariables>(RevertMemoryDocument, variables)(),
    ...options
  }
    )};


useRevertMemoryMutation.fetcher = (variables: RevertMemoryMutationVariables, options?: RequestInit['headers']) => fetcher<RevertMemoryMutation, RevertMemoryMutationVariables>(RevertMemoryDocument, variables, options);

export const RetrievePreviewDocument = new TypedDocumentString(`
    query RetrievePreview($input: RetrieveInput!) {
  retrievePreview(input: $input) {
    block
    tokensUsed
    maxTokens
    candidates
    skipped
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
        id
        key
        type
        sessionId
      }
    }
    resolution {
      requestedStrategy
      tiers
      fallback
      fallbackReason
      embeddingSource
      embeddingModel
      embeddingReason
      vectorStore
      fusion {
        keywordShare
        vectorShare
        agreement
        margin
        reason
      }
      reranked
      rerankModel
      rerankReason
      nearDuplicates
      speaker
    }
  }
}
    `);

export const useRetrievePreviewQuery = <
      TData = RetrievePreviewQuery,
      TError = unknown
    >(
      variables: RetrievePreviewQueryVariables,
      options?: Omit<UseQueryOptions<RetrievePreviewQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<RetrievePreviewQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<RetrievePreviewQuery, TError, TData>(
      {
    queryKey: ['RetrievePreview', variables],
    queryFn: fetcher<RetrievePreviewQuery, RetrievePreviewQueryVariables>(RetrievePreviewDocument, variables),
    ...options
  }
    )};

useRetrievePreviewQuery.getKey = (variables: RetrievePreviewQueryVariables) => ['RetrievePreview', variables];


useRetrievePreviewQuery.fetcher = (variables: RetrievePreviewQueryVariables, options?: RequestInit['headers']) => fetcher<RetrievePreviewQuery, RetrievePreviewQueryVariables>(RetrievePreviewDocument, variables, options);

export const PlaygroundRecentKeysDocument = new TypedDocumentString(`
    query PlaygroundRecentKeys {
  memories(limit: 200, orderBy: UPDATED_AT) {
    items {
      apiKeyId
    }
  }
}
    `);

export const usePlaygroundRecentKeysQuery = <
      TData = PlaygroundRecentKeysQuery,
      TError = unknown
    >(
      variables?: PlaygroundRecentKeysQueryVariables,
      options?: Omit<UseQueryOptions<PlaygroundRecentKeysQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<PlaygroundRecentKeysQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<PlaygroundRecentKeysQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['PlaygroundRecentKeys'] : ['PlaygroundRecentKeys', variables],
    queryFn: fetcher<PlaygroundRecentKeysQuery, PlaygroundRecentKeysQueryVariables>(PlaygroundRecentKeysDocument, variables),
    ...options
  }
    )};

usePlaygroundRecentKeysQuery.getKey = (variables?: PlaygroundRecentKeysQueryVariables) => variables === undefined ? ['PlaygroundRecentKeys'] : ['PlaygroundRecentKeys', variables];


usePlaygroundRecentKeysQuery.fetcher = (variables?: PlaygroundRecentKeysQueryVariables, options?: RequestInit['headers']) => fetcher<PlaygroundRecentKeysQuery, PlaygroundRecentKeysQueryVariables>(PlaygroundRecentKeysDocument, variables, options);

export const ExtractFactsDryRunDocument = new TypedDocumentString(`
    mutation ExtractFactsDryRun($apiKeyId: String!, $text: String!, $role: MessageRole!) {
  extractFacts(
    input: {apiKeyId: $apiKeyId, text: $text, role: $role, persist: false}
  ) {
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
  }
}
    `);

export const useExtractFactsDryRunMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<ExtractFactsDryRunMutation, TError, ExtractFactsDryRunMutationVariables, TContext>) => {
    
    return useMutation<ExtractFactsDryRunMutation, TError, ExtractFactsDryRunMutationVariables, TContext>(
      {
    mutationKey: ['ExtractFactsDryRun'],
    mutationFn: (variables?: ExtractFactsDryRunMutationVariables) => fetcher<ExtractFactsDryRunMutation, ExtractFactsDryRunMutationVariables>(ExtractFactsDryRunDocument, variables)(),
    ...options
  }
    )};


useExtractFactsDryRunMutation.fetcher = (variables: ExtractFactsDryRunMutationVariables, options?: RequestInit['headers']) => fetcher<ExtractFactsDryRunMutation, ExtractFactsDryRunMutationVariables>(ExtractFactsDryRunDocument, variables, options);

export const RecentInjectionsDocument = new TypedDocumentString(`
    query RecentInjections($apiKeyId: ID!, $after: String) {
  injections(apiKeyId: $apiKeyId, first: 10, after: $after) {
    endCursor
    hasMore
    items {
      id
      at
      sessionId
      query
      receipt {
        skipped
        maxTokens
        tokensUsed
        resolution {
          requestedStrategy
          tiers
          fallbackReason
        }
        injected {
          memoryId
          tier
          rank
          score
          tokens
          truncated
          memory {
            id
            key
            content
          }
        }
        leftOut {
          memoryId
          tier
          rank
          score
          reason
          memory {
            id
            key
            content
          }
        }
      }
    }
  }
}
    `);

export const useRecentInjectionsQuery = <
      TData = RecentInjectionsQuery,
      TError = unknown
    >(
      variables: RecentInjectionsQueryVariables,
      options?: Omit<UseQueryOptions<RecentInjectionsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<RecentInjectionsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<RecentInjectionsQuery, TError, TData>(
      {
    queryKey: ['RecentInjections', variables],
    queryFn: fetcher<RecentInjectionsQuery, RecentInjectionsQueryVariables>(RecentInjectionsDocument, variables),
    ...options
  }
    )};

useRecentInjectionsQuery.getKey = (variables: RecentInjectionsQueryVariables) => ['RecentInjections', variables];


useRecentInjectionsQuery.fetcher = (variables: RecentInjectionsQueryVariables, options?: RequestInit['headers']) => fetcher<RecentInjectionsQuery, RecentInjectionsQueryVariables>(RecentInjectionsDocument, variables, options);

export const MemorySettingsDocument = new TypedDocumentString(`
    query MemorySettings {
  memorySettings {
    ...SettingsFields
  }
}
    fragment SettingsFields on MemorySettings {
  enabled
  maxTokens
  retentionDays
  retentionEnabled
  purgeGraceDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
  fusionVectorShare
  profileBudgetPercent
  userRoleProviders
  captureTurns
  extractionModel
  extractionModelDailyTokens
  historyVersionsKept
  mergeParaphrases
  injectionLogDays
}`);

export const useMemorySettingsQuery = <
      TData = MemorySettingsQuery,
      TError = unknown
    >(
      variables?: MemorySettingsQueryVariables,
      options?: Omit<UseQueryOptions<MemorySettingsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemorySettingsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemorySettingsQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemorySettings'] : ['MemorySettings', variables],
    queryFn: fetcher<MemorySettingsQuery, MemorySettingsQueryVariables>(MemorySettingsDocument, variables),
    ...options
  }
    )};

useMemorySettingsQuery.getKey = (variables?: MemorySettingsQueryVariables) => variables === undefined ? ['MemorySettings'] : ['MemorySettings', variables];


useMemorySettingsQuery.fetcher = (variables?: MemorySettingsQueryVariables, options?: RequestInit['headers']) => fetcher<MemorySettingsQuery, MemorySettingsQueryVariables>(MemorySettingsDocument, variables, options);

export const UpdateMemorySettingsDocument = new TypedDocumentString(`
    mutation UpdateMemorySettings($input: MemorySettingsInput!) {
  updateMemorySettings(input: $input) {
    ...SettingsFields
  }
}
    fragment SettingsFields on MemorySettings {
  enabled
  maxTokens
  retentionDays
  retentionEnabled
  purgeGraceDays
  strategy
  embeddingSource
  embeddingProviderModel
  transformersEnabled
  staticEnabled
  rerankEnabled
  rerankProviderModel
  vectorStore
  autoSummarize
  fusionVectorShare
  profileBudgetPercent
  userRoleProviders
  captureTurns
  extractionModel
  extractionModelDailyTokens
  historyVersionsKept
  mergeParaphrases
  injectionLogDays
}`);

export const useUpdateMemorySettingsMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<UpdateMemorySettingsMutation, TError, UpdateMemorySettingsMutationVariables, TContext>) => {
    
    return useMutation<UpdateMemorySettingsMutation, TError, UpdateMemorySettingsMutationVariables, TContext>(
      {
    mutationKey: ['UpdateMemorySettings'],
    mutationFn: (variables?: UpdateMemorySettingsMutationVariables) => fetcher<UpdateMemorySettingsMutation, UpdateMemorySettingsMutationVariables>(UpdateMemorySettingsDocument, variables)(),
    ...options
  }
    )};


useUpdateMemorySettingsMutation.fetcher = (variables: UpdateMemorySettingsMutationVariables, options?: RequestInit['headers']) => fetcher<UpdateMemorySettingsMutation, UpdateMemorySettingsMutationVariables>(UpdateMemorySettingsDocument, variables, options);

export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  viewer {
    role
    apiKeyId
  }
}
    `);

export const useViewerQuery = <
      TData = ViewerQuery,
      TError = unknown
    >(
      variables?: ViewerQueryVariables,
      options?: Omit<UseQueryOptions<ViewerQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<ViewerQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<ViewerQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['Viewer'] : ['Viewer', variables],
    queryFn: fetcher<ViewerQuery, ViewerQueryVariables>(ViewerDocument, variables),
    ...options
  }
    )};

useViewerQuery.getKey = (variables?: ViewerQueryVariables) => variables === undefined ? ['Viewer'] : ['Viewer', variables];


useViewerQuery.fetcher = (variables?: ViewerQueryVariables, options?: RequestInit['headers']) => fetcher<ViewerQuery, ViewerQueryVariables>(ViewerDocument, variables, options);
