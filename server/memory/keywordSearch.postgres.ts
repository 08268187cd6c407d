import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import { searchWords } from './ftsQuery.ts';
import { inScope, type RetrievalScope } from './retrievalScope.ts';

/**
 * The keyword tier on PostgreSQL: memory_search (migrations/postgres 002) holds each memory's words as a tsvector,
 * english stemming (mnemo_english: Snowball's english stemmer, where SQLite has porter, and like SQLite no stop
 * words), the key's words weighted 'A'. The ranking contract
 * is SQLite's (keywordSearch.sqlite.ts with bm25.ts): BM25 with k1 = 1.2 and b = 0.75, summed over the query's words;
 * a word's occurrences in the key count 0.4, in the content 1; IDF in Lucene's form log(1 + (N − n + 0.5) / (n + 0.5))
 * with N the key's memories (archived and expired ones too, as memory_counts) and n the key's memories holding the word; ties go to the newer memory. Every statistic is
 * the key's own, computed in the same statement, so other keys never shift a key's scores.
 *
 * What differs from SQLite's scores: the average document length is the key's own (FTS5's bm25() averages over every
 * key's rows, so there other keys do shift it a little); PostgreSQL's parser and Snowball's stemmer split and stem some
 * words differently from unicode61 and porter (a hyphenated word is indexed whole and in parts, which also makes its
 * document one word longer; "c++" is the word "c" on both); a word the parser splits further is matched as a phrase,
 * as FTS5 matches a quoted string, and its occurrences are averaged over its parts.
 */

const K1 = 1.2;
const B = 0.75;
/** The weight of a word found in the memory's key, against 1 in its content: SQLite's bm25() column weight. */
const KEY_WEIGHT = 0.4;

/**
 * BM25-ranked keyword candidates in scope, best first. The words arrive as an array parameter and each becomes a
 * phrase query with phraseto_tsquery, which reads text as words only: no user text is ever tsquery syntax. The GIN
 * index on (api_key_id, terms) gives the key's rows that hold any word, and their document frequencies.
 */
export async function keywordCandidates(db: Db, scope: RetrievalScope, words: readonly string[], limit: number) {
  if (words.length === 0) return [];
  const key = scope.apiKeyId;
  const ranked = sql<{ pk: number; score: number }>`(with words as (
      select i, phraseto_tsquery('mnemo_english', word) as query, array(select lexeme from unnest(to_tsvector('mnemo_english', word))) as lexemes
      from unnest(cast(${words} as text[])) with ordinality as w(word, i)
    ), tenant as (
      select greatest(coalesce(max(documents), 0), 1)::float8 as n, coalesce(max(tokens), 0)::float8 as tokens
      from memory_search_stats where api_key_id = ${key}
    ), counted as (
      select i, query, lexemes, (select count(*) from memory_search s where s.api_key_id = ${key} and s.terms @@ words.query) as df
      from words where numnode(query) > 0
    ), terms as (
      select i, query, lexemes, ln(1 + (greatest(tenant.n, df) - df + 0.5) / (df + 0.5)) as idf
      from counted, tenant where df > 0
    ), matched as (
      select pk, length, terms from memory_search
      where api_key_id = ${key} and terms @@ (select tsquery_any(query) from terms)
    ), frequencies as (
      select matched.pk, matched.length, terms.idf,
        sum(case when weight = 'A' then ${KEY_WEIGHT}::float8 else 1 end) / cardinality(terms.lexemes) as tf
      from matched, unnest(matched.terms) as u(lexeme, positions, weights), unnest(u.weights) as weight, terms
      where u.lexeme = any(terms.lexemes)
      group by matched.pk, matched.length, terms.i, terms.idf, terms.lexemes
    )
    select pk, sum(idf * tf * ${K1 + 1}::float8
      / (tf + ${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * length / greatest(tenant.tokens / tenant.n, 1e-9)))) as score
    from frequencies, tenant group by pk)`;
  return db
    .selectFrom(ranked.as('ranked'))
    .innerJoin('memories', 'memories.pk', 'ranked.pk')
    .selectAll('memories')
    .select('ranked.score')
    .where((eb) => inScope(eb, scope, { byPk: true }))
    .orderBy('ranked.score', 'desc')
    .orderBy('ranked.pk', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The pks of memories holding every word of an admin search, the last word as a prefix, in one key or (null) every
 * key; null when the text has no searchable word. Each word is a phrase query, and the prefix is a quoted lexeme
 * (quotes and backslashes escaped) before ":*", stemmed like the index.
 */
export function listSearchMatches(text: string, apiKeyId: string | null) {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const last = `'${words[words.length - 1]!.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`;
  const queries = [
    ...words.slice(0, -1).map((w) => sql`phraseto_tsquery('mnemo_english', ${w})`),
    sql`to_tsquery('mnemo_english', ${last})`,
  ];
  const keyed = apiKeyId === null ? sql`` : sql`api_key_id = ${apiKeyId} and`;
  return sql<number>`(select pk from memory_search where ${keyed} terms @@ (${sql.join(queries, sql` && `)}))`;
}

/** A real query against the keyword index, and the number of memories it holds; for the engine status. */
export async function probeKeywordIndex(db: Db): Promise<number> {
  await sql`select count(*) from memory_search where terms @@ phraseto_tsquery('mnemo_english', 'mnemoprobe')`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from memory_search`.execute(db);
  return rows[0]?.n ?? 0;
}
