import type { Db } from '../db/open.ts';

/** Stored settings, each value JSON-encoded; with a prefix, only the names that start with it. */
export async function readSettingRows(db: Db, prefix?: string) {
  let q = db.selectFrom('settings').select(['name', 'value']);
  if (prefix !== undefined) q = q.where('name', 'like', `${prefix}%`);
  return q.execute();
}

/**
 * Writes every named value (JSON-encoded) in one transaction: a setting is replaced or added, never duplicated.
 * vectorStore also sets qdrant_outbox_state, the flag the Qdrant outbox triggers read, in the same transaction:
 * the triggers never depend on how a setting is encoded here.
 */
export async function writeSettings(db: Db, values: Record<string, unknown>, now: number) {
  const entries = Object.entries(values);
  if (entries.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [name, value] of entries) {
      const encoded = JSON.stringify(value);
      await trx
        .insertInto('settings')
        .values({ name, value: encoded, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: encoded, updated_at: now }))
        .execute();
    }
    if ('vectorStore' in values) {
      await trx
        .updateTable('qdrant_outbox_state')
        .set({ enabled: values.vectorStore === 'QDRANT' ? 1 : 0 })
        .where('id', '=', 1)
        .execute();
    }
  });
}
