import { type Kysely, sql } from 'kysely';

// Frozen once shipped. Every change of a memory's content, type, metadata or expiry keeps the version it replaced, by a
// trigger: no write path can forget it, whichever module or branch adds one. Who and why come from the writing
// transaction's change context (mnemo_change, registered on each connection: db/sqlite/changeContext.ts), honest
// defaults when the write set none. How many versions a memory keeps is the historyVersionsKept setting, read here
// from its row (20 when absent or invalid, as the settings service's default); 0 keeps none. The versions go with their
// memory (a foreign key, on delete cascade), so every erase path takes them too. mentions and last_seen_at count
// restatements merged into a memory (memory/paraphrase.ts): counters, never versioned.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table memory_versions (
    id integer primary key,
    memory_pk integer not null references memories(pk) on delete cascade,
    version integer not null,
    content text not null,
    type text not null,
    metadata text not null,
    expires_at integer,
    changed_at integer not null,
    changed_by text not null,
    reason text not null,
    unique (memory_pk, version)
  )`.execute(db);
  await sql`alter table memories add column mentions integer not null default 1`.execute(db);
  await sql`alter table memories add column last_seen_at integer`.execute(db);
  // The setting as the trigger reads it: one row, whatever the settings table holds.
  await sql`create view memory_versions_kept as select coalesce((select cast(value as integer) from settings
    where name = 'historyVersionsKept' and json_valid(value) and json_type(value) = 'integer'
      and cast(value as integer) between 0 and 1000), 20) as kept`.execute(db);
  // Metadata is compared key by key: the upsert's merge may rebuild the same object with its keys in another order.
  await sql`create trigger memory_versions_keep after update of content, type, metadata, expires_at on memories
    when old.content is not new.content or old.type is not new.type or old.expires_at is not new.expires_at
      or (select count(*) from json_each(old.metadata)) <> (select count(*) from json_each(new.metadata))
      or exists (select 1 from json_each(old.metadata) o where not exists (
        select 1 from json_each(new.metadata) n where n.key = o.key and n.type = o.type and n.value is o.value))
    begin
    insert into memory_versions (memory_pk, version, content, type, metadata, expires_at, changed_at, changed_by, reason)
      select old.pk, coalesce((select max(version) from memory_versions where memory_pk = old.pk), 0) + 1,
        old.content, old.type, old.metadata, old.expires_at,
        coalesce(mnemo_change('at'), cast(unixepoch('subsec') * 1000 as integer)),
        coalesce(mnemo_change('by'), 'system'), coalesce(mnemo_change('why'), 'update')
      where (select kept from memory_versions_kept) > 0;
    delete from memory_versions where memory_pk = old.pk
      and version <= (select max(version) from memory_versions where memory_pk = old.pk) - (select kept from memory_versions_kept);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_versions_keep`.execute(db);
  await sql`drop view memory_versions_kept`.execute(db);
  await sql`alter table memories drop column last_seen_at`.execute(db);
  await sql`alter table memories drop column mentions`.execute(db);
  await sql`drop table memory_versions`.execute(db);
}
