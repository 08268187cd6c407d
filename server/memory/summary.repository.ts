import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database, NewMemoryRow } from '../db/schema.ts';
import { isActive } from './memory.repository.ts';

interface OldMemoryScope {
  writtenBefore: number;
  now: number;
  retentionCutoff: number;
}

/** Active, unarchived, last written before a date; summaries and enforced memories stay as they are. */
function compactable(eb: ExpressionBuilder<Database, 'memories'>, s: OldMemoryScope) {
  return eb.and([
    eb('archived_by', 'is', null),
    eb('updated_at', '<', s.writtenBefore),
    eb('type', '!=', 'enforced'),
    eb('key', 'not like', 'summary:%'),
    isActive(eb, s.now, s.retentionCutoff),
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

export async function keysWithOldMemories(db: Db, s: OldMemoryScope & { minCount: number; limit: number }) {
  const rows = await db
    .selectFrom('memories')
    .select('api_key_id')
    .where((eb) => compactable(eb, s))
    .groupBy('api_key_id')
    .having((eb) => eb.fn.countAll(), '>=', s.minCount)
    .limit(s.limit)
    .execute();
  return rows.map((r) => r.api_key_id);
}

/** The candidates changed between being read and being archived; the transaction was rolled back. */
export class SummaryConflict extends Error {}

/**
 * Writes the summary and archives its originals in one transaction, or throws SummaryConflict and writes nothing.
 * The candidates were read before this transaction (so that it starts with a write and honours busy_timeout): a run
 * for the same key alongside this one (autoSummarize while an admin summarizes) may have archived them already, and a
 * memory may have been rewritten since. Archiving them anyway left a second, orphaned summary of the same facts, or
 * hid a newer fact the summary does not hold; so only rows still unarchived and still old are archived, and all must be.
 */
export async function writeSummary(db: Db, w: { summary: NewMemoryRow; archivedPks: readonly number[]; writtenBefore: number }) {
  return db.transaction().execute(async (trx) => {
    const row = await trx.insertInto('memories').values(w.summary).returningAll().executeTakeFirstOrThrow();
    let archived = 0;
    for (let i = 0; i < w.archivedPks.length; i += 500) {
      const result = await trx
        .updateTable('memories')
        .set({ archived_by: row.id })
        .where('pk', 'in', w.archivedPks.slice(i, i + 500))
        .where('archived_by', 'is', null)
        .where('updated_at', '<', w.writtenBefore)
        .executeTakeFirst();
      archived += Number(result.numUpdatedRows);
    }
    if (archived !== w.archivedPks.length) throw new SummaryConflict('memories changed while they were being summarized');
    return row;
  });
}

export async function findSummaryRow(db: Db, id: string, keyPrefix: string) {
  return (
    db
      .selectFrom('memories')
      .selectAll()
      .where('id', '=', id)
      .where('key', 'like', `${keyPrefix}%`)
      // Both marks: a user may pick a key that starts like a summary's, but not also its metadata.
      .where(sql<string>`json_extract(metadata, '$.summary.count')`, 'is not', null)
      .executeTakeFirst()
  );
}

/** Reactivates the originals and removes the summary, in one transaction; returns how many came back. */
export async function undoSummary(db: Db, summaryPk: number, summaryId: string) {
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('memories').set({ archived_by: null }).where('archived_by', '=', summaryId).executeTakeFirst();
    await trx.deleteFrom('memories').where('pk', '=', summaryPk).execute();
    return Number(result.numUpdatedRows);
  });
}
