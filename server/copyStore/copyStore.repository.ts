import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database } from '../db/schema.ts';

/**
 * A table that `mnemo copy-store` copies row for row, in the order of its primary key: each batch is read from the
 * SQLite source after the last key copied and written to PostgreSQL in one transaction with that key.
 */
export interface CopiedTable {
  table: keyof Database & string;
  /** The primary key; the copy's order and resume point. */
  key: string;
  /** The key is an identity column on PostgreSQL: its values are kept, and its sequence moved past the source's. */
  identity?: true;
  /** Columns the copy sets instead of taking the source's value. */
  set?: Record<string, number>;
  /** Only these rows are copied (and counted, on both sides). */
  where?: RawBuilder<unknown>;
}

/**
 * What is copied, in this order. Inserting memories fires only the target's insert triggers (memory_counts, and the
 * keyword and fact indexes' own), which derive what they keep from the row itself; the summary, outbox and audit-log triggers
 * fire on update and delete only, so plain inserts in any order give a target equal to the source.
 */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { table: 'settings', key: 'name' },
  { table: 'model_providers', key: 'id' },
  { table: 'access_tokens', key: 'id' },
  { table: 'retrieval_stats', key: 'api_key_id' },
  // A running (interrupted) job is not carried over: its resume point counts vectors that the target does not have.
  { table: 'reindex_jobs', key: 'id', where: sql`status <> 'running'` },
  { table: 'audit_log', key: 'id', identity: true },
  // Vectors stay behind: every copied memory waits for the reindex job that embeds it into Qdrant.
  { table: 'memories', key: 'pk', identity: true, set: { needs_reindex: 1 } },
  // After the memories they belong to: each names its memory by pk, which the copy keeps.
  { table: 'memory_versions', key: 'id', identity: true },
  { table: 'supersessions', key: 'id', identity: true },
  { table: 'tombstones', key: 'id', identity: true },
  // Labelled questions and their runs, after the set each belongs to; they name memories by id, which the copy keeps.
  { table: 'evaluation_sets', key: 'id', identity: true },
  { table: 'evaluation_questions', key: 'id', identity: true },
  { table: 'evaluation_runs', key: 'id', identity: true },
  // Changes not yet sent to Qdrant: pks are kept, so a pending delete still removes the right point.
  { table: 'qdrant_outbox', key: 'pk' },
];

/** The target's tables that are not copied row for row, and why; every other table must be in COPIED_TABLES. */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  memory_counts: "kept by the target's trigger as each memory is inserted; compared with the source's at the end",
  memory_search: "the keyword index, built by the target's triggers as each memory is inserted",
  memory_postings: "the keyword index's postings, written by the same triggers",
  memory_search_stats: "the keyword index's per-key statistics, kept by the same triggers",
  memory_search_totals: "the keyword index's totals over every key, kept by the same triggers",
  keyword_changes: "the keyword index's change feed, written by the same triggers",
  keyword_changes_pruned: "how far the target's own feed was pruned",
  keyword_changes_forgets: "keys forgotten in the target, which the target's own processes count",
  memory_fact_signatures: "the fact index, written by the target's triggers from each memory's fact_signatures as it is inserted",
  leases: "which process runs which background duty: the target's replicas take their own",
  config_version: "bumped by the target's own triggers as settings and providers are copied",
  memory_vec_meta: 'describes SQLite vectors, which are not copied (Qdrant is filled by the reindex job)',
  qdrant_outbox_state: "one flag (vectorStore is QDRANT), set from the source's after the tables",
  summary_rebuilds: 'a queue that the transaction filling it empties',
  health_probe: 'scratch rows of the health probe',
  store_copy: "the copy's own record of its source",
  extraction_model_usage: "the extraction model's daily token budgets: the target's count from the day of the copy",
  injection_log: "receipts of past injections, kept a few days at most: the target's log starts afresh",
  store_copy_progress: "the copy's own resume points",
  kysely_migration: 'each store has its own migrations',
  kysely_migration_lock: 'each store has its own migrations',
};

const where = (t: CopiedTable) => t.where ?? sql`true`;

/** The target's columns of a table that take a value (generated columns are computed by the target). */
export async function targetColumns(target: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER'
    order by ordinal_position`.execute(target);
  return rows.map((r) => r.name);
}

/** The source's stored columns of a table (SQLite's generated ones, like memories.fts_tenant, are left out). */
export async function sourceColumns(source: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(source);
  return rows.map((r) => r.name);
}

/** Every base table of the target database. */
export async function targetTables(target: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(target);
  return rows.map((r) => r.name);
}

/** Up to `limit` rows after `after` (from the start when null), in key order. */
export async function readBatch(
  source: Db,
  t: CopiedTable,
  columns: readonly string[],
  after: string | number | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const from = after === null ? sql`true` : sql`${sql.ref(t.key)} > ${after}`;
  const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))}
    from ${sql.table(t.table)} where ${from} and ${where(t)} order by ${sql.ref(t.key)} limit ${limit}`.execute(source);
  return rows;
}

