import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * Per-tenant keyword terms. Every word of a memory is indexed a second time glued to a short prefix derived
 * from its API key ("bcdfgh…" + "deploy"), so each tenant has doclists of its own: a keyword search reads
 * and ranks only that tenant's postings, its BM25 document frequencies are the tenant's own, and the cost of
 * a search does not grow with the other tenants' data (an AND with one tenant token would still walk every
 * tenant's postings of common words). The plain columns stay for admin search across keys.
 *
 * The prefix is consonants only, so the porter stemmer sees nearly the same word: a vowel-free prefix
 * leaves the word's measure alone, and only words of one or two letters stem differently, the same way in
 * the index and the query. It is baked into the index: changing it needs a migration that rebuilds it.
 */

/**
 * Words as the unicode61 tokenizer splits them: letters, digits and private-use characters, with the marks
 * that combine with them. A mark alone is no word: the tokenizer drops it, which would leave a bare prefix.
 */
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{M}\p{Co}]*/gu;
const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
/** 20^12 ≈ 4·10^15 prefixes: two keys sharing one only share ranking statistics; SQL still filters by key. */
const PREFIX_LENGTH = 12;

export function ftsWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

const prefixes = new LRUCache<string, string>({ max: 10_000 });

export function tenantPrefix(apiKeyId: string): string {
  let prefix = prefixes.get(apiKeyId);
  if (prefix === undefined) {
    let n = createHash('sha256').update(apiKeyId, 'utf8').digest().readBigUInt64BE(0);
    prefix = '';
    for (let i = 0; i < PREFIX_LENGTH; i++, n /= 20n) prefix += CONSONANTS[Number(n % 20n)];
    prefixes.set(apiKeyId, prefix);
  }
  return prefix;
}

/** The text of a tenant column: each word with the tenant's prefix. */
export function tenantTerms(apiKeyId: string, text: string): string {
  const prefix = tenantPrefix(apiKeyId);
  return ftsWords(text)
    .map((word) => prefix + word)
    .join(' ');
}

/**
 * The FTS triggers call mnemo_tenant_terms(api_key_id, text), so every connection that writes memories
 * needs it; mnemo's own connections register it in openDatabase. (A plain sqlite3 shell can read the
 * database, but cannot insert or edit memories.)
 */
export function registerTenantTerms(sqlite: SQLite.Database): void {
  sqlite.function('mnemo_tenant_terms', { deterministic: true }, (apiKeyId: unknown, text: unknown) =>
    typeof apiKeyId === 'string' && typeof text === 'string' ? tenantTerms(apiKeyId, text) : null,
  );
}
