import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A version keeps the validity the memory had (valid_from, valid_to, superseded_by: migration 021),
// and a change of validity keeps a version too: a supersession, an undo, a write that makes a superseded memory current
// again, a memory handed back or on when what superseded it is deleted. Who and why come from the change context, as for
// the other columns (migration 020); a memory handed back by that deletion, which runs in a trigger with no context of
// its own, says so ('superseding memory deleted'). Versions kept before this migration have no recorded validity: their
// three columns stay null.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table memory_versions add column valid_from integer`.execute(db);
  await sql`alter table memory_versions add column valid_to integer`.execute(db);
  await sql`alter table memory_versions add column superseded_by text`.execute(db);
  await sql`drop trigger memory_versions_keep`.execute(db);
  // Metadata is compared key by key, as in migration 020. After a delete the superseding memory's row is gone already:
  // a superseded_by naming no memory of the key is the delete trigger's work (migration 021).
  await sql`create trigger memory_versions_keep
    after update of content, type, metadata, expires_at, valid_from, valid_to, superseded_by on memories
    when old.content is not new.content or old.type is not new.type or old.expires_at is not new.expires_at
      or old.valid_from is not new.valid_from or old.valid_to is not new.valid_to or old.superseded_by is not new.superseded_by
      or (select count(*) from json_each(old.metadata)) <> (select count(*) from json_each(new.metadata))
      or exists (select 1 from json_each(old.metadata) o where not exists (
        select 1 from json_each(new.metadata) n where n.key = o.key and n.type = o.type and n.value is o.value))
    begin
    insert into memory_versions (memory_pk, version, content, type, metadata, expires_at, valid_from, valid_to, superseded_by,
        changed_at, changed_by, reason)
      select old.pk, coalesce((select max(version) from memory_versions where memory_pk = old.pk), 0) + 1,
        old.content, old.type, old.metadata, old.expires_at, old.valid_from, old.valid_to, old.superseded_by,
        coalesce(mnemo_change('at'), cast(unixepoch('subsec') * 1000 as integer)),
        coalesce(mnemo_change('by'), 'system'),
        case when old.superseded_by is not new.superseded_by and old.superseded_by is not null and not exists (
            select 1 from memories where id = old.superseded_by and api_key_id = old.api_key_id)
          then 'superseding memory deleted' else coalesce(mnemo_change('why'), 'update') end
      where (select kept from memory_versions_kept) > 0;
    delete from memory_versions where memory_pk = old.pk
      and version <= (select max(version) from memory_versions where memory_pk = old.pk) - (select kept from memory_versions_kept);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_versions_keep`.execute(db);
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
  for (const column of ['superseded_by', 'valid_to', 'valid_from'])
    await sql`alter table memory_versions drop column ${sql.ref(column)}`.execute(db);
}
