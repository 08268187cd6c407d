import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keyword index of migration 002, measured, and changed where it fell short of SQLite's:
//
// - Porter's stemmer (Snowball's `porter`, the algorithm of SQLite's porter tokenizer) in place of Snowball's english
//   one, which stems some words differently ("generously": gener vs generous), and unaccent before it for words with
//   non-ASCII letters, as unicode61 removes diacritics: "café" and "cafe" are one word on both stores.
// - memory_postings: each memory's words as rows (one per lexeme) under its key's tenant number, in a B-tree that leads
//   with (tenant, lexeme). A keyword search reads the postings of its key's words and nothing else: the frequency and
//   length BM25 needs are in the index (INCLUDE), and a word's document frequency is the count of its postings. The GIN
//   index on (api_key_id, terms) intersects a key's postings with every key's postings of a word, so a key's search
//   grew with the other keys' data (4.3x slower among 200 keys than alone), and reading frequencies meant unnesting
//   each matched row's tsvector (100 ms at 10,000 memories). Lexemes sort bytewise (collation "C"), so a prefix is one
//   range of the index, whatever the database's collation.
// - No GIN index: GIN never removes a key from its entry tree, so a deleted memory's words, and a forgotten API key,
//   stayed in its pages for good (an erasure that VACUUM does not reach). memory_search stays, without it, for admin
//   search (narrowed by the postings in one key, a scan across keys) and for checking a multi-lexeme word as a phrase.
// - memory_search_totals: the whole index's memories and words, for BM25's average document length, which is the
//   store's on SQLite too (FTS5 averages over every key's rows); with each key's own, a key of 20 memories ranked with
//   a noisy average: LongMemEval's MRR was 0.669 against SQLite's 0.683, and 0.683 with the store's. Kept in 16 rows
//   (by tenant number) that writers of different keys rarely share, summed on read.
//
// The tenant number is 64 bits of md5(api_key_id): two keys sharing one would share ranking statistics, never rows
// (every search still filters memories by api_key_id). The triggers of migration 002 keep their names and get bodies
// that maintain the postings too; the index is rebuilt from memories, since the stemmer changed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create text search dictionary mnemo_porter (template = snowball, language = porter)`.execute(db);
  await sql`alter text search configuration mnemo_english
    alter mapping for asciiword, asciihword, hword_asciipart with mnemo_porter`.execute(db);
  await sql`alter text search configuration mnemo_english
    alter mapping for word, hword, hword_part with unaccent, mnemo_porter`.execute(db);
  await sql`drop text search dictionary mnemo_english_stem`.execute(db);
  await sql`drop index memory_search_by_key_terms`.execute(db);

  await sql`create function memory_postings_tenant(api_key_id text) returns bigint
    language sql immutable parallel safe
    as $$ select ('x' || left(md5(api_key_id), 16))::bit(64)::bigint $$`.execute(db);
  await sql`create function memory_search_shard(api_key_id text) returns smallint
    language sql immutable parallel safe
    as $$ select (memory_postings_tenant(api_key_id) & 15)::smallint $$`.execute(db);
  // A lexeme's occurrences, those in the memory's key (weight A) counting 0.4: SQLite's bm25() column weights.
  await sql`create function memory_postings_frequency(weights text[]) returns real
    language sql immutable parallel safe
    as $$ select sum(case when w = 'A' then 0.4 else 1 end)::real from unnest(weights) as w $$`.execute(db);
  await sql`create table memory_postings (
    tenant bigint not null,
    lexeme text collate "C" not null,
    pk bigint not null,
    frequency real not null,
    length integer not null
  )`.execute(db);
  await sql`create unique index memory_postings_by_word on memory_postings (tenant, lexeme, pk) include (frequency, length)`.execute(db);
  // As for the user text of migrations 001 and 002: no sampled lexemes in pg_statistic, where no erase reaches them.
  for (const column of ['tenant', 'lexeme']) {
    await sql`alter table memory_postings alter column ${sql.ref(column)} set statistics 0`.execute(db);
  }

  await sql`create table memory_search_totals (shard smallint primary key, documents bigint not null, tokens bigint not null)`.execute(db);

  await replaceTriggerBodies(db, { postings: true });
  await rebuildSearch(db);
  await sql`insert into memory_postings (tenant, lexeme, pk, frequency, length)
    select memory_postings_tenant(s.api_key_id), u.lexeme, s.pk, memory_postings_frequency(u.weights), s.length
    from memory_search as s, unnest(s.terms) as u(lexeme, positions, weights)`.execute(db);
  // Every shard's row exists from here on: writers only ever update them (two first writers of a shard creating its
  // row at once, each already holding another row, could otherwise wait for each other).
  await sql`insert into memory_search_totals (shard, documents, tokens)
    select g.shard, coalesce(sum(s.documents), 0), coalesce(sum(s.tokens), 0)
    from generate_series(0, 15) as g(shard) left join memory_search_stats as s on memory_search_shard(s.api_key_id) = g.shard
    group by g.shard`.execute(db);
}

