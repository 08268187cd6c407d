import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 026: a version keeps the validity the memory had (valid_from,
// valid_to, superseded_by: migration 009), and a change of validity keeps a version too, with who and why from the
// change context; a memory handed back or on when what superseded it is deleted says so ('superseding memory deleted').
// Versions kept before this migration have no recorded validity: their three columns stay null.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table memory_versions add column valid_from bigint, add column valid_to bigint, add column superseded_by text`.execute(
    db,
  );
  // As memories.superseded_by (migration 009): no sampled ids in pg_statistic.
  await sql`alter table memory_versions alter column superseded_by set statistics 0`.execute(db);
  await sql`create or replace function memory_versions_keep() returns trigger language plpgsql as $$
  declare
    kept integer;
    next_version integer;
    change jsonb := nullif(current_setting('mnemo.change', true), '')::jsonb;
    why text := coalesce(change ->> 'why', 'update');
  begin
    select case when value ~ '^[0-9]{1,4}$' and value::integer <= 1000 then value::integer end into kept
      from settings where name = 'historyVersionsKept';
    kept := coalesce(kept, 20);
    -- After a delete the superseding memory's row is gone already: the delete trigger's work (migration 009).
    if old.superseded_by is distinct from new.superseded_by and old.superseded_by is not null and not exists (
        select 1 from memories where id = old.superseded_by and api_key_id = old.api_key_id) then
      why := 'superseding memory deleted';
    end if;
    select coalesce(max(version), 0) + 1 into next_version from memory_versions where memory_pk = old.pk;
    if kept > 0 then
      insert into memory_versions (memory_pk, version, content, type, metadata, expires_at, valid_from, valid_to, superseded_by,
        changed_at, changed_by, reason)
      values (old.pk, next_version, old.content, old.type, old.metadata, old.expires_at, old.valid_from, old.valid_to,
        old.superseded_by, coalesce((change ->> 'at')::bigint, (extract(epoch from clock_timestamp()) * 1000)::bigint),
        coalesce(change ->> 'by', 'system'), why);
    end if;
    delete from memory_versions where memory_pk = old.pk and version <= next_version - kept;
    return null;
  end $$`.execute(db);
  await sql`drop trigger memory_versions_keep on memories`.execute(db);
  await sql`create trigger memory_versions_keep
    after update of content, type, metadata, expires_at, valid_from, valid_to, superseded_by on memories for each row
    when (old.content is distinct from new.content or old.type is distinct from new.type
      or old.metadata::jsonb is distinct from new.metadata::jsonb or old.expires_at is distinct from new.expires_at
      or old.valid_from is distinct from new.valid_from or old.valid_to is distinct from new.valid_to
      or old.superseded_by is distinct from new.superseded_by)
    execute function memory_versions_keep()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_versions_keep on memories`.execute(db);
  await sql`create or replace function memory_versions_keep() returns trigger language plpgsql as $$
  declare
    kept integer;
    next_version integer;
    change jsonb := nullif(current_setting('mnemo.change', true), '')::jsonb;
  begin
    select case when value ~ '^[0-9]{1,4}$' and value::integer <= 1000 then value::integer end into kept
      from settings where name = 'historyVersionsKept';
    kept := coalesce(kept, 20);
    select coalesce(max(version), 0) + 1 into next_version from memory_versions where memory_pk = old.pk;
    if kept > 0 then
      insert into memory_versions (memory_pk, version, content, type, metadata, expires_at, changed_at, changed_by, reason)
      values (old.pk, next_version, old.content, old.type, old.metadata, old.expires_at,
        coalesce((change ->> 'at')::bigint, (extract(epoch from clock_timestamp()) * 1000)::bigint),
        coalesce(change ->> 'by', 'system'), coalesce(change ->> 'why', 'update'));
    end if;
    delete from memory_versions where memory_pk = old.pk and version <= next_version - kept;
    return null;
  end $$`.execute(db);
  await sql`create trigger memory_versions_keep after update of content, type, metadata, expires_at on memories for each row
    when (old.content is distinct from new.content or old.type is distinct from new.type
      or old.metadata::jsonb is distinct from new.metadata::jsonb or old.expires_at is distinct from new.expires_at)
    execute function memory_versions_keep()`.execute(db);
  await sql`alter table memory_versions drop column superseded_by, drop column valid_to, drop column valid_from`.execute(db);
}
