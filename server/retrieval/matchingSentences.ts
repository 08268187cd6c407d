import { ftsWords } from '../db/tenantTerms.ts';
import { STOP_WORDS } from '../search/stopWords.ts';

/**
 * A long text cut to the sentences that share a word with the query, in their order, with "…" where sentences were
 * left out: what a small budget can still carry of a document whose whole does not fit. Words match when one is the
 * other's stem-length prefix ("trials" and "trial", "inducing" and "induces"), as the keyword index's stemming would
 * have matched them; stop words never do. Null when no sentence matches or every sentence does (nothing to cut).
 */

/** Letters two words must share from their start to count as one word. */
const STEM = 5;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

const stem = (word: string) => word.toLowerCase().slice(0, STEM);

/** The query's content words as the cut compares them. */
export function queryStems(query: string): ReadonlySet<string> {
  return new Set(
    ftsWords(query)
      .filter((w) => !STOP_WORDS.has(w.toLowerCase()))
      .map(stem),
  );
}

export function matchingSentences(text: string, query: ReadonlySet<string>): string | null {
  if (query.size === 0) return null;
  const all = [...sentences.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '');
  const kept = all.map((s) => ftsWords(s).some((w) => !STOP_WORDS.has(w.toLowerCase()) && query.has(stem(w))));
  if (!kept.includes(true) || !kept.includes(false)) return null;
  const parts: string[] = [];
  for (const [i, sentence] of all.entries()) {
    if (kept[i]) parts.push(sentence);
    else if (parts.at(-1) !== '…') parts.push('…');
  }
  return parts.join(' ');
}
