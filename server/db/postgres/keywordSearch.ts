import { sql } from 'kysely';
import type { Db } from '../open.ts';
import { rankFromPostings } from '../postingsRanking.ts';
import { firstInScope } from '../rankedHead.ts';
import { inScope, type RetrievalScope } from '../scope.ts';
import { searchWords } from '../searchWords.ts';
import type { KeywordHits } from '../storeDialect.ts';
import { keywordIndexOf } from './keywordIndex.ts';

/**
 * The keyword tier on PostgreSQL: memory_postings (migrations/postgres 005) holds each memory's words as lexemes under
 * its key's tenant number, with their frequency and the memory's length; memory_search (002) holds them as a tsvector.
 * The words are stemmed like SQLite's (porter, diacritics removed, no stop words: the configuration mnemo_english), the
 * key's words counting 0.4 against 1 in the content. The ranking contract is SQLite's (db/sqlite/keywordSearch.ts with
 * bm25.ts): BM25 with k1 = 1.2 and b = 0.75, summed over the query's words; IDF in Lucene's form
 * log(1 + (N − n + 0.5) / (n + 0.5)) with N the key's indexed memories and n those holding the word; ties go to the
 * newer memory. N and n are the key's own, read from the key's postings in the same statement, so other keys' words
 * never shift a key's ranking, and a search reads only its own key's postings of its words; the average document
 * length is the whole index's, as FTS5's bm25() has it (memory_search_totals).
 *
 * What differs from SQLite's scores: PostgreSQL's parser splits some words differently from
 * unicode61 (a hyphenated word is indexed whole and in parts, which also makes its document one word longer; "c++" is
 * the word "c" on both). A word the parser splits further must be found as a phrase, as FTS5 matches a quoted string,
 * and its frequency is averaged over its parts.
 */

const K1 = 1.2;
const B = 0.75;

