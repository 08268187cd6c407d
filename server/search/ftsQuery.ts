import { ftsWords, tenantPrefix } from '../db/tenantTerms.ts';

/**
 * Turns arbitrary user text into an FTS5 MATCH expression that can never be a syntax error or change meaning:
 * every word becomes a quoted string, so operators (AND, NEAR, column:, -, +, *, quotes) are plain words.
 */
export interface FtsQueryOptions {
  /** `all`: every word must match (admin search); `any`: any word may match, BM25 ranks (retrieval). */
  match: 'all' | 'any';
  /** Treat the last word as a prefix, for search-as-you-type. */
  prefixLast?: boolean;
  /** Words to leave out (stop words); ignored when leaving them out would leave nothing. */
  skip?: ReadonlySet<string>;
  /** Searches this key's own terms (see server/db/tenantTerms.ts); null searches every key's words. */
  apiKeyId: string | null;
}

/** Bounds the query so that 64 KB of prose cannot make one MATCH arbitrarily expensive. */
const MAX_TERMS = 64;

/** Returns null when the text holds no searchable word: callers skip the query instead of sending ''. */
export function toFtsQuery(text: string, options: FtsQueryOptions): string | null {
  const phrases = ftsPhrases(text, options);
  return phrases.length === 0 ? null : ftsMatch(phrases, options);
}

/** The text's words as quoted FTS5 strings (with the key's prefix when there is a key); [] when there are none. */
export function ftsPhrases(text: string, options: Omit<FtsQueryOptions, 'match'>): string[] {
  const phrases = quotedWords(chosenWords(text, options.skip), options.apiKeyId);
  if (options.prefixLast && phrases.length > 0) phrases[phrases.length - 1] += '*';
  return phrases;
}

/** Words (as searchWords gives them, without a prefix star) as quoted FTS5 strings in the key's terms, or every key's. */
export function quotedWords(words: readonly string[], apiKeyId: string | null): string[] {
  const prefix = apiKeyId === null ? '' : tenantPrefix(apiKeyId);
  // ftsWords never yields a quote; doubling one keeps any other caller's word a plain string too.
  return words.map((w) => `"${prefix}${w.replaceAll('"', '""')}"`);
}

/**
 * The words a search looks for, as the index reads the text: "c++" is the word "c", and with `prefixLast` the last
 * word ends in "*" (any word starting with it). Shown to the admin, so a search that matches too much explains itself.
 */
export function searchWords(text: string, options: Pick<FtsQueryOptions, 'prefixLast' | 'skip'> = {}): string[] {
  const words = chosenWords(text, options.skip);
  if (options.prefixLast && words.length > 0) words[words.length - 1] += '*';
  return words;
}

function chosenWords(text: string, skip: ReadonlySet<string> | undefined): string[] {
  const words = ftsWords(text);
  const kept = skip ? words.filter((w) => !skip.has(w.toLowerCase())) : words;
  return unique(kept.length > 0 ? kept : words).slice(0, MAX_TERMS);
}

/** Phrases from ftsPhrases, for the same apiKeyId, as one MATCH expression over the columns that key searches. */
export function ftsMatch(phrases: readonly string[], options: Pick<FtsQueryOptions, 'match' | 'apiKeyId'>): string {
  const columns = options.apiKeyId === null ? '{content key}' : '{tenant_content tenant_key}';
  return `${columns} : (${phrases.join(options.match === 'all' ? ' ' : ' OR ')})`;
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
