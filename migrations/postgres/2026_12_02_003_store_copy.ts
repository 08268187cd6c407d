import { type Kysely, sql } from 'kysely';

// Frozen once shipped. Where `mnemo copy-store` keeps what it copied into this database: which SQLite installation
// (one row), and how far each table got (the last source key whose row is here, written in the transaction that
// copied the batch). A run that was interrupted reads them to continue; a copy from another installation is refused.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table store_copy (
    id integer primary key check (id = 1),
    source_id text not null,
    source text not null,
    started_at bigint not null,
    finished_at bigint
  )`.execute(db);
  await sql`create table store_copy_progress (
    table_name text primary key,
    last_key text,
    copied bigint not null default 0
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists store_copy_progress`.execute(db);
  await sql`drop table if exists store_copy`.execute(db);
}
