import { sql } from 'kysely';
import type { Db } from './open.ts';
import type { StoreKind } from './storeDialect.ts';

/**
 * The write path: what the database does by itself, in the same transaction, when a memory is written. Every
 * trigger is listed here (a test checks this list against the database), with the migration that creates it;
 * the vector triggers are created here, at run time, because the vec0 table they keep in step is built for the
 * model in use (see SqliteVecIndex.prepare).
 *
 * One more write rides along without a trigger (vec0 tables cannot have any): storing a memory's vector queues
 * it for Qdrant in the same statement batch (vector/sqliteVec.repository.ts, upsertVectors), under the same flag
 * as the outbox triggers. So the database owns the Qdrant outbox: every change that Qdrant must follow is queued
 * in the transaction that makes it, and a reindex backfill queues every local vector at once.
 */
export const TRIGGERS: readonly {
  name: string;
  fires: string;
  does: string;
  createdBy: string;
  /** The stores that have it; both when absent. PostgreSQL's are PL/pgSQL, of the same names (migrations/postgres). */
  stores?: readonly StoreKind[];
}[] = [
  {
    name: 'memories_fts_insert',
    fires: 'after insert on memories',
    does: "adds the memory's words to the keyword index: memories_fts (SQLite: as they are and prefixed with its key's tenant terms), memory_search, memory_postings and its key's memory_search_stats (PostgreSQL: once per statement, each key's stats row updated once)",
    createdBy: 'migration 009; PostgreSQL: its migration 002, bodies replaced by 005 (postings)',
  },
  {
    name: 'memories_fts_delete',
    fires: 'after delete on memories',
    does: "removes its words from the keyword index (SQLite: from the index's segments too, secure-delete: no deleted term stays in the file; PostgreSQL: once per statement, as on insert)",
    createdBy: 'migration 009; PostgreSQL: its migration 002, bodies replaced by 005 (postings)',
  },
  {
    name: 'memories_fts_update',
    fires: 'after update of content, key or api_key_id, when one really changed',
    does: 're-indexes it (the old words removed as on delete): counters, flags and metadata never touch the keyword index',
    createdBy: 'migration 009; PostgreSQL: its migration 002, bodies replaced by 005 (postings)',
  },
  {
    name: 'keyword_changes_insert',
    fires: 'after insert on memories',
    does: "names the memory and its key in keyword_changes, the feed by which every process's in-memory postings follow the keyword index (db/sqlite/keywordIndex.ts, db/postgres/keywordIndex.ts; PostgreSQL: once per statement, after a lock on each key it names, and pruning the feed to its newest 100,000 rows once in a thousand, each key's last pruned row kept in keyword_changes_pruned)",
    createdBy: 'migration 030; PostgreSQL: its migration 020',
  },
  {
    name: 'keyword_changes_delete',
    fires: 'after delete on memories',
    does: 'names it in keyword_changes, as on insert',
    createdBy: 'migration 030; PostgreSQL: its migration 020',
  },
  {
    name: 'keyword_changes_update',
    fires: 'after update of content, key or api_key_id, when one really changed',
    does: 'names it in keyword_changes, under its old key too when the key changed',
    createdBy: 'migration 030; PostgreSQL: its migration 020',
  },
  {
    name: 'keyword_changes_prune',
    fires: 'after insert on keyword_changes, once in a thousand rows',
    does: 'deletes the changes older than the newest 100,000: a process further behind builds its postings anew',
    createdBy: 'migration 030',
    stores: ['sqlite'],
  },
  {
    name: 'memory_counts_insert',
    fires: 'after insert on memories',
    does: "counts the row in memory_counts, its key's N for BM25 (PostgreSQL: once per statement, each key's row updated once)",
    createdBy: 'migration 004; PostgreSQL: its migration 001',
  },
  {
    name: 'memory_counts_delete',
    fires: 'after delete on memories',
    does: 'counts it out (PostgreSQL: once per statement, as on insert)',
    createdBy: 'migration 004; PostgreSQL: its migration 001',
  },
  {
    name: 'memory_counts_move',
    fires: 'after update of api_key_id, when it changed',
    does: 'moves the count to the new key',
    createdBy: 'migration 004; PostgreSQL: its migration 001',
  },
  {
    name: 'qdrant_outbox_delete',
    fires: 'after delete on memories, while qdrant_outbox_state.enabled',
    does: "queues the point's removal from Qdrant",
    createdBy: 'migration 008; PostgreSQL: its migration 001',
  },
  {
    name: 'qdrant_outbox_update',
    fires:
      'after update of content or a filter field (type, session, expiry, updated_at, archiving, validity), while qdrant_outbox_state.enabled',
    does: 'queues a removal (new content: the stored point is wrong until the new vector is ready) or a rewrite of the point',
    createdBy: 'migration 008, validity added by 021; PostgreSQL: its migration 001, validity added by 009',
  },
  {
    name: 'summary_rebuild_on_delete',
    fires: 'after delete of an archived memory',
    does: 'queues its summary in summary_rebuilds; the write that did it rebuilds the summary (memory/coveringSummaries.ts)',
    createdBy: 'migration 006; PostgreSQL: its migration 001',
  },
  {
    name: 'summary_rebuild_on_unarchive',
    fires: 'after update of archived_by, when an archived memory comes back',
    does: 'queues its former summary the same way',
    createdBy: 'migration 006; PostgreSQL: its migration 001',
  },
  {
    name: 'summary_delete_restores',
    fires: 'after delete of a summary',
    does: 'brings back the originals it archived',
    createdBy: 'migration 006; PostgreSQL: its migration 001',
  },
  {
    name: 'memory_links_on_delete',
    fires: 'after delete of a memory that links a captured turn and its facts (metadata.facts or metadata.sourceTurn)',
    does: "clears its facts' sourceTurn, or takes it out of its turn's facts list, within its API key: no link points at nothing",
    createdBy: 'migration 018; PostgreSQL: its migration 006',
  },
  {
    name: 'memory_versions_keep',
    fires:
      'after update of content, type, metadata, expiry or validity (valid_from, valid_to, superseded_by), when one really changed (metadata compared key by key)',
    does: "keeps the version it replaced in memory_versions, its validity included, with who and why from the transaction's change context (memory/change.ts, changing; 'superseding memory deleted' when memory_supersession_on_delete hands it back or on), and prunes the memory's versions beyond historyVersionsKept; counters, flags and archiving never make a version, and a memory's versions go with it (on delete cascade)",
    createdBy: 'migration 020, validity added by 026; PostgreSQL: its migration 008, validity added by 014',
  },
  {
    name: 'memory_supersession_on_delete',
    fires: 'after delete on memories',
    does: 'deletes the supersessions on either side of it (their sentences with them), within its API key, and hands the memories it superseded back as current, or on to the memory that superseded it: none stays hidden by a memory that is gone',
    createdBy: 'migration 021; PostgreSQL: its migration 009',
  },
  {
    name: 'memory_fact_signatures_insert',
    fires: 'after insert on memories, when it has fact signatures',
    does: "copies the hashes of its fact signatures (memories.fact_signatures, written by the server: memory/factIndex.ts) into memory_fact_signatures, the index a restatement's candidates are probed in (PostgreSQL: once per statement)",
    createdBy: 'migration 029; PostgreSQL: its migration 018',
  },
  {
    name: 'memory_fact_signatures_update',
    fires: 'after update of fact_signatures, when they changed',
    does: 'replaces its rows in memory_fact_signatures: an edit, a merge that keeps the new wording or a revert is found by what it says now',
    createdBy: 'migration 029; PostgreSQL: its migration 018',
  },
  {
    name: 'memory_fact_signatures_delete',
    fires: 'after delete on memories, when it had fact signatures',
    does: 'deletes its rows in memory_fact_signatures: an erased memory leaves nothing in the index (PostgreSQL: once per statement)',
    createdBy: 'migration 029; PostgreSQL: its migration 018',
  },
  {
    name: 'memory_vec_delete',
    fires: 'after delete on memories',
    does: 'deletes its vector: a deleted memory never leaves one behind',
    createdBy: 'createVectorTriggers, with the vec0 table',
    // sqlite-vec: on PostgreSQL vectors live in Qdrant only.
    stores: ['sqlite'],
  },
  {
    name: 'memory_vec_stale',
    fires: 'after update of content, when it changed',
    does: 'deletes the vector of the old text (needs_reindex is set by the write itself)',
    createdBy: 'createVectorTriggers, with the vec0 table',
    // sqlite-vec, as above.
    stores: ['sqlite'],
  },
  {
    name: 'memory_vec_filters',
    fires: 'after update of type, session, expiry, updated_at, archiving or validity (valid_to), content unchanged',
    does: "copies the filter fields into the vector's metadata columns, so a search filters by them at once",
    createdBy: 'createVectorTriggers, with the vec0 table (migration 021 recreates it on a table built before)',
    // sqlite-vec, as above.
    stores: ['sqlite'],
  },
  {
    name: 'audit_log_append_only',
    fires: 'before update of any column but api_key_id on audit_log',
    does: 'refuses it: an audit entry is never rewritten',
    createdBy: 'migration 013; PostgreSQL: its migration 001',
  },
  {
    name: 'audit_log_forget_key',
    fires: 'before update of api_key_id on audit_log',
    does: "refuses it unless the key's id gives way to a 'forgotten:' pseudonym (forgetApiKey)",
    createdBy: 'migration 013',
    // PostgreSQL's audit_log_append_only makes this check too (one trigger function there).
    stores: ['sqlite'],
  },
  {
    name: 'audit_log_retention_floor',
    fires: 'before delete of an audit entry younger than 30 days',
    does: 'refuses it: only retention (30 days at least) removes entries',
    createdBy: 'migration 013; PostgreSQL: its migration 001',
  },
  ...(['settings', 'model_providers'] as const).flatMap((table) =>
    (['insert', 'update', 'delete'] as const).map((event) => ({
      name: `${table}_${event}_version`,
      fires: `after ${event} on ${table}`,
      does: 'bumps config_version, which tells the other processes on this database that their cached settings are stale',
      createdBy: 'migration 017; PostgreSQL: its migration 004',
    })),
  ),
];

