import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 024: each injectMemory's receipt, per API key, while the
// injectionLogDays setting keeps them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table injection_log (
    id bigserial primary key,
    api_key_id text not null,
    session_id text,
    created_at bigint not null,
    query text,
    receipt text not null
  )`.execute(db);
  await sql`create index injection_log_by_key on injection_log (api_key_id, id)`.execute(db);
  await sql`create index injection_log_by_created on injection_log (created_at)`.execute(db);
  // Like the other per-key tables (migration 001): no sampled values of a key's rows are kept in pg_statistic, where no
  // erase reaches.
  for (const column of ['api_key_id', 'session_id', 'query', 'receipt'])
    await sql`alter table injection_log alter column ${sql.ref(column)} set statistics 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table injection_log`.execute(db);
}
