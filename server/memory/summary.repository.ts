import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database, NewMemoryRow } from '../db/schema.ts';
import { isActive } from '../db/scope.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { SUMMARY_KEY_PREFIX } from './digest.ts';

/**
 * The key starts with the summaries' prefix, in its case: a prefix compare both stores do alike (SQLite's LIKE would
 * also take 'SUMMARY:', PostgreSQL's would not).
 */
export const hasSummaryKey = sql<boolean>`substr(memories.key, 1, ${sql.lit(SUMMARY_KEY_PREFIX.length)}) = ${sql.lit(SUMMARY_KEY_PREFIX)}`;

interface OldMemoryScope {
  writtenBefore: number;
  now: number;
  retentionCutoff: number;
}

/**
 * Active, current, unarchived, last written before a date; summaries and enforced memories stay as they are. A
 * superseded memory is never compacted: a summary would bring its stale fact back into every block.
 */
function compactable(eb: ExpressionBuilder<Database, 'memories'>, s: OldMemoryScope) {
  return eb.and([
    eb('archived_by', 'is', null),
    eb('valid_to', 'is', null),
    eb('updated_at', '<', s.writtenBefore),
    eb('type', '!=', 'enforced'),
    eb.not(hasSummaryKey),
    isActive(s.now, s.retentionCutoff),
  ]);
}

export async function summaryCandidates(db: Db, s: OldMemoryScope & { apiKeyId: string }) {
  return db
    .selectFrom('memories')
    .selectAll()
    .where('api_key_id', '=', s.apiKeyId)
    .where((eb) => compactable(eb, s))
    .orderBy('updated_at')
    .execute();
}

/** Keys with at least minCount compactable memories, in key order after `after`. */
export async function keysWithOldMemories(db: Db, s: OldMemoryScope & { minCount: number; after: string | null; limit: number }) {
  let q = db
    .selectFrom('memories')
    .select('api_key_id')
    .where((eb) => compactable(eb, s));
  if (s.after !== null) q = q.where('api_key_id', '>', s.after);
  const rows = await q
    .groupBy('api_key_id')
    .having((eb) => eb.fn.countAll(), '>=', s.minCount)
    .orderBy('api_key_id')
    .limit(s.limit)
    .execute();
  return rows.map((r) => r.api_key_id);
}

/** The candidates changed between being read and being archived; the transaction was rolled back. */
export class SummaryConflict extends Error {}

/**
 * Writes the summaries and archives their originals in one transaction, or throws SummaryConflict and writes nothing.
 * The candidates were read before this transaction (so that it starts with a write and honours busy_timeout): a run
 * for the same key alongside this one (autoSummarize while an admin summarizes) may have archived them already, and a
 * memory may have been rewritten since. Archiving them anyway would leave a second, orphaned summary of the same facts,
 * or hide a newer fact the summary does not hold; so only rows still unarchived and still old are archived, and all must be.
 */
export async function writeSummaries(
  db: Db,
  w: { summaries: readonly { summary: NewMemoryRow; archivedPks: readonly number[] }[]; writtenBefore: number },
) {
  return db.transaction().execute(async (trx) => {
    const rows = [];
    for (const { summary, archivedPks } of w.summaries) {
      const row = await trx.insertInto('memories').values(summary).returningAll().executeTakeFirstOrThrow();
      let archived = 0;
      for (let i = 0; i < archivedPks.length; i += 500) {
        const result = await trx
          .updateTable('memories')
          .set({ archived_by: row.id })
          .where('pk', 'in', archivedPks.slice(i, i + 500))
          .where('archived_by', 'is', null)
          .where('updated_at', '<', w.writtenBefore)
          .executeTakeFirst();
        archived += Number(result.numUpdatedRows);
      }
      if (archived !== archivedPks.length) throw new SummaryConflict('memories changed while they were being summarized');
      rows.push(row);
    }
    return rows;
  });
}

export async function findSummaryRow(db: Db, id: string) {
  return (
    db
      .selectFrom('memories')
      .selectAll()
      .where('id', '=', id)
      .where(hasSummaryKey)
      // Both marks: a user may pick a key that starts like a summary's, but not also its metadata.
      .where(storeDialect(db).jsonValue('metadata', ['summary', 'count']), 'is not', null)
      .executeTakeFirst()
  );
}

/** Reactivates the originals and removes the summary, in one transaction; returns how many came back. */
export async function undoSummary(db: Db, summaryPk: number, summaryId: string) {
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('memories').set({ archived_by: null }).where('archived_by', '=', summaryId).executeTakeFirst();
    await trx.deleteFrom('memories').where('pk', '=', summaryPk).execute();
    await forgetStaleSummaries(trx, [summaryId]);
    return Number(result.numUpdatedRows);
  });
}

/** Summaries whose originals were deleted or brought back since they were last rebuilt (filled by triggers). */
export async function staleSummaryIds(db: Db) {
  const rows = await db.selectFrom('summary_rebuilds').select('summary_id').execute();
  return rows.map((r) => r.summary_id);
}

export async function forgetStaleSummaries(db: Db, ids: readonly string[]) {
  if (ids.length > 0) await db.deleteFrom('summary_rebuilds').where('summary_id', 'in', ids).execute();
}

export async function originalsOf(db: Db, summaryId: string) {
  return db.selectFrom('memories').selectAll().where('archived_by', '=', summaryId).orderBy('pk').execute();
}

/** Brings archived originals back (all of the summary's, or only these). */
export async function unarchive(db: Db, summaryId: string, pks?: readonly number[]) {
  if (pks?.length === 0) return;
  let q = db.updateTable('memories').set({ archived_by: null }).where('archived_by', '=', summaryId);
  if (pks) q = q.where('pk', 'in', pks);
  await q.execute();
}

/** New text for a summary; its age stays, so a rebuild never extends its retention. */
export async function rewriteSummary(db: Db, pk: number, w: { content: string; tokens: number; metadata: string }) {
  await db
    .updateTable('memories')
    .set({ ...w, needs_reindex: sql<number>`case when content is not distinct from ${w.content} then needs_reindex else 1 end` })
    .where('pk', '=', pk)
    .execute();
}

export async function deleteSummaryRow(db: Db, pk: number) {
  await db.deleteFrom('memories').where('pk', '=', pk).execute();
}
