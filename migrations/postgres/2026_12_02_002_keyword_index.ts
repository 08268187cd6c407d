import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keyword index on PostgreSQL (server/search/keywordSearch.postgres.ts reads it): each
// memory's words as a tsvector (english stemming without stop words, like porter on SQLite: the configuration
// mnemo_english; the key's words weighted 'A', which ranking counts 0.4 like SQLite's key column), in a table of its own so that reading memories never carries the vector along. The GIN index leads with
// api_key_id (btree_gin), so a search of one key reads only that key's postings, and its counts of matching rows are
// the key's own document frequencies; an admin search across keys uses the same index on its second column.
// BM25 also needs each row's length, and each key's rows and total length (N and the average document length): the
// triggers keep them.
const SEPARATORS = String.raw`\u00a0-\u00bf\u00d7\u00f7\u2000-\u206f\u2190-\u2bff\u3000-\u303f\ufe30-\ufe4f\uff00-\uff0f\U0001f000-\U0001faff`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists btree_gin`.execute(db);
  // english's Snowball stemmer without its stop word list: "and", "it" or "who" stay searchable words, as on SQLite.
  await sql`create text search dictionary mnemo_english_stem (template = snowball, language = english)`.execute(db);
  await sql`create text search configuration mnemo_english (copy = english)`.execute(db);
  await sql`alter text search configuration mnemo_english alter mapping replace english_stem with mnemo_english_stem`.execute(db);
  // Punctuation, symbols and spaces become one space before parsing, so words split where SQLite's unicode61 splits
  // them (and where searchWords splits a query): PostgreSQL's parser would otherwise keep "3.14", "e-mail" or a path as
  // one token, which no query word matches. The classes are ASCII-only under the C locale: the ranges add Latin-1's
  // and Unicode's punctuation and symbol blocks (quotes, dashes, arrows, CJK punctuation, emoji).
  await sql
    .raw(`create function memory_search_words(text text) returns text
    language sql immutable parallel safe
    as $$ select regexp_replace(text, '[[:punct:][:space:][:cntrl:]${SEPARATORS}]+', ' ', 'g') $$`)
    .execute(db);
  await sql`create function memory_search_terms(key text, content text) returns tsvector
    language sql immutable parallel safe
    as $$ select setweight(to_tsvector('mnemo_english', memory_search_words(key)), 'A')
      || to_tsvector('mnemo_english', memory_search_words(content)) $$`.execute(db);
  // Words counted once per occurrence: the document length BM25 normalizes by.
  await sql`create function memory_search_length(terms tsvector) returns integer
    language sql immutable parallel safe
    as $$ select coalesce(sum(cardinality(positions)), 0)::integer from unnest(terms) $$`.execute(db);
  // A query of any of its words: tsquery has || but no aggregate for it.
  await sql`create aggregate tsquery_any(tsquery) (sfunc = tsquery_or, stype = tsquery)`.execute(db);
  await sql`create table memory_search (
    pk bigint primary key,
    api_key_id text not null,
    terms tsvector not null,
    length integer not null
  )`.execute(db);
  await sql`create index memory_search_by_key_terms on memory_search using gin (api_key_id, terms)`.execute(db);
  // Per key: its rows (BM25's N) and their total length. A key's row goes with its last memory, so a forgotten key
  // leaves nothing here that names it.
  await sql`create table memory_search_stats (api_key_id text primary key, documents bigint not null, tokens bigint not null)`.execute(db);
  // As for the user text of migration 001: ANALYZE would copy sampled lexemes and key ids into pg_statistic, where no
  // erase reaches them.
  for (const [table, column] of [
    ['memory_search', 'terms'],
    ['memory_search', 'api_key_id'],
    ['memory_search_stats', 'api_key_id'],
  ]) {
    await sql`alter table ${sql.table(table!)} alter column ${sql.ref(column!)} set statistics 0`.execute(db);
  }

  // Inserts and deletes are indexed once per statement, with its rows as the transition table `changed`: a key's one
  // memory_search_stats row is then updated once per statement, not once per memory (in one transaction PostgreSQL
  // makes each update of a row walk its growing chain of versions: clearing 20,000 memories of a key took half a
  // minute).
  const add = (rows: string) => `with added as (
      insert into memory_search (pk, api_key_id, terms, length)
        select m.pk, m.api_key_id, t, memory_search_length(t) from ${rows} as m, memory_search_terms(m.key, m.content) as t
        returning api_key_id, length)
    insert into memory_search_stats (api_key_id, documents, tokens)
      select api_key_id, count(*), sum(length) from added group by api_key_id order by api_key_id
      on conflict (api_key_id) do update set documents = memory_search_stats.documents + excluded.documents,
        tokens = memory_search_stats.tokens + excluded.tokens;`;
  const remove = (rows: string) => `with removed as (
      delete from memory_search using ${rows} as m where memory_search.pk = m.pk returning memory_search.api_key_id, length)
    update memory_search_stats set documents = memory_search_stats.documents - gone.documents,
        tokens = memory_search_stats.tokens - gone.tokens
      from (select api_key_id, count(*) as documents, sum(length) as tokens from removed group by api_key_id) as gone
      where memory_search_stats.api_key_id = gone.api_key_id;
    delete from memory_search_stats where api_key_id in (select m.api_key_id from ${rows} as m) and documents <= 0;`;
  const trigger = async (name: string, event: string, forEach: string, body: string, when?: string) => {
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin ${sql.raw(body)} return null; end $$`.execute(db);
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on memories ${sql.raw(forEach)}
      ${sql.raw(when ? `when (${when})` : '')} execute function ${sql.raw(name)}()`.execute(db);
  };
  // Named like SQLite's keyword triggers (server/db/triggers.ts): the same job on the other store.
  await trigger('memories_fts_insert', 'insert', 'referencing new table as changed for each statement', add('changed'));
  await trigger('memories_fts_delete', 'delete', 'referencing old table as changed for each statement', remove('changed'));
  // Fires only when indexed text really changes: counters, flags and metadata never touch the index. Row by row:
  // transition tables refuse a column list, and such updates touch one memory at a time.
  await trigger(
    'memories_fts_update',
    'update of content, key, api_key_id',
    'for each row',
    `${remove('(select old.pk, old.api_key_id)')} ${add('(select new.pk, new.api_key_id, new.key, new.content)')}`,
    'old.content is distinct from new.content or old.key is distinct from new.key or old.api_key_id is distinct from new.api_key_id',
  );

  await sql`insert into memory_search (pk, api_key_id, terms, length)
    select pk, api_key_id, t, memory_search_length(t) from memories, memory_search_terms(key, content) as t`.execute(db);
  await sql`insert into memory_search_stats (api_key_id, documents, tokens)
    select api_key_id, count(*), sum(length) from memory_search group by api_key_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['memories_fts_insert', 'memories_fts_delete', 'memories_fts_update']) {
    await sql`drop trigger if exists ${sql.raw(name)} on memories`.execute(db);
    await sql`drop function if exists ${sql.raw(name)}()`.execute(db);
  }
  await sql`drop table if exists memory_search_stats`.execute(db);
  await sql`drop table if exists memory_search`.execute(db);
  await sql`drop aggregate if exists tsquery_any(tsquery)`.execute(db);
  await sql`drop function if exists memory_search_length(tsvector)`.execute(db);
  await sql`drop function if exists memory_search_terms(text, text)`.execute(db);
  await sql`drop function if exists memory_search_words(text)`.execute(db);
  await sql`drop text search configuration if exists mnemo_english`.execute(db);
  await sql`drop text search dictionary if exists mnemo_english_stem`.execute(db);
}
