import { type Insertable, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { AuditLogRow, AuditLogTable, Database } from '../db/schema.ts';

/** What a read of the audit log is narrowed to; every field is optional. */
export interface AuditFilter {
  action?: string | null;
  actorId?: string | null;
  apiKeyId?: string | null;
  /** Epoch ms, inclusive. */
  since?: number | null;
  /** Epoch ms, exclusive. */
  until?: number | null;
}

type AuditSelect<O> = SelectQueryBuilder<Database, 'audit_log', O>;

function applyFilter<O>(qb: AuditSelect<O>, f: AuditFilter): AuditSelect<O> {
  let q = qb;
  if (f.action != null) q = q.where('action', '=', f.action);
  if (f.actorId != null) q = q.where('actor_id', '=', f.actorId);
  if (f.apiKeyId != null) q = q.where('api_key_id', '=', f.apiKeyId);
  if (f.since != null) q = q.where('at', '>=', f.since);
  if (f.until != null) q = q.where('at', '<', f.until);
  return q;
}

/** Appends entries in one statement; they come back as stored, in the order given (their ids rise with it). */
export async function insertAuditRows(db: Db, rows: readonly Insertable<AuditLogTable>[]) {
  if (rows.length === 0) return [];
  const values = rows.map(
    (r) =>
      sql`(${r.at}, ${r.actor_id}, ${r.actor_name}, ${r.request_id}, ${r.action}, ${r.api_key_id}, ${r.target}, ${r.changes}, ${r.outcome})`,
  );
  // Written as SQL: a supersession or a merge on extraction's path writes an entry, and building the insert with the
  // query builder cost more than SQLite running it.
  const { rows: stored } = await sql<AuditLogRow>`
    insert into audit_log (at, actor_id, actor_name, request_id, action, api_key_id, target, changes, outcome)
    values ${sql.join(values)}
    returning *`.execute(db);
  return stored.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Newest first (by id: the order they were written in). */
export async function listAuditRows(db: Db, filter: AuditFilter, page: { limit: number; offset: number }) {
  return applyFilter(db.selectFrom('audit_log').selectAll(), filter).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countAuditRows(db: Db, filter: AuditFilter) {
  const row = await applyFilter(db.selectFrom('audit_log'), filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Every matching row, oldest first, read in batches so that a large log is never held in memory at once. */
export async function* streamAuditRows(db: Db, filter: AuditFilter, batchSize = 1000) {
  let afterId = 0;
  for (;;) {
    const rows = await applyFilter(db.selectFrom('audit_log').selectAll(), filter)
      .where('id', '>', afterId)
      .orderBy('id', 'asc')
      .limit(batchSize)
      .execute();
    yield* rows;
    if (rows.length < batchSize) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

/** Names `apiKeyId` by `pseudonym` in every entry (the one update the log's triggers allow); returns how many. */
export async function renameAuditApiKey(db: Db, apiKeyId: string, pseudonym: string) {
  const result = await db.updateTable('audit_log').set({ api_key_id: pseudonym }).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the entries written before `cutoff` (epoch ms); returns how many. */
export async function deleteAuditRowsBefore(db: Db, cutoff: number) {
  const result = await db.deleteFrom('audit_log').where('at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
