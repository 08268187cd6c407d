/**
 * Turns arbitrary user text into an FTS5 query that can never be a syntax error or change meaning:
 * every word becomes a quoted string, so operators (AND, NEAR, column:, -, +, *, quotes) are plain words.
 */
export interface FtsQueryOptions {
  /** `all`: every word must match (admin search); `any`: any word may match, BM25 ranks (retrieval). */
  match: 'all' | 'any';
  /** Treat the last word as a prefix, for search-as-you-type. */
  prefixLast?: boolean;
  /** Words to leave out (stop words); ignored when leaving them out would leave nothing. */
  skip?: ReadonlySet<string>;
}

const WORD = /[\p{L}\p{N}_]+/gu;
/** Bounds the query so that 64 KB of prose cannot make one MATCH arbitrarily expensive. */
const MAX_TERMS = 64;

export function ftsWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Returns null when the text holds no searchable word: callers skip the query instead of sending ''. */
export function toFtsQuery(text: string, options: FtsQueryOptions): string | null {
  const words = ftsWords(text);
  const kept = options.skip ? words.filter((w) => !options.skip!.has(w.toLowerCase())) : words;
  const chosen = unique(kept.length > 0 ? kept : words).slice(0, MAX_TERMS);
  if (chosen.length === 0) return null;
  const terms = chosen.map((w) => `"${w}"`);
  if (options.prefixLast) terms[terms.length - 1] += '*';
  return terms.join(options.match === 'all' ? ' ' : ' OR ');
}

function unique(words: string[]): string[] {
  const seen = new Set<string>();
  return words.filter((w) => {
    const k = w.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
