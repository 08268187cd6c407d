/**
 * The operations the tests share: typed documents generated from operations.graphql (`npm run codegen`), under the
 * names the tests use. The test app's ok() and gql() return their result types.
 */
export type {
  MemoryInput,
  MemorySettingsInput,
  RetrieveInput,
  TestRetrievalFragment,
} from '../generated/graphql.ts';

export {
  ClearMemoriesDocument as CLEAR_MEMORIES,
  CreateMemoryDocument as CREATE_MEMORY,
  CreateTokenDocument as CREATE_TOKEN,
  DeleteMemoryDocument as DELETE_MEMORY,
  ExportMemoriesDocument as EXPORT_MEMORIES,
  ExtractFactsDocument as EXTRACT_FACTS,
  GetMemoryDocument as GET_MEMORY,
  GetSettingsDocument as GET_SETTINGS,
  ImportMemoriesDocument as IMPORT_MEMORIES,
  ListMemoriesDocument as LIST_MEMORIES,
  ListTokensDocument as LIST_TOKENS,
  MemoryStatsDocument as MEMORY_STATS,
  QdrantWaitingDocument as QDRANT_WAITING,
  ReindexJobDocument as REINDEX_JOB,
  ReindexProgressDocument as REINDEX_PROGRESS,
  RestoreSummaryDocument as RESTORE_SUMMARY,
  RetrieveDocument as RETRIEVE,
  RetrievePreviewDocument as RETRIEVE_PREVIEW,
  RevokeTokenDocument as REVOKE_TOKEN,
  StartReindexDocument as START_REINDEX,
  SummarizeDocument as SUMMARIZE,
  UpdateMemoryDocument as UPDATE_MEMORY,
  UpdateQdrantDocument as UPDATE_QDRANT,
  UpdateSettingsDocument as UPDATE_SETTINGS,
  UpsertProviderDocument as UPSERT_PROVIDER,
} from '../generated/graphql.ts';
