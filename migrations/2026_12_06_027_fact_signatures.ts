import { type Kysely, sql } from 'kysely';
import { backfillFactSignatures } from '../server/memory/factSignature.repository.ts';

// Frozen once shipped. The fact index (server/memory/factSignature.repository.ts): per memory, its fact signatures, by
// which a restatement's candidates are found in one probe of (api_key_id, type, signature), memory_pk included so the
// probe reads the index alone. Deleted with the memory (the cascade reads the memory_pk index), so an erased memory's
// words are not left here. The stored memories' rows are written here, by today's signatures: the rows are derived,
// and a later change of what a signature is rebuilds them in a migration of its own (until then an old row can only
// miss a merge, never cause one: candidates are checked on their content).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table memory_fact_signatures (
    id integer primary key,
    memory_pk integer not null references memories(pk) on delete cascade,
    api_key_id text not null,
    type text not null,
    signature text not null,
    whole integer not null
  )`.execute(db);
  await sql`create index memory_fact_signatures_lookup on memory_fact_signatures (api_key_id, type, signature, whole, memory_pk)`.execute(
    db,
  );
  await sql`create index memory_fact_signatures_memory on memory_fact_signatures (memory_pk)`.execute(db);
  await backfillFactSignatures(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table memory_fact_signatures`.execute(db);
}
