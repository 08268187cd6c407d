import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A tombstone per deleted memory: its id, API key and session, its key as a sha256 digest (a key
// can be made of the user's words; the digest lets an import find the same key without the store keeping them), when
// and by whom or what it was deleted. Never its text. The newest 10,000 of a key are kept (each delete prunes the rest);
// forgetApiKey erases all of a key's. The memory id and time make a tombstone unique, so an import records it once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table tombstones (
    id integer primary key autoincrement,
    api_key_id text not null,
    session_id text,
    memory_id text not null,
    key_digest text not null,
    deleted_at integer not null,
    deleted_by text not null,
    unique (api_key_id, memory_id, deleted_at)
  )`.execute(db);
  await sql`create index tombstones_by_key on tombstones (api_key_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table tombstones`.execute(db);
}
