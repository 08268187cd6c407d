import { type Kysely, sql } from 'kysely';

// Frozen once shipped. memory_postings_frequency (migration 005) as one expression, which PostgreSQL inlines into the
// keyword triggers' insert of postings: as a query over unnest(weights) it ran as a function call per lexeme, about a
// third of indexing a memory (a captured turn of ~600 characters has some 70 lexemes). The same value: the count of
// the lexeme's occurrences, those weighted 'A' (in the memory's key) counting 0.4, as numeric before the cast to real.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create or replace function memory_postings_frequency(weights text[]) returns real
    language sql immutable parallel safe
    as $$ select (cardinality(weights) - 0.6 * cardinality(array_positions(weights, 'A')))::real $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create or replace function memory_postings_frequency(weights text[]) returns real
    language sql immutable parallel safe
    as $$ select sum(case when w = 'A' then 0.4 else 1 end)::real from unnest(weights) as w $$`.execute(db);
}
