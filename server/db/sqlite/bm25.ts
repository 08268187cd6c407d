import { idf } from '../idf.ts';

/**
 * BM25 with the tenant's own statistics. FTS5's bm25() takes a term's document count from the tenant's
 * postings (the tenant terms, see server/db/tenantTerms.ts) but its N from the whole table, which would let
 * every other tenant's data shift this tenant's ranking (and show in its scores). A term searched alone scores
 * idf_fts × tf in FTS5, where tf is FTS5's saturation (k1 = 1.2, b = 0.75 over the row's length, column
 * weights applied) and idf_fts is known from the counts; multiplying by idf / idf_fts swaps in the tenant's
 * IDF, in Lucene's form log(1 + (N − n + 0.5) / (n + 0.5)), which is never negative, so a term most of a small
 * tenant's memories share still counts a little.
 */

export interface TermStatistics {
  /** Rows in the FTS table, all tenants: the N inside FTS5's own IDF. */
  ftsRows: number;
  /** Rows of this tenant: the N of its own IDF. */
  tenantRows: number;
  /** Per query term, the tenant's rows that hold it. */
  termRows: readonly number[];
}

/** Per term, the factor that turns FTS5's bm25() of that term alone into the tenant's BM25 (0: no match). */
export function tenantBm25Weights({ ftsRows, tenantRows, termRows }: TermStatistics): number[] {
  return termRows.map((n) => {
    if (n === 0) return 0;
    // A prefix shared by two keys (one in 10^15) would count the other's rows here too: keep N ≥ n. FTS5 writes
    // its row count at commit, so inside a transaction that added the only rows (the health probe on an empty
    // store) it still reads 0: keep that N ≥ n too, or the logarithm is NaN and the term is dropped.
    const rows = Math.max(tenantRows, n);
    const ftsIdf = Math.max(1e-6, Math.log((Math.max(ftsRows, n) - n + 0.5) / (n + 0.5)));
    return idf(rows, n) / ftsIdf;
  });
}
