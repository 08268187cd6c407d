import { type Kysely, sql } from 'kysely';
import { backfillFactSignatures } from '../server/memory/factIndex.repository.ts';

// Frozen once shipped. The fact index (server/memory/factIndex.ts): each memory's fact signatures as hashes, written by
// the server with the memory in memories.fact_signatures (a JSON array), and copied by these triggers into
// memory_fact_signatures, whose primary key a restatement's candidates are found by in one probe. Triggers rather than
// the server: every write of a memory keeps its rows in the same statement, and a delete takes them with it. The hashes
// of stored memories are written here, by today's signatures; a later change of what a signature is rebuilds them in a
// migration of its own (until then an old hash can only miss a merge, never cause one: candidates are checked on their
// content).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table memories add column fact_signatures text`.execute(db);
  await sql`create table memory_fact_signatures (
    signature integer not null,
    memory_pk integer not null,
    primary key (signature, memory_pk)
  ) without rowid`.execute(db);
  await sql`create index memory_fact_signatures_memory on memory_fact_signatures (memory_pk)`.execute(db);
  const insertNew = sql`insert or ignore into memory_fact_signatures (signature, memory_pk)
    select value, new.pk from json_each(new.fact_signatures);`;
  const removeOld = sql`delete from memory_fact_signatures where memory_pk = old.pk;`;
  await sql`create trigger memory_fact_signatures_insert after insert on memories when new.fact_signatures is not null
    begin ${insertNew} end`.execute(db);
  await sql`create trigger memory_fact_signatures_update after update of fact_signatures on memories
    when old.fact_signatures is not new.fact_signatures begin ${removeOld} ${insertNew} end`.execute(db);
  await sql`create trigger memory_fact_signatures_delete after delete on memories when old.fact_signatures is not null
    begin ${removeOld} end`.execute(db);
  await backfillFactSignatures(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`memory_fact_signatures_${event}`)}`.execute(db);
  await sql`drop table memory_fact_signatures`.execute(db);
  await sql`alter table memories drop column fact_signatures`.execute(db);
}
