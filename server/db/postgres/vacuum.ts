import { sql } from 'kysely';
import type { Db } from '../open.ts';

/**
 * The tables an erase deletes or rewrites rows of: memories (and their TOAST table and indexes), their versions and
 * fact index rows, the keyword index's rows (a memory's words as lexemes, as a tsvector and as postings), the
 * supersessions on either side of a memory and per-key statistics, the keyword index's change feed and how far a key's
 * was pruned (ids only, but a forgotten key's), the per-key counts and retrieval statistics, extraction model usage, the
 * evaluation sets with their questions and runs, the injection log and tombstones (forgetApiKey; the purge pass prunes
 * the log too), and the audit log (its entries about a forgotten key get a pseudonym).
 */
const ERASED_TABLES = [
  'memories',
  'supersessions',
  'memory_versions',
  'memory_fact_signatures',
  'memory_search',
  'memory_postings',
  'memory_search_stats',
  'keyword_changes',
  'keyword_changes_pruned',
  'memory_counts',
  'retrieval_stats',
  'extraction_model_usage',
  'injection_log',
  'tombstones',
  'evaluation_sets',
  'evaluation_questions',
  'evaluation_runs',
  'audit_log',
];

/**
 * After an erase on PostgreSQL: a delete only marks a row dead, and it stays readable in the table's pages (to
 * pageinspect, to anyone with the files) until VACUUM removes it. This vacuums the tables the erase touched, now rather
 * than whenever autovacuum comes by. INDEX_CLEANUP ON: by default VACUUM skips the indexes when few pages have dead
 * rows, which would leave a deleted memory's key in the (api_key_id, key) index. A row still visible to an older open
 * transaction (a long export, a replica's snapshot) is only removed by a later VACUUM (autovacuum's, or the next erase's).
 * VACUUM frees the rows' space without zeroing it: their bytes stay in the page's free space until a later write reuses
 * it. Returns false: PostgreSQL's write-ahead log is not emptied (it keeps the rows until its segments are recycled).
 */
export async function vacuumErased(db: Db): Promise<boolean> {
  // VACUUM refuses to run inside a transaction block: it must get a connection of its own, outside the caller's.
  if (db.isTransaction) throw new Error('vacuumErased runs after the erase has committed, not inside its transaction');
  await sql`vacuum (index_cleanup on) ${sql.join(ERASED_TABLES.map((t) => sql.table(t)))}`.execute(db);
  return false;
}
