import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 017: leases for the background duties that run in one replica at
// a time, and config_version, bumped in the transaction of every settings or provider write, which replicas read to
// know their cached settings are stale.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table leases (name text primary key, owner text not null, expires_at bigint not null)`.execute(db);
  await sql`create table config_version (id integer primary key check (id = 1), version bigint not null)`.execute(db);
  await sql`insert into config_version (id, version) values (1, 0)`.execute(db);
  await sql`create function config_version_bump() returns trigger language plpgsql as $$ begin
    update config_version set version = version + 1 where id = 1;
    return null;
  end $$`.execute(db);
  // One trigger per event, named as on SQLite (server/db/triggers.ts lists them).
  for (const table of ['settings', 'model_providers']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_${event}_version`)} after ${sql.raw(event)} on ${sql.raw(table)}
        for each statement execute function config_version_bump()`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'model_providers']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.raw(`${table}_${event}_version`)} on ${sql.raw(table)}`.execute(db);
    }
  }
  await sql`drop function config_version_bump()`.execute(db);
  await sql`drop table config_version`.execute(db);
  await sql`drop table leases`.execute(db);
}
