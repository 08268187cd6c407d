import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The same as SQLite's migration 018: deleting a captured turn clears its facts' sourceTurn, and
// deleting a fact takes its id out of its turn's facts list, within the deleted memory's own API key.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function memory_links_on_delete() returns trigger language plpgsql as $$ begin
    update memories set metadata = (metadata::jsonb - 'sourceTurn')::text
      where api_key_id = old.api_key_id
        and id in (select jsonb_array_elements_text(
          case when jsonb_typeof(old.metadata::jsonb -> 'facts') = 'array' then old.metadata::jsonb -> 'facts' else '[]'::jsonb end))
        and metadata::jsonb ->> 'sourceTurn' = old.id;
    update memories set metadata = jsonb_set(metadata::jsonb, '{facts}',
        coalesce((select jsonb_agg(f) from jsonb_array_elements(metadata::jsonb -> 'facts') f where f <> to_jsonb(old.id)), '[]'::jsonb))::text
      where api_key_id = old.api_key_id
        and id = old.metadata::jsonb ->> 'sourceTurn'
        and jsonb_typeof(metadata::jsonb -> 'facts') = 'array';
    return null;
  end $$`.execute(db);
  await sql`create trigger memory_links_on_delete after delete on memories for each row
    when (jsonb_typeof(old.metadata::jsonb -> 'facts') = 'array' or jsonb_typeof(old.metadata::jsonb -> 'sourceTurn') = 'string')
    execute function memory_links_on_delete()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_links_on_delete on memories`.execute(db);
  await sql`drop function memory_links_on_delete()`.execute(db);
}
