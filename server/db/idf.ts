/**
 * A word's inverse document frequency in Lucene's form, log(1 + (N − n + 0.5) / (n + 0.5)), for `n` of `documents`
 * texts holding it: never negative, so a word most of a small set shares still counts a little. BM25's IDF in the
 * keyword tier (sqlite/bm25.ts; PostgreSQL's in its SQL) and the weights of a cut's sentences.
 */
export function idf(documents: number, n: number): number {
  return Math.log(1 + (documents - n + 0.5) / (n + 0.5));
}
