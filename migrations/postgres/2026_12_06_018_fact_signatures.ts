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
  await sql`create function memory_fact_signatures_write() returns trigger language plpgsql as $$ begin
    if tg_op <> 'INSERT' then
      delete from memory_fact_signatures where memory_pk = old.pk;
    end if;
    if tg_op <> 'DELETE' and new.fact_signatures is not null then
      insert into memory_fact_signatures (signature, memory_pk)
        select s::bigint, new.pk from jsonb_array_elements_text(new.fact_signatures::jsonb) as s on conflict do nothing;
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger memory_fact_signatures_insert after insert on memories for each row
    when (new.fact_signatures is not null) execute function memory_fact_signatures_write()`.execute(db);
  await sql`create trigger memory_fact_signatures_update after update of fact_signatures on memories for each row
    when (old.fact_signatures is distinct from new.fact_signatures) execute function memory_fact_signatures_write()`.execute(db);
  await sql`create trigger memory_fact_signatures_delete after delete on memories for each row
    when (old.fact_signatures is not null) execute function memory_fact_signatures_write()`.execute(db);
  await backfillFactSignatures(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete'])
    await sql`drop trigger ${sql.raw(`memory_fact_signatures_${event}`)} on memories`.execute(db);
  await sql`drop function memory_fact_signatures_write()`.execute(db);
  await sql`drop table memory_fact_signatures`.execute(db);
  await sql`alter table memories drop column fact_signatures`.execute(db);
}
