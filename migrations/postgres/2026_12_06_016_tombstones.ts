import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 027: a tombstone per deleted memory, never its text.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table tombstones (
    id bigserial primary key,
    api_key_id text not null,
    session_id text,
    memory_id text not null,
    key_digest text not null,
    deleted_at bigint not null,
    deleted_by text not null,
    unique (api_key_id, memory_id, deleted_at)
  )`.execute(db);
  await sql`create index tombstones_by_key on tombstones (api_key_id, id)`.execute(db);
  // Like the other per-key tables (migration 001): no sampled values of a key's rows are kept in pg_statistic, where no
  // erase reaches.
  for (const column of ['api_key_id', 'session_id', 'memory_id', 'key_digest', 'deleted_by'])
    await sql`alter table tombstones alter column ${sql.ref(column)} set statistics 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table tombstones`.execute(db);
}
