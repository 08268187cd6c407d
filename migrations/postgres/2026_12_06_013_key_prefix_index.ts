import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keys of an API key in byte order (collation "C"), whatever the database's collation: a fact's
// supersession candidates are the keys starting with a few prefixes (factCandidates.repository.ts), each a range of
// this index, where the unique index of the database's collation sorts "pref:tabs" apart from "pref:tabs-over-spaces"
// under some locales and could only be read whole.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index memories_key_bytes on memories (api_key_id, (key collate "C"))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index memories_key_bytes`.execute(db);
}
