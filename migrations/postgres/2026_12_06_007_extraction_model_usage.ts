import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 018: tokens the extraction model used per API key and UTC day.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table extraction_model_usage (
    api_key_id text not null,
    day text not null,
    tokens bigint not null,
    calls bigint not null,
    primary key (api_key_id, day)
  )`.execute(db);
  // Like the other per-key tables (migration 001): no sampled key ids are kept in pg_statistic, where no erase reaches.
  await sql`alter table extraction_model_usage alter column api_key_id set statistics 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table extraction_model_usage`.execute(db);
}
