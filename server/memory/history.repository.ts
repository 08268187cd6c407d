import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryVersionRow } from '../db/schema.ts';
import type { Change } from './change.ts';

/** The versions the history trigger kept of a memory, newest first. */
export async function versionRows(db: Db, memoryPk: number) {
  return db.selectFrom('memory_versions').selectAll().where('memory_pk', '=', memoryPk).orderBy('version', 'desc').execute();
}

export async function versionRow(db: Db, memoryPk: number, version: number) {
  return db.selectFrom('memory_versions').selectAll().where('memory_pk', '=', memoryPk).where('version', '=', version).executeTakeFirst();
}

export async function hasVersionWithContent(db: Db, memoryPk: number, content: string) {
  const row = await db
    .selectFrom('memory_versions')
    .select('version')
    .where('memory_pk', '=', memoryPk)
    .where('content', '=', content)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops every version of a memory (a rebuilt summary's: its old text may quote an original that was deleted). */
export async function deleteVersions(db: Db, memoryPk: number) {
  await db.deleteFrom('memory_versions').where('memory_pk', '=', memoryPk).execute();
}

type VersionColumns = Pick<MemoryVersionRow, 'content' | 'type' | 'metadata' | 'expires_at' | 'valid_from' | 'valid_to' | 'superseded_by'>;

/** What a version keeps of a memory, picked field by field: a memory row or a restored version carries more. */
const versionColumns = (v: VersionColumns): VersionColumns => ({
  content: v.content,
  type: v.type,
  metadata: v.metadata,
  expires_at: v.expires_at,
  valid_from: v.valid_from,
  valid_to: v.valid_to,
  superseded_by: v.superseded_by,
});

/**
 * Writes a version that no update replaced (a merged paraphrase's wording, which was never the memory's text), numbered
 * after the newest, and prunes the memory's versions to `kept` as the trigger does; nothing with 0.
 */
export async function addVersion(db: Db, memoryPk: number, v: VersionColumns, change: Change & { at: number }, kept: number) {
  if (kept === 0) return;
  // Numbered in the insert itself: one statement, one round trip on PostgreSQL, fewer than asking for the newest first.
  const { version } = await db
    .insertInto('memory_versions')
    .values({
      memory_pk: memoryPk,
      version: db
        .selectFrom('memory_versions')
        .select(sql<number>`coalesce(max(version), 0) + 1`.as('next'))
        .where('memory_pk', '=', memoryPk),
      ...versionColumns(v),
      changed_at: change.at,
      changed_by: change.by,
      reason: change.why,
    })
    .returning('version')
    .executeTakeFirstOrThrow();
  // Versions are numbered from 1: until the newest passes `kept` there is nothing to prune (a round trip saved).
  if (version <= kept) return;
  await db
    .deleteFrom('memory_versions')
    .where('memory_pk', '=', memoryPk)
    .where('version', '<=', version - kept)
    .execute();
}

/** The kept versions of several memories (a page of an export), oldest first within each. */
export async function versionRowsOf(db: Db, memoryPks: readonly number[]) {
  if (memoryPks.length === 0) return [];
  return db
    .selectFrom('memory_versions')
    .selectAll()
    .where('memory_pk', 'in', [...memoryPks])
    .orderBy('memory_pk')
    .orderBy('version')
    .execute();
}

/** Replaces a memory's kept versions with these, numbered from 1 in the order given. */
export async function replaceVersions(
  db: Db,
  memoryPk: number,
  versions: readonly Omit<MemoryVersionRow, 'id' | 'memory_pk' | 'version'>[],
) {
  await deleteVersions(db, memoryPk);
  if (versions.length === 0) return;
  await db
    .insertInto('memory_versions')
    .values(
      versions.map((v, i) => ({
        memory_pk: memoryPk,
        version: i + 1,
        ...versionColumns(v),
        changed_at: v.changed_at,
        changed_by: v.changed_by,
        reason: v.reason,
      })),
    )
    .execute();
}
