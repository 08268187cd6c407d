import type { Generated, Insertable, Selectable } from 'kysely';

/** Tables as the migrations create them; the single source of row types. Times are epoch milliseconds. */
export interface Database {
  memories: MemoriesTable;
  retrieval_stats: RetrievalStatsTable;
  settings: SettingsTable;
  access_tokens: AccessTokensTable;
  memories_fts: MemoriesFtsTable;
  memory_counts: MemoryCountsTable;
  memory_vec_meta: MemoryVecMetaTable;
  reindex_jobs: ReindexJobsTable;
  model_providers: ModelProvidersTable;
  qdrant_outbox: QdrantOutboxTable;
  qdrant_outbox_state: QdrantOutboxStateTable;
  summary_rebuilds: SummaryRebuildsTable;
  health_probe: HealthProbeTable;
  audit_log: AuditLogTable;
  store_copy: StoreCopyTable;
  store_copy_progress: StoreCopyProgressTable;
  leases: LeasesTable;
  config_version: ConfigVersionTable;
  extraction_model_usage: ExtractionModelUsageTable;
  supersessions: SupersessionsTable;
  memory_versions: MemoryVersionsTable;
  injection_log: InjectionLogTable;
  tombstones: TombstonesTable;
  evaluation_sets: EvaluationSetsTable;
  evaluation_questions: EvaluationQuestionsTable;
  evaluation_runs: EvaluationRunsTable;
  memory_fact_signatures: MemoryFactSignaturesTable;
  keyword_changes: KeywordChangesTable;
  keyword_changes_pruned: KeywordChangesPrunedTable;
  keyword_changes_forgets: KeywordChangesForgetsTable;
}

/** PostgreSQL only: the SQLite installation that `mnemo copy-store` copied (or is copying) into this database. */
export interface StoreCopyTable {
  id: number;
  /** What identifies the source installation across runs (server/copyStore/copyStore.ts, sourceIdentity). */
  source_id: string;
  /** The source's database file, for messages. */
  source: string;
  started_at: number;
  finished_at: number | null;
}

/** PostgreSQL only: per copied table, the last source key whose row is in this database, JSON-encoded. */
export interface StoreCopyProgressTable {
  table_name: string;
  last_key: string | null;
  copied: Generated<number>;
}

/** A background duty held by one process until expires_at (migration 017); renewed while the process lives. */
export interface LeasesTable {
  name: string;
  /** The holder's instance id (server/processInstance.ts). */
  owner: string;
  expires_at: number;
}

/** One row, bumped by triggers at every write of settings or model_providers (migration 017). */
export interface ConfigVersionTable {
  id: number;
  version: number;
}

/** memoryHealth's scratch rows: written, committed, deleted and committed again by each probe. */
export interface HealthProbeTable {
  id: Generated<number>;
  written_at: number;
}

/** One admin-level action (migration 013): append-only, deleted only by retention. JSON in target and changes. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** A token id, 'env' (MNEMO_ADMIN_TOKEN), 'cli' or 'system'. */
  actor_id: string;
  actor_name: string;
  request_id: string | null;
  action: string;
  api_key_id: string | null;
  target: string | null;
  changes: string | null;
  /** OK, or the error code the action ended with. */
  outcome: string;
}

/** Summaries whose originals were deleted or brought back, queued by triggers; rebuilt in the same transaction. */
export interface SummaryRebuildsTable {
  summary_id: string;
}

/** One row: whether changes are queued for Qdrant (vectorStore is QDRANT); read by the outbox triggers. */
export interface QdrantOutboxStateTable {
  id: number;
  enabled: number;
}

export interface QdrantOutboxTable {
  pk: number;
  op: 'upsert' | 'delete';
  enqueued_at: number;
}

export interface MemoryVecMetaTable {
  id: number;
  signature: string | null;
  source: string | null;
  model: string | null;
  dimension: number | null;
  quantization: string;
  last_reset_at: number | null;
}

export const REINDEX_JOB_STATES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type ReindexJobStatus = (typeof REINDEX_JOB_STATES)[number];

