import type { Db } from '../db/open.ts';

/** The number that triggers bump at every write of settings or model providers (migration 017). */
export async function readConfigVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('config_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.version);
}
