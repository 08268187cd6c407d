import type { Db } from '../db/open.ts';

/**
 * Takes the lease `name` for `owner` until `expiresAt`, or renews it: only when no one holds it, its holder let it
 * expire (before `now`), or `owner` holds it already. One statement, so two processes claiming at once cannot both
 * win (SQLite serialises it; PostgreSQL re-checks the condition on the row it waited for). Whether `owner` holds it now.
 */
export async function claimLease(db: Db, l: { name: string; owner: string; now: number; expiresAt: number }): Promise<boolean> {
  const row = await db
    .insertInto('leases')
    .values({ name: l.name, owner: l.owner, expires_at: l.expiresAt })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ owner: l.owner, expires_at: l.expiresAt })
        .where((eb) => eb.or([eb('leases.expires_at', '<', l.now), eb('leases.owner', '=', l.owner)])),
    )
    .returning('owner')
    .executeTakeFirst();
  return row?.owner === l.owner;
}

/** Gives the lease up, if `owner` still holds it, so another process may take it at once. */
export async function releaseLease(db: Db, name: string, owner: string) {
  await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
}
