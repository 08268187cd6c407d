import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The injection log: each injectMemory's receipt, per API key, while the injectionLogDays setting
// keeps them; the purge pass drops entries past the days, each insert the key's entries past its newest 1,000, and
// forgetApiKey all of a key's. AUTOINCREMENT: an id is never reused, so a page cursor never lands on a newer entry.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table injection_log (
    id integer primary key autoincrement,
    api_key_id text not null,
    session_id text,
    created_at integer not null,
    query text,
    receipt text not null
  )`.execute(db);
  await sql`create index injection_log_by_key on injection_log (api_key_id, id)`.execute(db);
  await sql`create index injection_log_by_created on injection_log (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table injection_log`.execute(db);
}
