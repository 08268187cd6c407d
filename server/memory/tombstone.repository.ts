import type { Insertable } from 'kysely';
import type { Db } from '../db/open.ts';
import type { TombstonesTable } from '../db/schema.ts';

/**
 * The tombstones a key keeps, newest first. Enough to carry a key's recent deletions into an export (a copy made
 * before them may still hold what they deleted); a cap rather than the retention window, which may be off and
 * then would keep them for ever, and which a clear of a whole key would fill in one go.
 */
export const TOMBSTONES_KEPT = 10_000;

const INSERT_ROWS = 1000;

/** Records tombstones (a repeated one, same memory and time, once), then prunes each key named to its newest TOMBSTONES_KEPT. */
export async function insertTombstones(db: Db, rows: readonly Insertable<TombstonesTable>[]) {
  // In statements of INSERT_ROWS: a clear of a whole key deletes any number, and a statement takes 32,766 values at most.
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    await db
      .insertInto('tombstones')
      .values(rows.slice(start, start + INSERT_ROWS))
      .onConflict((oc) => oc.columns(['api_key_id', 'memory_id', 'deleted_at']).doNothing())
      .execute();
  }
  for (const apiKeyId of new Set(rows.map((r) => r.api_key_id))) {
    await db
      .deleteFrom('tombstones')
      .where('api_key_id', '=', apiKeyId)
      .where('id', '<=', (eb) =>
        eb.selectFrom('tombstones').select('id').where('api_key_id', '=', apiKeyId).orderBy('id', 'desc').limit(1).offset(TOMBSTONES_KEPT),
      )
      .execute();
  }
}

/** A page of tombstones, of one key or of all, in id order after `afterId`. */
export async function tombstonePage(db: Db, f: { apiKeyId: string | null; afterId: number; limit: number }) {
  let q = db.selectFrom('tombstones').selectAll().where('id', '>', f.afterId);
  if (f.apiKeyId !== null) q = q.where('api_key_id', '=', f.apiKeyId);
  return q.orderBy('id').limit(f.limit).execute();
}

export async function countTombstones(db: Db, apiKeyId: string | null) {
  let q = db.selectFrom('tombstones').select((eb) => eb.fn.countAll<number>().as('n'));
  if (apiKeyId !== null) q = q.where('api_key_id', '=', apiKeyId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** forgetApiKey: the key's tombstones; returns how many it had. */
export async function deleteTombstonesOfKey(db: Db, apiKeyId: string) {
  const result = await db.deleteFrom('tombstones').where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
