import type { Insertable } from 'kysely';
import type { Db } from '../db/open.ts';
import type { EvaluationQuestionsTable, EvaluationRunsTable } from '../db/schema.ts';

/** The key's sets with how many questions and runs each has, by name. */
export function setsOfKey(db: Db, apiKeyId: string) {
  return db
    .selectFrom('evaluation_sets as s')
    .select((eb) => [
      's.id',
      's.api_key_id',
      's.name',
      's.created_at',
      eb.selectFrom('evaluation_questions as q').whereRef('q.set_id', '=', 's.id').select(eb.fn.countAll<number>().as('n')).as('questions'),
      eb.selectFrom('evaluation_runs as r').whereRef('r.set_id', '=', 's.id').select(eb.fn.countAll<number>().as('n')).as('runs'),
    ])
    .where('s.api_key_id', '=', apiKeyId)
    .orderBy('s.name')
    .execute();
}

/** The set of this key with this id, or undefined (another key's set included). */
export function setOfKey(db: Db, apiKeyId: string, id: number) {
  return db.selectFrom('evaluation_sets').selectAll().where('api_key_id', '=', apiKeyId).where('id', '=', id).executeTakeFirst();
}

export function setNamed(db: Db, apiKeyId: string, name: string) {
  return db.selectFrom('evaluation_sets').select('id').where('api_key_id', '=', apiKeyId).where('name', '=', name).executeTakeFirst();
}

export async function insertSet(db: Db, row: { api_key_id: string; name: string; created_at: number }) {
  const { id } = await db.insertInto('evaluation_sets').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function renameSet(db: Db, id: number, name: string) {
  await db.updateTable('evaluation_sets').set({ name }).where('id', '=', id).execute();
}

/** Deletes the set; its questions and runs go with it (on delete cascade). */
export async function deleteSet(db: Db, id: number) {
  await db.deleteFrom('evaluation_sets').where('id', '=', id).execute();
}

/** The set's questions in the order they were added. */
export function questionsOfSet(db: Db, setId: number) {
  return db.selectFrom('evaluation_questions').selectAll().where('set_id', '=', setId).orderBy('id').execute();
}

export async function countQuestions(db: Db, setId: number) {
  const row = await db
    .selectFrom('evaluation_questions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('set_id', '=', setId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The question with this id in a set of this key, or undefined. */
export function questionOfKey(db: Db, apiKeyId: string, id: number) {
  return db
    .selectFrom('evaluation_questions as q')
    .innerJoin('evaluation_sets as s', 's.id', 'q.set_id')
    .selectAll('q')
    .where('s.api_key_id', '=', apiKeyId)
    .where('q.id', '=', id)
    .executeTakeFirst();
}

export async function insertQuestions(db: Db, rows: readonly Insertable<EvaluationQuestionsTable>[]) {
  if (rows.length === 0) return [];
  const inserted = await db.insertInto('evaluation_questions').values(rows).returning('id').execute();
  return inserted.map((r) => r.id);
}

export async function updateQuestion(db: Db, id: number, change: { question: string; expected: string }) {
  await db.updateTable('evaluation_questions').set(change).where('id', '=', id).execute();
}

export async function deleteQuestion(db: Db, id: number) {
  await db.deleteFrom('evaluation_questions').where('id', '=', id).execute();
}

/** Which of these ids or keys name a memory of the key (archived ones too: a summary's originals can be expected). */
export function memoriesByIdOrKey(db: Db, apiKeyId: string, refs: readonly string[]) {
  if (refs.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('memories')
    .select(['id', 'key', 'content'])
    .where('api_key_id', '=', apiKeyId)
    .where((eb) => eb.or([eb('id', 'in', refs), eb('key', 'in', refs)]))
    .execute();
}

export async function insertRun(db: Db, row: Insertable<EvaluationRunsTable>) {
  const { id } = await db.insertInto('evaluation_runs').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The set's runs, newest first. */
export function runsOfSet(db: Db, setId: number) {
  return db.selectFrom('evaluation_runs').selectAll().where('set_id', '=', setId).orderBy('id', 'desc').execute();
}

/** The run with this id of a set of this key, or undefined. */
export function runOfKey(db: Db, apiKeyId: string, id: number) {
  return db
    .selectFrom('evaluation_runs as r')
    .innerJoin('evaluation_sets as s', 's.id', 'r.set_id')
    .selectAll('r')
    .where('s.api_key_id', '=', apiKeyId)
    .where('r.id', '=', id)
    .executeTakeFirst();
}
