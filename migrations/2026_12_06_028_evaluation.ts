import { type Kysely, sql } from 'kysely';

// Frozen once shipped. Evaluation: per API key, sets of labelled questions (a question and the ids of the memories
// that should be found for it) and the runs of a set (the settings used, the metrics, each question's result). All of
// it is the key's user data: forgetApiKey erases it. A set's questions and runs go with the set (on delete cascade).
// AUTOINCREMENT: an id is never reused, so a deleted question's id in an older run never names a newer question.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table evaluation_sets (
    id integer primary key autoincrement,
    api_key_id text not null,
    name text not null,
    created_at integer not null,
    unique (api_key_id, name)
  )`.execute(db);
  await sql`create table evaluation_questions (
    id integer primary key autoincrement,
    set_id integer not null references evaluation_sets (id) on delete cascade,
    question text not null,
    expected text not null,
    created_at integer not null
  )`.execute(db);
  await sql`create index evaluation_questions_by_set on evaluation_questions (set_id, id)`.execute(db);
  await sql`create table evaluation_runs (
    id integer primary key autoincrement,
    set_id integer not null references evaluation_sets (id) on delete cascade,
    created_at integer not null,
    settings text not null,
    results text not null
  )`.execute(db);
  await sql`create index evaluation_runs_by_set on evaluation_runs (set_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table evaluation_runs`.execute(db);
  await sql`drop table evaluation_questions`.execute(db);
  await sql`drop table evaluation_sets`.execute(db);
}
