import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keyword index's change feed: each change of the text the keyword index holds (a memory
// written, deleted, or its content, key or API key changed; the same events as the FTS triggers of migration 009) adds a
// row naming the key and the memory. A process that keeps keys' postings in memory (server/db/sqlite/keywordIndex.ts)
// reads the rows after the last it read and reads those memories again, whichever process or connection wrote them. No
// index beyond the sequence: a process reads every key's new rows at once, and a write appends one row.
// Ids only, no text: nothing here needs erasing with a memory. The feed keeps its newest 100,000 changes; a reader
// that fell further behind builds its postings anew.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table keyword_changes (
    seq integer primary key autoincrement,
    api_key_id text not null,
    memory_pk integer not null
  )`.execute(db);
  await sql`create trigger keyword_changes_insert after insert on memories begin
    insert into keyword_changes (api_key_id, memory_pk) values (new.api_key_id, new.pk);
  end`.execute(db);
  await sql`create trigger keyword_changes_delete after delete on memories begin
    insert into keyword_changes (api_key_id, memory_pk) values (old.api_key_id, old.pk);
  end`.execute(db);
  await sql`create trigger keyword_changes_update after update of content, key, api_key_id on memories
    when old.content is not new.content or old.key is not new.key or old.api_key_id is not new.api_key_id begin
    insert into keyword_changes (api_key_id, memory_pk) select old.api_key_id, old.pk where old.api_key_id is not new.api_key_id;
    insert into keyword_changes (api_key_id, memory_pk) values (new.api_key_id, new.pk);
  end`.execute(db);
  // Pruned a thousand rows at a time, so that a write pays for it once in a thousand.
  await sql`create trigger keyword_changes_prune after insert on keyword_changes when new.seq % 1000 = 0 begin
    delete from keyword_changes where seq <= new.seq - 100000;
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.raw(`keyword_changes_${event}`)}`.execute(db);
  await sql`drop trigger keyword_changes_prune`.execute(db);
  await sql`drop table keyword_changes`.execute(db);
}
