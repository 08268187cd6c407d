import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The standing facts a retrieval may add after its relevant hits (retrieval.repository.ts,
// profileMemories): a partial index over exactly those rows, so a key's thousands of other memories are never read
// to find its handful of preferences and habits.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index memories_profile on memories (api_key_id)
    where json_extract(metadata, '$.category') in ('preference', 'habit', 'identity', 'decision')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index memories_profile`.execute(db);
}
