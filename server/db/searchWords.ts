import { ftsWords } from './tenantTerms.ts';

/** How a search reads its text into words; both stores' keyword searches read it this way. */
export interface SearchWordOptions {
  /** Treat the last word as a prefix, for search-as-you-type. */
  prefixLast?: boolean;
  /** Words to leave out (stop words); ignored when leaving them out would leave nothing. */
  skip?: ReadonlySet<string>;
}

/** Bounds the query so that 64 KB of prose cannot make one search arbitrarily expensive. */
const MAX_TERMS = 64;

/**
 * The words a search looks for, as the index reads the text: "c++" is the word "c", and with `prefixLast` the last
 * word ends in "*" (any word starting with it). Shown to the admin, so a search that matches too much explains itself.
 */
export function searchWords(text: string, options: SearchWordOptions = {}): string[] {
  const words = chosenWords(text, options.skip);
  if (options.prefixLast && words.length > 0) words[words.length - 1] += '*';
  return words;
}

/** The text's words, without those in `skip` (unless that leaves none), each once, at most MAX_TERMS. */
export function chosenWords(text: string, skip: ReadonlySet<string> | undefined): string[] {
  const words = ftsWords(text);
  const kept = skip ? words.filter((w) => !skip.has(w.toLowerCase())) : words;
  return unique(kept.length > 0 ? kept : words).slice(0, MAX_TERMS);
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
