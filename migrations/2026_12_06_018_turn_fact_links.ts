import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A captured chat turn lists the facts extracted from it (metadata.facts, their ids) and each fact
// names its turn (metadata.sourceTurn): deleting either side, by any path (delete, clear, purge, forget), takes it out
// of the other, so no link points at nothing. Links are only followed within the deleted memory's own API key.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create trigger memory_links_on_delete after delete on memories
    when json_type(old.metadata, '$.facts') = 'array' or json_type(old.metadata, '$.sourceTurn') = 'text' begin
    update memories set metadata = json_remove(metadata, '$.sourceTurn')
      where api_key_id = old.api_key_id
        and id in (select value from json_each(old.metadata, '$.facts'))
        and json_extract(metadata, '$.sourceTurn') = old.id;
    update memories set metadata = json_set(metadata, '$.facts',
        json((select json_group_array(value) from json_each(memories.metadata, '$.facts') where value is not old.id)))
      where api_key_id = old.api_key_id
        and id = json_extract(old.metadata, '$.sourceTurn')
        and json_type(metadata, '$.facts') = 'array';
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_links_on_delete`.execute(db);
}
