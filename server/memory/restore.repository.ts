import type { Db } from '../db/open.ts';
import { DELETED_COLUMNS } from './memory.repository.ts';

/** Sets what an import cannot write through its upsert: when the memory was last written, and what superseded it. */
export async function setRestored(db: Db, pk: number, set: { updatedAt?: number; supersededBy?: string }) {
  await db
    .updateTable('memories')
    .set({
      ...(set.updatedAt === undefined ? {} : { updated_at: set.updatedAt }),
      ...(set.supersededBy === undefined ? {} : { superseded_by: set.supersededBy }),
    })
    .where('pk', '=', pk)
    .execute();
}

/** A page, in pk order after `afterPk`, of a key's memories last written before `before`: what a tombstone may delete. */
export async function writtenBefore(db: Db, f: { apiKeyId: string; before: number; afterPk: number; limit: number }) {
  return db
    .selectFrom('memories')
    .select(['pk', ...DELETED_COLUMNS, 'updated_at'])
    .where('api_key_id', '=', f.apiKeyId)
    .where('updated_at', '<', f.before)
    .where('pk', '>', f.afterPk)
    .orderBy('pk')
    .limit(f.limit)
    .execute();
}

export async function deleteByPks(db: Db, pks: readonly number[]) {
  if (pks.length === 0) return [];
  return db
    .deleteFrom('memories')
    .where('pk', 'in', [...pks])
    .returning(DELETED_COLUMNS)
    .execute();
}
