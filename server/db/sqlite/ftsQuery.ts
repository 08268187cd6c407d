import { chosenWords, type SearchWordOptions } from '../searchWords.ts';
import { tenantPrefix } from '../tenantTerms.ts';

/**
 * Turns arbitrary user text into an FTS5 MATCH expression that can never be a syntax error or change meaning:
 * every word becomes a quoted string, so operators (AND, NEAR, column:, -, +, *, quotes) are plain words.
 */
export interface FtsQueryOptions extends SearchWordOptions {
  /** `all`: every word must match (admin search); `any`: any word may match, BM25 ranks (retrieval). */
  match: 'all' | 'any';
  /** Searches this key's own terms (see db/tenantTerms.ts); null searches every key's words. */
  apiKeyId: string | null;
}

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

/** Phrases from ftsPhrases, for the same apiKeyId, as one MATCH expression over the columns that key searches. */
export function ftsMatch(phrases: readonly string[], options: Pick<FtsQueryOptions, 'match' | 'apiKeyId'>): string {
  const columns = options.apiKeyId === null ? '{content key}' : '{tenant_content tenant_key}';
  return `${columns} : (${phrases.join(options.match === 'all' ? ' ' : ' OR ')})`;
}
