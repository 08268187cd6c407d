import type { Db } from '../db/open.ts';

/** The versions the history trigger kept of a memory, newest first. */
export async function versionRows(db: Db, memoryPk: number) {
  return db.selectFrom('memory_versions').selectAll().where('memory_pk', '=', memoryPk).orderBy('version', 'desc').execute();
}

export async function versionRow(db: Db, memoryPk: number, version: number) {
  return db.selectFrom('memory_versions').selectAll().where('memory_pk', '=', memoryPk).where('version', '=', version).executeTakeFirst();
}

/** Drops every version of a memory (a rebuilt summary's: its old text may quote an original that was deleted). */
export async function deleteVersions(db: Db, memoryPk: number) {
  await db.deleteFrom('memory_versions').where('memory_pk', '=', memoryPk).execute();
}
