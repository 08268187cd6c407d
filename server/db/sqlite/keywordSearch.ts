import { sql } from 'kysely';
import type { Db } from '../open.ts';
import { rankFromPostings } from '../postingsRanking.ts';
import { firstInScope } from '../rankedHead.ts';
import { rowCount } from '../rowCount.ts';
import type { MemoryRow } from '../schema.ts';
import { inScope, type RetrievalScope } from '../scope.ts';
import type { KeywordHits } from '../storeDialect.ts';
import { tenantBm25Weights } from './bm25.ts';
import { indexAverages } from './fts5Records.ts';
import { ftsMatch, quotedWords, toFtsQuery } from './ftsQuery.ts';
import { keywordIndexOf, TENANT_COLUMN_WEIGHTS } from './keywordIndex.ts';

/**
 * The keyword tier on SQLite: FTS5 over per-tenant terms (db/tenantTerms.ts), ranked by bm25() reweighted to
 * each key's own statistics (bm25.ts), or, with the same scores, from the key's postings held in this process's memory
 * (keyPostings.ts, keywordIndex.ts). db/postgres/keywordSearch.ts keeps the same contract on PostgreSQL.
 */

/**
 * BM25-ranked keyword candidates. Each word is matched in the key's own terms and ranked with the key's own
 * statistics; only the best rows are read from the memories table. When the scope filters (expired memories, other
 * sessions') drop too much of that head, a longer one is taken. No candidate cap: an old memory that matches well is
 * found however many memories the key has.
 */
export async function keywordCandidates(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits> {
  return (await fromPostings(db, scope, words, limit)) ?? (await fromFts(db, scope, words, limit));
}

/**
 * The ranking from the key's postings in this process's memory (keywordIndex.ts), when they are at hand: not inside a
 * transaction, whose own uncommitted changes a rollback could take back behind the postings' back; not while a large
 * key's postings are being built; not for a word FTS5 would read as a phrase.
 */
async function fromPostings(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits | null> {
  if (db.isTransaction) return null;
  const index = keywordIndexOf(db);
  const terms = await index.termsOf(db, scope.apiKeyId, words);
  const held = terms && (await index.postings(db, scope.apiKeyId));
  if (!terms || !held) return null;
  return rankFromPostings(db, scope, terms, held, limit, pkIn);
}

const pkIn = (pks: readonly number[]) => sql<boolean>`memories.pk in (select value from json_each(${JSON.stringify(pks)}))`;

/** The ranking from FTS5's own statement: each word's bm25() weighted to the key's IDF, summed per row by SQLite. */
async function fromFts(db: Db, scope: RetrievalScope, words: readonly string[], limit: number): Promise<KeywordHits> {
  const matches = quotedWords(words, scope.apiKeyId).map((phrase) => ftsMatch([phrase], { match: 'any', apiKeyId: scope.apiKeyId }));
  const stats = await termStatistics(db, scope.apiKeyId, matches);
  const weights = tenantBm25Weights(stats);
  const terms = matches.map((match, i) => ({ match, word: i, weight: weights[i]! })).filter((t) => t.weight > 0);
  const matched = stats.termRows.reduce((sum, n) => sum + n, 0);
  const hits = { memories: stats.tenantRows, holding: [...stats.termRows] };
  if (terms.length === 0) return { ...hits, rows: [] };
  const rows = await firstInScope(limit, async (head) => ({
    rows: await rankedInScope(db, scope, terms, head),
    exhausted: head >= matched,
  }));
  return { ...hits, rows };
}

/** Rows in the FTS table, the key's rows, and the key's rows holding each term, in one round trip. */
async function termStatistics(db: Db, apiKeyId: string, matches: readonly string[]) {
  const counts = matches.map(
    (match, i) => sql`(select count(*) from memories_fts where memories_fts match ${match}) as ${sql.ref(`t${i}`)}`,
  );
  const { rows } = await sql<Record<string, number> & { averages: Uint8Array | null; tenant: number | null }>`select
      (select block from memories_fts_data where id = 1) as averages,
      (select memories from memory_counts where api_key_id = ${apiKeyId}) as tenant,
      ${sql.join(counts)}`.execute(db);
  const row = rows[0]!;
  return {
    ftsRows: indexAverages(row.averages).rows,
    tenantRows: row.tenant ?? 0,
    termRows: matches.map((_, i) => row[`t${i}`] as number),
  };
}

/** The `head` best-ranked rows of the key, then only those of them in scope, best first. */
async function rankedInScope(
  db: Db,
  scope: RetrievalScope,
  terms: readonly { match: string; word: number; weight: number }[],
  head: number,
) {
  // The all-keys columns are not searched here: weight 0. Each row also says which words it matched (their indices,
  // comma-separated), for the relevance floor.
  const { tenant_content, tenant_key } = TENANT_COLUMN_WEIGHTS;
  const scored = terms.map(
    (t) =>
      sql`select rowid, ${t.word} as w, bm25(memories_fts, 0.0, 0.0, ${sql.lit(tenant_content)}, ${sql.lit(tenant_key)}) * ${t.weight} as s from memories_fts where memories_fts match ${t.match}`,
  );
  // "limit -1" (no limit) keeps SQLite from flattening the scores into the aggregate, where FTS5 refuses to
  // run a lone term's bm25(); it is cheaper than materializing them.
  const ranked = sql<{ pk: number; bm25: number; words: string }>`(select rowid as pk, sum(s) as bm25, group_concat(w) as words
    from (${sql.join(scored, sql` union all `)} limit -1)
    group by rowid order by bm25, rowid desc limit ${rowCount(head)})`;
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .innerJoin('memories', 'memories.pk', 'ranked.pk')
    .selectAll('memories')
    .select(['ranked.bm25', 'ranked.words'])
    .where((eb) => inScope(eb, scope, { byPk: true }))
    .orderBy('ranked.bm25')
    .orderBy('ranked.pk', 'desc')
    .execute();
  // Each row as read, given its score and matched words: copying every column of every row (a rest spread) cost more
  // than the rest of the keyword tier's JavaScript (0.6 ms for 75 rows).
  return rows.map((row): MemoryRow & { score: number; matched: number[] } =>
    Object.assign(row, { score: -row.bm25, matched: String(row.words).split(',').map(Number) }),
  );
}

/**
 * The pks of memories holding every word of an admin search (the last word as a prefix), in the key's terms or,
 * with no key, in every key's words; null when the text has no searchable word.
 */
export function listSearchMatches(text: string, apiKeyId: string | null) {
  const query = toFtsQuery(text, { match: 'all', prefixLast: true, apiKeyId });
  return query === null ? null : sql<number>`(select rowid from memories_fts where memories_fts match ${query})`;
}

/** A real FTS5 query against the keyword index, and the number of memories it holds; for the engine status. */
export async function probeKeywordIndex(db: Db): Promise<number> {
  await sql`select count(*) from memories_fts where memories_fts match '"mnemoprobe"'`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from memories_fts_docsize`.execute(db);
  return rows[0]?.n ?? 0;
}