export async function insertRows(target: Db, t: CopiedTable, columns: readonly string[], rows: readonly Record<string, unknown>[]) {
  const values = rows.map((row) => sql`(${sql.join(columns.map((c) => (t.set && c in t.set ? t.set[c] : row[c])))})`);
  await sql`insert into ${sql.table(t.table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    ${t.identity ? sql`overriding system value` : sql``} values ${sql.join(values)}`.execute(target);
}

/** The rows of the table that the copy takes (or took); the same query on either store. */
export async function countRows(db: Db, t: CopiedTable): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(t.table)} where ${where(t)}`.execute(db);
  return Number(rows[0]!.n);
}

/** Whether a table has any row at all. */
export async function hasRows(db: Db, table: string): Promise<boolean> {
  const { rows } = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * The highest key SQLite's AUTOINCREMENT ever gave out in the table (deleted rows included), or 0. The target's
 * sequence must pass it: a reused pk could meet a pending Qdrant delete or an archived link meant for the old row.
 */
export async function sourceSequence(source: Db, table: string): Promise<number> {
  const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(source);
  return Number(rows[0]?.seq ?? 0);
}

/** Makes the identity column's next value greater than `floor` and than every key in the table. */
export async function moveIdentityPast(target: Db, t: CopiedTable, floor: number) {
  await sql`select setval(pg_get_serial_sequence(${t.table}, ${t.key}), greatest(max(${sql.ref(t.key)}), ${floor}, 1),
    greatest(max(${sql.ref(t.key)}), ${floor}) > 0) from ${sql.table(t.table)}`.execute(target);
}

/** When the source's first migration ran: set once, when the installation was created, and never changed. */
export async function sourceCreatedAt(source: Db): Promise<string> {
  const { rows } = await sql<{ timestamp: string }>`select timestamp from kysely_migration order by name limit 1`.execute(source);
  return rows[0]!.timestamp;
}

export async function readStoreCopy(target: Db) {
  return target.selectFrom('store_copy').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** Records the source unless a copy is recorded already; the row that is there afterwards. */
export async function claimStoreCopy(target: Db, copy: { sourceId: string; source: string; now: number }) {
  await target
    .insertInto('store_copy')
    .values({ id: 1, source_id: copy.sourceId, source: copy.source, started_at: copy.now, finished_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await target
    .insertInto('store_copy_progress')
    .values(COPIED_TABLES.map((t) => ({ table_name: t.table, last_key: null })))
    .onConflict((oc) => oc.column('table_name').doNothing())
    .execute();
  return target.selectFrom('store_copy').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** The table's resume point, locked until the transaction ends: two copies into one target take turns per batch. */
export async function lockProgress(trx: Db, table: string) {
  return trx
    .selectFrom('store_copy_progress')
    .select(['last_key', 'copied'])
    .where('table_name', '=', table)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function saveProgress(trx: Db, table: string, p: { lastKey: string; copied: number }) {
  await trx.updateTable('store_copy_progress').set({ last_key: p.lastKey, copied: p.copied }).where('table_name', '=', table).execute();
}

export async function progressOf(target: Db, table: string) {
  return target.selectFrom('store_copy_progress').select(['copied']).where('table_name', '=', table).executeTakeFirst();
}

export async function finishStoreCopy(target: Db, now: number) {
  await target.updateTable('store_copy').set({ finished_at: now }).where('id', '=', 1).execute();
}

export async function readOutboxFlag(source: Db): Promise<number> {
  const row = await source.selectFrom('qdrant_outbox_state').select('enabled').where('id', '=', 1).executeTakeFirst();
  return row?.enabled ?? 0;
}

export async function writeOutboxFlag(target: Db, enabled: number) {
  await target.updateTable('qdrant_outbox_state').set({ enabled }).where('id', '=', 1).execute();
}

/**
 * memory_counts in one line: the keys that have memories and how many memories in all (a key whose memories were all
 * deleted keeps a row at 0 on the source, which a copy has no reason to create).
 */
export async function memoryCountsSummary(db: Db): Promise<{ keys: number; memories: number }> {
  const row = await db
    .selectFrom('memory_counts')
    .select((eb) => [
      eb.fn.countAll().filterWhere('memories', '>', 0).as('keys'),
      eb.fn.coalesce(eb.fn.sum('memories'), sql.lit(0)).as('memories'),
    ])
    .executeTakeFirstOrThrow();
  return { keys: Number(row.keys), memories: Number(row.memories) };
}

export async function memoriesToReindex(target: Db): Promise<number> {
  const row = await target
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('needs_reindex', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
