/** GraphQL documents the tests share, written as a gateway or the admin app would send them. */
export const MEMORY_FIELDS = `id apiKeyId sessionId type key content metadata tokens createdAt updatedAt expiresAt accessCount pendingReindex status`;

export const CREATE_MEMORY = `mutation Create($input: MemoryInput!) { createMemory(input: $input) { ${MEMORY_FIELDS} } }`;
export const UPDATE_MEMORY = `mutation Update($id: ID!, $input: MemoryPatchInput!) { updateMemory(id: $id, input: $input) { ${MEMORY_FIELDS} } }`;
export const DELETE_MEMORY = `mutation Delete($id: ID!) { deleteMemory(id: $id) { id } }`;
export const GET_MEMORY = `query Get($id: ID!) { memory(id: $id) { ${MEMORY_FIELDS} } }`;
export const LIST_MEMORIES = `query List($apiKeyId: String, $sessionId: String, $type: MemoryType, $search: String, $createdAfter: DateTime,
  $createdBefore: DateTime, $includeExpired: Boolean, $limit: Int, $offset: Int, $orderBy: MemoryOrderField, $direction: SortDirection) {
  memories(apiKeyId: $apiKeyId, sessionId: $sessionId, type: $type, search: $search, createdAfter: $createdAfter,
    createdBefore: $createdBefore, includeExpired: $includeExpired, limit: $limit, offset: $offset, orderBy: $orderBy, direction: $direction) {
    totalCount limit offset hasMore items { ${MEMORY_FIELDS} }
  }
}`;
export const MEMORY_STATS = `query Stats($apiKeyId: String) { memories(apiKeyId: $apiKeyId, limit: 1) { stats { totalEntries tokensUsed hitRate retrievals byType { type count } } } }`;
export const EXPORT_MEMORIES = `query Export($apiKeyId: String, $includeExpired: Boolean) { exportMemories(apiKeyId: $apiKeyId, includeExpired: $includeExpired) { ${MEMORY_FIELDS} } }`;
export const CLEAR_MEMORIES = `mutation Clear($apiKeyId: String!, $type: MemoryType, $createdBefore: DateTime) { clearMemories(apiKeyId: $apiKeyId, type: $type, createdBefore: $createdBefore) }`;
export const IMPORT_MEMORIES = `mutation Import($memories: [MemoryInput!]!) { importMemories(memories: $memories) { imported updated rejected { index key reason } } }`;
export const SETTINGS_FIELDS = `enabled maxTokens retentionDays strategy embeddingSource embeddingProviderModel transformersEnabled staticEnabled rerankEnabled rerankProviderModel vectorStore autoSummarize`;
export const GET_SETTINGS = `{ memorySettings { ${SETTINGS_FIELDS} } }`;
export const UPDATE_SETTINGS = `mutation Settings($input: MemorySettingsInput!) { updateMemorySettings(input: $input) { ${SETTINGS_FIELDS} } }`;
export const LIST_TOKENS = `query Tokens($includeRevoked: Boolean) { accessTokens(includeRevoked: $includeRevoked) { id name role apiKeyId revokedAt } }`;
export const CREATE_TOKEN = `mutation Mint($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { token accessToken { id name role apiKeyId } } }`;
export const REVOKE_TOKEN = `mutation Revoke($id: ID!) { revokeAccessToken(id: $id) { id revokedAt } }`;