/**
 * The bodies of the keyword triggers (created by migration 002): indexing a statement's inserted or deleted rows, the
 * transition table `changed`, at once, each key's stats row updated once per statement. With `postings`, each indexed
 * memory's lexemes go to memory_postings as well (and leave it by the lexemes of the tsvector deleted with it), and
 * memory_search_totals counts them. The postings of a deleted memory are matched with `lexeme = any(...)`: one index
 * probe each when a statement deletes a few memories, one hash join when it deletes many. (Unnesting the lexemes into
 * a join instead let the planner scan every posting of the key once per deleted memory: clearing 20,000 took 100 s.)
 */
async function replaceTriggerBodies(db: Kysely<any>, { postings }: { postings: boolean }) {
  // The CTEs that keep memory_postings and memory_search_totals, after `added` or `removed`.
  const post = `, posted as (
      insert into memory_postings (tenant, lexeme, pk, frequency, length)
        select memory_postings_tenant(a.api_key_id), u.lexeme, a.pk, memory_postings_frequency(u.weights), a.length
        from added as a, unnest(a.terms) as u(lexeme, positions, weights)
    ), totalled as (
      insert into memory_search_totals (shard, documents, tokens)
        select memory_search_shard(api_key_id), count(*), sum(length) from added group by 1 order by 1
        on conflict (shard) do update set documents = memory_search_totals.documents + excluded.documents,
          tokens = memory_search_totals.tokens + excluded.tokens)`;
  const unpost = `, unposted as (
      delete from memory_postings as p using removed as r
        where p.tenant = memory_postings_tenant(r.api_key_id) and p.lexeme = any(tsvector_to_array(r.terms)) and p.pk = r.pk
    ), untotalled as (
      update memory_search_totals set documents = memory_search_totals.documents - gone.documents,
          tokens = memory_search_totals.tokens - gone.tokens
        from (select memory_search_shard(api_key_id) as shard, count(*) as documents, sum(length) as tokens
          from removed group by 1) as gone
        where memory_search_totals.shard = gone.shard)`;
  const add = (rows: string) => `with added as (
      insert into memory_search (pk, api_key_id, terms, length)
        select m.pk, m.api_key_id, t, memory_search_length(t) from ${rows} as m, memory_search_terms(m.key, m.content) as t
        returning pk, api_key_id, terms, length)${postings ? post : ''}
    insert into memory_search_stats (api_key_id, documents, tokens)
      select api_key_id, count(*), sum(length) from added group by api_key_id order by api_key_id
      on conflict (api_key_id) do update set documents = memory_search_stats.documents + excluded.documents,
        tokens = memory_search_stats.tokens + excluded.tokens;`;
  const remove = (rows: string) => `with removed as (
      delete from memory_search using ${rows} as m where memory_search.pk = m.pk
        returning memory_search.pk, memory_search.api_key_id, memory_search.terms, memory_search.length)${postings ? unpost : ''}
    update memory_search_stats set documents = memory_search_stats.documents - gone.documents,
        tokens = memory_search_stats.tokens - gone.tokens
      from (select api_key_id, count(*) as documents, sum(length) as tokens from removed group by api_key_id) as gone
      where memory_search_stats.api_key_id = gone.api_key_id;
    delete from memory_search_stats where api_key_id in (select m.api_key_id from ${rows} as m) and documents <= 0;`;
  const body = async (name: string, text: string) => {
    await sql`create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin ${sql.raw(text)} return null; end $$`.execute(db);
  };
  await body('memories_fts_insert', add('changed'));
  await body('memories_fts_delete', remove('changed'));
  await body(
    'memories_fts_update',
    `${remove('(select old.pk, old.api_key_id)')} ${add('(select new.pk, new.api_key_id, new.key, new.content)')}`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceTriggerBodies(db, { postings: false });
  await sql`drop table memory_postings`.execute(db);
  await sql`drop table memory_search_totals`.execute(db);
  await sql`drop function memory_search_shard(text)`.execute(db);
  await sql`drop function memory_postings_frequency(text[])`.execute(db);
  await sql`drop function memory_postings_tenant(text)`.execute(db);
  await sql`create text search dictionary mnemo_english_stem (template = snowball, language = english)`.execute(db);
  await sql`alter text search configuration mnemo_english
    alter mapping for asciiword, asciihword, hword_asciipart, word, hword, hword_part with mnemo_english_stem`.execute(db);
  await sql`drop text search dictionary mnemo_porter`.execute(db);
  await rebuildSearch(db);
  await sql`create index memory_search_by_key_terms on memory_search using gin (api_key_id, terms)`.execute(db);
}

/** memory_search and its per-key statistics made anew from the memories, with the text search configuration of now. */
async function rebuildSearch(db: Kysely<any>) {
  await sql`truncate memory_search, memory_search_stats`.execute(db);
  await sql`insert into memory_search (pk, api_key_id, terms, length)
    select pk, api_key_id, t, memory_search_length(t) from memories, memory_search_terms(key, content) as t`.execute(db);
  await sql`insert into memory_search_stats (api_key_id, documents, tokens)
    select api_key_id, count(*), sum(length) from memory_search group by api_key_id`.execute(db);
}