export interface ReindexJobsTable {
  id: string;
  status: ReindexJobStatus;
  force: number;
  signature: string | null;
  total: Generated<number>;
  processed: Generated<number>;
  failed: Generated<number>;
  last_pk: Generated<number>;
  error: string | null;
  started_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The instance id of the process running the job; null for jobs from before migration 012. */
  owner: string | null;
}

export interface ModelProvidersTable {
  id: string;
  base_url: string;
  api_key: string | null;
  /** 1: the endpoint needs no API key (a local server); it is called without an Authorization header. */
  keyless: Generated<number>;
  /** JSON array of { name, kind: 'embedding' | 'rerank', dimension?, maxInputTokens? }. */
  models: string;
  updated_at: number;
}

/** Rows of memories per key (all of them, archived and expired too), kept by triggers: the key's N in BM25. */
export interface MemoryCountsTable {
  api_key_id: string;
  memories: number;
}

/** The FTS5 index over memories (contentless, filled by triggers); only ever read. */
export interface MemoriesFtsTable {
  rowid: number;
  /** The hidden column named after the table, the left side of MATCH. */
  memories_fts: string;
  content: string;
  key: string;
  tenant_content: string;
  tenant_key: string;
}

export interface MemoriesTable {
  pk: Generated<number>;
  id: string;
  api_key_id: string;
  session_id: string | null;
  type: MemoryTypeValue;
  key: string;
  content: string;
  metadata: string;
  tokens: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  needs_reindex: Generated<number>;
  access_count: Generated<number>;
  last_accessed_at: number | null;
  /** The id of the summary memory that archived this one, or null. */
  archived_by: string | null;
  /** When the fact started to hold (migration 021): when it was said, by default when it was written. */
  valid_from: number;
  /** When it stopped holding; null while it is current. */
  valid_to: Generated<number | null>;
  /** The id of the memory that replaced it, or null. */
  superseded_by: Generated<string | null>;
  /** How many times the fact was stated: 1, and one more for each paraphrase merged into it (migration 020). */
  mentions: Generated<number>;
  /** When it was last stated, a merged paraphrase included; null until the first merge. */
  last_seen_at: number | null;
  /**
   * The hashes of its fact signatures as a JSON array (migration 029, factIndex.ts), which triggers copy into
   * memory_fact_signatures; null for a text that has none (a captured turn, a text of fewer than two content words).
   */
  fact_signatures: Generated<string | null>;
}

/** A memory replaced by a newer one (migration 021): why, and whether it was undone. Erased with either memory. */
export interface SupersessionsTable {
  id: Generated<number>;
  api_key_id: string;
  /** The memory that stopped holding, and the one that replaced it. */
  old_id: string;
  new_id: string;
  /** What decided it: "caller" (createMemory's supersedes), or the extraction rule that found it. */
  rule: string;
  /** The sentence that triggered it, when it came from a message. */
  sentence: string | null;
  /** The old memory's valid_to. */
  valid_to: number;
  recorded_at: number;
  /** When restoreMemory undid it; the record stays, as the audit log's entries do. */
  undone_at: number | null;
}

/**
 * A version a change of its memory replaced (migration 020): the memory's content, type, metadata and expiry as they
 * were, and when, by whom and why they changed. Written by a trigger only; deleted with the memory.
 */
export interface MemoryVersionsTable {
  id: Generated<number>;
  memory_pk: number;
  /** From 1, per memory; the memory itself is the version after the last one kept. */
  version: number;
  content: string;
  type: MemoryTypeValue;
  metadata: string;
  expires_at: number | null;
  /** The validity the memory had (migration 026): all three null on versions kept before it was recorded. */
  valid_from: number | null;
  valid_to: number | null;
  superseded_by: string | null;
  changed_at: number;
  changed_by: string;
  reason: string;
}

/**
 * A deleted memory (migration 027): which, whose, when and by whom or what; its key only as a sha256 digest, never its
 * text. The newest TOMBSTONES_KEPT of a key are kept; erased with the key by forgetApiKey.
 */
