import type { Insertable } from 'kysely';
import type { Db } from '../db/open.ts';
import type { InjectionLogTable } from '../db/schema.ts';

/** Adds one entry and drops the key's entries past its newest `keep`, in one transaction. */
export async function insertInjection(db: Db, row: Insertable<InjectionLogTable>, keep: number) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('injection_log').values(row).execute();
    const newestDropped = await trx
      .selectFrom('injection_log')
      .select('id')
      .where('api_key_id', '=', row.api_key_id)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (newestDropped)
      await trx.deleteFrom('injection_log').where('api_key_id', '=', row.api_key_id).where('id', '<=', newestDropped.id).execute();
  });
}

/** Up to `limit` entries of the key older than the entry `before` (all when null), newest first. */
export function injectionRows(db: Db, f: { apiKeyId: string; before: number | null; limit: number }) {
  let q = db.selectFrom('injection_log').selectAll().where('api_key_id', '=', f.apiKeyId);
  if (f.before !== null) q = q.where('id', '<', f.before);
  return q.orderBy('id', 'desc').limit(f.limit).execute();
}

/** Deletes the entries written before `before`; returns how many. */
export async function deleteInjectionsBefore(db: Db, before: number) {
  const result = await db.deleteFrom('injection_log').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