/** vec0 metadata columns cannot be NULL: "never expires" is stored as the largest safe integer. */
export const NEVER_EXPIRES = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * memory_vec's "archived" column, from a memories row (`new.` in a trigger, the row itself in a select): 0 current,
 * 1 archived by a summary, 2 no longer true (superseded, or imported as ended). A search of the current memories
 * keeps 0; one of the past (asOf) keeps 0 and 2, and SQL checks each memory's validity after it. One column, not a
 * second one, so the vec0 tables built before validity existed keep working without being rebuilt.
 */
export const VEC_VALIDITY = sql`case when archived_by is not null then 1 when valid_to is not null then 2 else 0 end`;
const NEW_VEC_VALIDITY = sql`case when new.archived_by is not null then 1 when new.valid_to is not null then 2 else 0 end`;

/** The triggers that keep memory_vec in step with memories; created in the transaction that builds memory_vec. */
export async function createVectorTriggers(db: Db) {
  await sql`create trigger memory_vec_delete after delete on memories begin
    delete from memory_vec where memory_pk = old.pk;
  end`.execute(db);
  await sql`create trigger memory_vec_stale after update of content on memories
    when old.content is not new.content begin
    delete from memory_vec where memory_pk = old.pk;
  end`.execute(db);
  await sql`create trigger memory_vec_filters after update of type, session_id, expires_at, updated_at, archived_by, valid_to on memories
    when old.content is new.content begin
    update memory_vec set type = new.type, session_id = coalesce(new.session_id, ''),
      expires_at = coalesce(new.expires_at, ${sql.lit(Number(NEVER_EXPIRES))}), updated_at = new.updated_at,
      archived = ${NEW_VEC_VALIDITY}
    where memory_pk = new.pk;
  end`.execute(db);
}

export async function dropVectorTriggers(db: Db) {
  await sql`drop trigger if exists memory_vec_delete`.execute(db);
  await sql`drop trigger if exists memory_vec_stale`.execute(db);
  await sql`drop trigger if exists memory_vec_filters`.execute(db);
}
