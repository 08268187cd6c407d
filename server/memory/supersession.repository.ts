import { type Insertable, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryRow, SupersessionRow, SupersessionsTable } from '../db/schema.ts';

/**
 * Marks current memories as no longer holding since `validTo`, replaced by `newId`. Only a memory still current is
 * marked: the pks of those marked come back, and one missing was ended by another write first. An original archived
 * by a summary leaves it (a trigger queues the summary's rebuild), so the summary stops carrying the stale fact.
 */
export async function markSuperseded(db: Db, pks: readonly number[], set: { validTo: number; newId: string }) {
  if (pks.length === 0) return [];
  // Written as SQL, as the other statements extraction runs for every fact it stores (factCandidates.repository.ts):
  // building it with the query builder cost about as much as the database running it.
  const { rows } = await sql<Pick<MemoryRow, 'pk'>>`
    update memories set valid_to = ${set.validTo}, superseded_by = ${set.newId}, archived_by = null
    where pk in (${sql.join(pks)}) and valid_to is null
    returning pk`.execute(db);
  return rows.map((r) => r.pk);
}

/** Makes a memory current again: it holds from its validFrom on, replaced by nothing. */
export async function markCurrent(db: Db, pk: number) {
  return db
    .updateTable('memories')
    .set({ valid_to: null, superseded_by: null })
    .where('pk', '=', pk)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records supersessions, in one statement; each comes back as stored, in no particular order. */
export async function insertSupersessions(db: Db, rows: readonly Insertable<SupersessionsTable>[]): Promise<SupersessionRow[]> {
  if (rows.length === 0) return [];
  const values = rows.map(
    (r) =>
      sql`(${r.api_key_id}, ${r.old_id}, ${r.new_id}, ${r.rule}, ${r.sentence ?? null}, ${r.valid_to}, ${r.recorded_at}, ${r.undone_at ?? null})`,
  );
  // Written as SQL, as markSuperseded.
  const inserted = await sql<SupersessionRow>`
    insert into supersessions (api_key_id, old_id, new_id, rule, sentence, valid_to, recorded_at, undone_at)
    values ${sql.join(values)}
    returning *`.execute(db);
  return inserted.rows;
}

/** The supersession in force between two memories of a key (not undone), the latest when there were several. */
export async function supersessionInForce(db: Db, apiKeyId: string, oldId: string, newId: string) {
  return db
    .selectFrom('supersessions')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('old_id', '=', oldId)
    .where('new_id', '=', newId)
    .where('undone_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Marks the supersessions in force of a memory undone at `at`; returns how many there were. */
export async function undoSupersessions(db: Db, apiKeyId: string, oldId: string, at: number) {
  const result = await db
    .updateTable('supersessions')
    .set({ undone_at: at })
    .where('api_key_id', '=', apiKeyId)
    .where('old_id', '=', oldId)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The supersessions in force (not undone) that ended these memories of a key, the latest of each. */
export async function supersessionsEnding(db: Db, apiKeyId: string, oldIds: readonly string[]) {
  if (oldIds.length === 0) return [];
  return db
    .selectFrom('supersessions')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('old_id', 'in', [...oldIds])
    .where('undone_at', 'is', null)
    .orderBy('id')
    .execute();
}
