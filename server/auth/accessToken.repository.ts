import type { Insertable } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database } from '../db/schema.ts';

export async function insertAccessToken(db: Db, row: Insertable<Database['access_tokens']>) {
  return db.insertInto('access_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findActiveTokenByHash(db: Db, tokenHash: string) {
  return db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Which of these hashes belong to a token mnemo issued, revoked ones included. */
export async function issuedTokenHashes(db: Db, tokenHashes: readonly string[]): Promise<string[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db.selectFrom('access_tokens').select('token_hash').where('token_hash', 'in', tokenHashes).execute();
  return rows.map((r) => r.token_hash);
}

export async function findAccessTokenName(db: Db, id: string) {
  return (await db.selectFrom('access_tokens').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
}

export async function listAccessTokenRows(db: Db, includeRevoked: boolean) {
  let q = db.selectFrom('access_tokens').selectAll().orderBy('created_at', 'desc');
  if (!includeRevoked) q = q.where('revoked_at', 'is', null);
  return q.execute();
}

export async function revokeAccessTokenRow(db: Db, id: string, now: number) {
  return db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function touchAccessToken(db: Db, id: string, now: number) {
  await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function countActiveAdminTokens(db: Db) {
  const row = await db
    .selectFrom('access_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('role', '=', 'admin')
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.count;
}