/** BM25-ranked keyword candidates in scope, best first: from the key's postings in memory when they are at hand. */
export async function keywordCandidates(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits> {
  return (await fromPostings(db, scope, words, limit)) ?? (await fromStatement(db, scope, words, limit));
}

/**
 * The ranking from the key's postings in this process's memory (keywordIndex.ts), when they are at hand: not inside a
 * transaction, whose own uncommitted changes the feed does not show; not while a large key's postings are being built;
 * not for a word of several lexemes, which only the statement matches as a phrase.
 */
async function fromPostings(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits | null> {
  if (db.isTransaction || words.length === 0) return null;
  const index = keywordIndexOf(db);
  const terms = await index.termsOf(db, words);
  const held = terms && (await index.postings(db, scope.apiKeyId));
  if (!terms || !held) return null;
  return rankFromPostings(db, scope, terms, held, limit, pkIn);
}

const pkIn = (pks: readonly number[]) => sql<boolean>`memories.pk = any(cast(${pks} as bigint[]))`;

/**
 * The ranking by one statement over the key's postings of the words. The words arrive as an array parameter, are
 * stemmed by to_tsvector and checked as phrases by phraseto_tsquery, which read text as words only: no user text is
 * ever tsquery syntax.
 */
async function fromStatement(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits> {
  const hits: KeywordHits = { rows: [], memories: 0, holding: words.map(() => 0) };
  if (words.length === 0) return hits;
  hits.rows = await firstInScope(limit, async (head) => {
    const rows = await rankedHead(db, scope, words, head);
    // Every ranked row carries the key's statistics of the words (the same in each).
    const first = rows[0];
    if (first) {
      hits.memories = Number(first.memories);
      for (const [j, word] of first.held_words.entries()) hits.holding[word] = Number(first.held_counts[j]);
    }
    // A ranked memory that is out of scope (archived, expired, another session's) comes back without its columns.
    // As read, the statistics' columns left on: copying every column of every row costs more than they weigh.
    const inScope = rows
      .filter((r) => r.pk !== null)
      .map((r) => Object.assign(r, { matched: wordsOfMask(r.matched) }) as unknown as KeywordHits['rows'][number]);
    return { rows: inScope, exhausted: rows.length < head };
  });
  return hits;
}

/** The indices of the bits set in a 64-bit mask, lowest first. */
function wordsOfMask(mask: string): number[] {
  const words: number[] = [];
  for (let bits = BigInt.asUintN(64, BigInt(mask)), i = 0; bits !== 0n; bits >>= 1n, i++) if (bits & 1n) words.push(i);
  return words;
}

/**
 * The `head` best-ranked memories of the key, best first, each looked up by pk and checked against the scope. The
 * lookup is a lateral subquery with a limit, which the planner cannot fold into a join: the scope's filters defeat
 * its estimates (it expected one memory to pass them), and as a join it scanned the key's memories and re-read the
 * whole ranking once for each (7 s at 10,000 memories). Each posting passes through as few steps as the ranking needs:
 * a word of one lexeme (nearly every word) reads its postings as they are, and only a word the parser splits is grouped
 * into a phrase and checked against the memory's tsvector; each posting takes its word's IDF from an array by the word's
 * index rather than through a join; and the words a memory holds come back as a bit mask, since an ordered array of
 * them sorted each memory's words apart, and that was most of the statement's time.
 */
function rankedHead(db: Db, scope: RetrievalScope, words: readonly string[], head: number) {
  const key = scope.apiKeyId;
  const ranked = sql<{
    pk: number;
    score: number;
    /**
     * The words it holds, as a bit mask (bit i: word i; searchWords gives at most 64), in text: pg reads a bigint as a
     * Number, which holds 53 bits.
     */
    matched: string;
    memories: number;
    held_words: number[];
    held_counts: number[];
  }>`(with words as (
      select i, phraseto_tsquery('mnemo_english', word) as phrase,
        array(select lexeme from unnest(to_tsvector('mnemo_english', word))) as lexemes
      from unnest(cast(${words} as text[])) with ordinality as w(word, i)
    ), tenant as (
      select greatest(coalesce((select documents from memory_search_stats where api_key_id = ${key}), 0), 1)::float8 as n,
        (select sum(tokens)::float8 / greatest(sum(documents), 1) from memory_search_totals) as average
    ), found as materialized (
      select w.i, p.pk, p.length, p.frequency as tf
      from words as w, memory_postings as p
      where cardinality(w.lexemes) = 1 and p.tenant = memory_postings_tenant(${key}) and p.lexeme = w.lexemes[1]
      union all
      select i, pk, length, tf from (
        select w.i, w.phrase, p.pk, p.length, sum(p.frequency) / cardinality(w.lexemes) as tf,
          count(*) = cardinality(w.lexemes) as whole
        from words as w, unnest(w.lexemes) as l(lexeme), memory_postings as p
        where cardinality(w.lexemes) > 1 and p.tenant = memory_postings_tenant(${key}) and p.lexeme = l.lexeme
        group by w.i, w.phrase, w.lexemes, p.pk, p.length
      ) as parts
      where whole and exists (select from memory_search as s where s.pk = parts.pk and s.terms @@ parts.phrase)
    ), weights as (
      select i, count(*) as documents, ln(1 + (greatest(tenant.n, count(*)) - count(*) + 0.5) / (count(*) + 0.5)) as idf
      from found, tenant group by i, tenant.n
    ), idfs as (
      select array_agg(coalesce(weights.idf, 0) order by words.i) as idf from words left join weights using (i)
    )
    select pk, sum(idfs.idf[i] * tf * ${K1 + 1}::float8
      / (tf + ${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * length / greatest(tenant.average, 1e-9)))) as score,
      bit_or(1::bigint << (i - 1)::int)::text as matched,
      (select n from tenant) as memories,
      (select array_agg((i - 1)::int order by i) from weights) as held_words,
      (select array_agg(documents::int order by i) from weights) as held_counts
    from found, idfs, tenant group by pk
    order by score desc, pk desc limit ${head})`;
  return db
    .selectFrom(ranked.as('ranked'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('memories')
          .selectAll('memories')
          .whereRef('memories.pk', '=', 'ranked.pk')
          .where((w) => inScope(w, scope, { byPk: true }))
          .limit(1)
          .as('m'),
      (join) => join.onTrue(),
    )
    .selectAll('m')
    .select(['ranked.score', 'ranked.matched', 'ranked.memories', 'ranked.held_words', 'ranked.held_counts'])
    .orderBy('ranked.score', 'desc')
    .orderBy('ranked.pk', 'desc')
    .execute();
}

/**
 * The pks of memories holding every word of an admin search, the last word as a prefix, in one key or (null) every
 * key; null when the text has no searchable word. Each word is a phrase query, and the prefix is a quoted lexeme
 * (quotes and backslashes escaped) before ":*", stemmed like the index. In one key, the candidates are the key's
 * postings that start with the last word's stem (a B-tree range: lexemes sort bytewise, collation "C"), each then
 * checked against the whole query; across keys, every memory's tsvector is checked: an admin's search of the whole
 * store reads the whole index (memory_search has no GIN index: GIN never drops a word it once held).
 */
export function listSearchMatches(text: string, apiKeyId: string | null) {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const lastWord = words[words.length - 1]!;
  const last = `'${lastWord.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`;
  const queries = [
    ...words.slice(0, -1).map((w) => sql`phraseto_tsquery('mnemo_english', ${w})`),
    sql`to_tsquery('mnemo_english', ${last})`,
  ];
  const matches = sql`terms @@ (${sql.join(queries, sql` && `)})`;
  if (apiKeyId === null) return sql<number>`(select pk from memory_search where ${matches})`;
  // The stem's range of lexemes; the bound, the stem followed by U+10FFFF, leaves out only lexemes that continue with
  // that noncharacter.
  return sql<number>`(select pk from memory_search where api_key_id = ${apiKeyId} and ${matches} and pk in (
    select p.pk from memory_postings as p,
      (select lexeme from unnest(to_tsvector('mnemo_english', ${lastWord})) order by positions[1] limit 1) as s(stem)
    where p.tenant = memory_postings_tenant(${apiKeyId}) and p.lexeme >= s.stem and p.lexeme < s.stem || chr(1114111)))`;
}

/** A real query against the keyword index (the postings a search reads), and the number of memories it holds; for the engine status. */
export async function probeKeywordIndex(db: Db): Promise<number> {
  await sql`select count(*) from memory_postings where tenant = memory_postings_tenant('mnemoprobe') and lexeme = 'mnemoprobe'`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from memory_search`.execute(db);
  return rows[0]?.n ?? 0;
}
