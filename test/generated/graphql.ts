/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
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

export type RetrievalStrategy =
  | 'EXACT'
  | 'HYBRID'
  | 'SEMANTIC';

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