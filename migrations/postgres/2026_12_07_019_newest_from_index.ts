import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The (API key, updated) index also holds each row's pk, so a key's newest rows (EXACT) are read
// from the index alone, in order: PostgreSQL keeps no statistics of keys, and its planner, taking every key for a small
// one, sorted all of a key's rows instead (server/db/postgres/newestInScope.ts). SQLite's index holds the rowid, which
// is the pk, already.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index memories_by_key_updated_pk on memories (api_key_id, updated_at, pk)`.execute(db);
  await sql`drop index memories_by_key_updated`.execute(db);
  await sql`alter index memories_by_key_updated_pk rename to memories_by_key_updated`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index memories_by_key_updated_short on memories (api_key_id, updated_at)`.execute(db);
  await sql`drop index memories_by_key_updated`.execute(db);
  await sql`alter index memories_by_key_updated_short rename to memories_by_key_updated`.execute(db);
}
