import { type Kysely, sql } from 'kysely';

// Frozen once shipped. What lets several processes share one database (issue 18; the same tables on PostgreSQL,
// migrations/postgres 004): `leases` names each background duty (the purge, the embedding worker, ...) and the process
// that holds it until it expires, so a duty runs in one process at a time and another takes it over once its holder is
// gone; `config_version` is bumped by triggers in the transaction of every settings or provider write, so a process
// that caches them sees a change made by another one by reading one row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table leases (name text primary key, owner text not null, expires_at integer not null)`.execute(db);
  await sql`create table config_version (id integer primary key check (id = 1), version integer not null)`.execute(db);
  await sql`insert into config_version (id, version) values (1, 0)`.execute(db);
  for (const table of ['settings', 'model_providers']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_${event}_version`)} after ${sql.raw(event)} on ${sql.raw(table)}
        begin update config_version set version = version + 1 where id = 1; end`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'model_providers']) {
    for (const event of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`${table}_${event}_version`)}`.execute(db);
  }
  await sql`drop table config_version`.execute(db);
  await sql`drop table leases`.execute(db);
}
