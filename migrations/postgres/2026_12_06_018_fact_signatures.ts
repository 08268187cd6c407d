import { type Kysely, sql } from 'kysely';
import { backfillFactSignatures } from '../../server/memory/factIndex.repository.ts';

// Frozen once shipped. The same as SQLite's migration 029: each memory's fact signatures as hashes in
// memories.fact_signatures (a JSON array written by the server), copied by a trigger into memory_fact_signatures,
// whose primary key a restatement's candidates are found by in one probe; a delete takes a memory's rows with it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table memories add column fact_signatures text`.execute(db);
  await sql`create table memory_fact_signatures (
    signature bigint not null,
    memory_pk bigint not null,
    primary key (signature, memory_pk)
  )`.execute(db);
  await sql`create index memory_fact_signatures_memory on memory_fact_signatures (memory_pk)`.execute(db);
  // Insert and delete once per statement, from the transition table (as the keyword index's triggers, migration 002):
  // an import, a purge or an erase of many memories is one statement here, not one per row.
  await sql`create function memory_fact_signatures_add() returns trigger language plpgsql as $$ begin
    insert into memory_fact_signatures (signature, memory_pk)
      select s::bigint, c.pk from changed as c, jsonb_array_elements_text(c.fact_signatures::jsonb) as s
      where c.fact_signatures is not null on conflict do nothing;
    return null;
  end $$`.execute(db);
  await sql`create function memory_fact_signatures_remove() returns trigger language plpgsql as $$ begin
    delete from memory_fact_signatures where memory_pk in (select pk from changed where fact_signatures is not null);
    return null;
  end $$`.execute(db);
  await sql`create function memory_fact_signatures_replace() returns trigger language plpgsql as $$ begin
    delete from memory_fact_signatures where memory_pk = old.pk;
    if new.fact_signatures is not null then
      insert into memory_fact_signatures (signature, memory_pk)
        select s::bigint, new.pk from jsonb_array_elements_text(new.fact_signatures::jsonb) as s on conflict do nothing;
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger memory_fact_signatures_insert after insert on memories
    referencing new table as changed for each statement execute function memory_fact_signatures_add()`.execute(db);
  // A column list rules out a transition table: an edit is one row anyway.
  await sql`create trigger memory_fact_signatures_update after update of fact_signatures on memories for each row
    when (old.fact_signatures is distinct from new.fact_signatures) execute function memory_fact_signatures_replace()`.execute(db);
  await sql`create trigger memory_fact_signatures_delete after delete on memories
    referencing old table as changed for each statement execute function memory_fact_signatures_remove()`.execute(db);
  await backfillFactSignatures(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete'])
    await sql`drop trigger ${sql.raw(`memory_fact_signatures_${event}`)} on memories`.execute(db);
  for (const fn of ['add', 'remove', 'replace']) await sql`drop function ${sql.raw(`memory_fact_signatures_${fn}`)}()`.execute(db);
  await sql`drop table memory_fact_signatures`.execute(db);
  await sql`alter table memories drop column fact_signatures`.execute(db);
}