export interface TombstonesTable {
  id: Generated<number>;
  api_key_id: string;
  session_id: string | null;
  memory_id: string;
  /** sha256 of the memory's key, hex. */
  key_digest: string;
  deleted_at: number;
  /** A token's id, 'admin', 'purge' (expired) or 'retention' (left the retention window). */
  deleted_by: string;
}

/**
 * The fact index (migration 029): per memory, the hashes of its fact signatures (memories.fact_signatures, factIndex.ts),
 * by which a restatement's candidates are found in one probe. Filled by triggers from that column; deleted with the
 * memory.
 */
export interface MemoryFactSignaturesTable {
  signature: number;
  memory_pk: number;
}

/**
 * The keyword index's change feed (SQLite migration 030, PostgreSQL migration 020), a row per change of a memory's
 * indexed text, written by triggers; read by the in-memory postings of server/db/sqlite/keywordIndex.ts and
 * server/db/postgres/keywordIndex.ts.
 */
export interface KeywordChangesTable {
  seq: Generated<number>;
  api_key_id: string;
  memory_pk: number;
}

/** PostgreSQL only (migration 020): per key, the last of its feed's rows that were pruned. */
export interface KeywordChangesPrunedTable {
  api_key_id: string;
  upto: number;
}

/** PostgreSQL only (migration 020): one row, the keys forgotten so far, which makes every process build its postings anew. */
export interface KeywordChangesForgetsTable {
  forgets: number;
}

export type MemoryTypeValue = 'factual' | 'episodic' | 'procedural' | 'semantic' | 'enforced';

export interface RetrievalStatsTable {
  api_key_id: string;
  retrievals: Generated<number>;
  hits: Generated<number>;
}

/** Tokens the extraction model used for one API key on one UTC day (migration 018), against its daily budget. */
export interface ExtractionModelUsageTable {
  api_key_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  tokens: number;
  calls: number;
}

/** One injectMemory's receipt, while the injectionLogDays setting keeps them (server/retrieval/injectionLog.service.ts). */
export interface InjectionLogTable {
  /** Increasing: the page cursor, and the order of the key's entries. */
  id: Generated<number>;
  api_key_id: string;
  session_id: string | null;
  created_at: number;
  /** The query the memories were ranked for, cut to LIMITS.injectionLogQueryChars. */
  query: string | null;
  /** The receipt as JSON (retrieval/receiptRecord.ts): memory ids, decisions and scores, never a memory's text. */
  receipt: string;
}

export interface SettingsTable {
  name: string;
  value: string;
  updated_at: number;
}

export interface AccessTokensTable {
  id: string;
  name: string;
  role: 'admin' | 'gateway';
  token_hash: string;
  api_key_id: string | null;
  /** 1: a token bound to api_key_id that may erase that key (forgetApiKey); set by the admin when minting. */
  may_forget_key: Generated<number>;
  /** The secret's first characters ("mnemo_" and 4 more), to tell tokens apart; null for tokens minted before 016. */
  token_start: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export type MemoryRow = Selectable<MemoriesTable>;
export type NewMemoryRow = Insertable<MemoriesTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type SupersessionRow = Selectable<SupersessionsTable>;
export type MemoryVersionRow = Selectable<MemoryVersionsTable>;

/** A named set of labelled questions of one API key (server/evaluation). */
export interface EvaluationSetsTable {
  id: Generated<number>;
  api_key_id: string;
  /** Unique per key. */
  name: string;
  created_at: number;
}

/** A question of a set and the memories that should be found for it. */
export interface EvaluationQuestionsTable {
  /** Increasing: the order of the set's questions. */
  id: Generated<number>;
  set_id: number;
  question: string;
  /** The expected memories' ids as a JSON array. */
  expected: string;
  created_at: number;
}

/** One run of a set: what was asked with which settings, and each question's result. */
export interface EvaluationRunsTable {
  id: Generated<number>;
  set_id: number;
  created_at: number;
  /** JSON: the retrieval settings the run used, and the draft they came from (null: the saved settings). */
  settings: string;
  /** JSON: each question's result (evaluation/evaluation.ts, QuestionResult). */
  results: string;
}
