import { idf } from '../db/idf.ts';
import { ftsWords } from '../db/tenantTerms.ts';
import { STOP_WORDS } from '../search/stopWords.ts';

/**
 * A long text cut to its sentences most about the query, in their order, with "…" where sentences were left out:
 * what a small budget can still carry of a document whose whole does not fit, or should not take the room of the
 * hits after it. A sentence is worth the query words it holds, each weighted by how rare it is among the texts the
 * block is chosen from (a word every candidate holds tells their sentences apart least); the best sentences are
 * taken while the rendering fits. Measured on LongMemEval's evidence turns cut to 60–240 tokens, this kept the
 * answer more often than every matching sentence cut at the end, or than counting matched words without weights
 * (docs/retrieval-quality.md). Words match when one is the other's stem-length prefix ("trials" and "trial",
 * "inducing" and "induces"), as the keyword index's stemming would have matched them; stop words never do.
 */

/** Letters two words must share from their start to count as one word. */
const STEM = 5;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

const stem = (word: string) => word.toLowerCase().slice(0, STEM);

const contentStems = (text: string) =>
  new Set(
    ftsWords(text)
      .filter((w) => !STOP_WORDS.has(w.toLowerCase()))
      .map(stem),
  );

/** The query's content words as the cut compares them. */
export function queryStems(query: string): ReadonlySet<string> {
  return contentStems(query);
}

/** Each query word's weight: its IDF among `texts` (db/idf.ts), as the keyword search's BM25 has it. */
export function stemWeights(query: ReadonlySet<string>, texts: readonly string[]): ReadonlyMap<string, number> {
  const held = texts.map(contentStems);
  return new Map(
    [...query].map((s) => {
      const n = held.filter((h) => h.has(s)).length;
      return [s, idf(texts.length, n)];
    }),
  );
}

/**
 * The text's sentences most about the query that fit (`fits` is asked of each rendering), in their order, with "…"
 * for each run left out. When not even the best sentence fits, that sentence alone, for the caller to shorten. Null
 * when no sentence holds a query word, or when every sentence would be kept (nothing to cut).
 */
export function bestSentences(text: string, weights: ReadonlyMap<string, number>, fits: (rendering: string) => boolean): string | null {
  const all = [...sentences.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '');
  const worth = all.map((s) => [...contentStems(s)].reduce((sum, w) => sum + (weights.get(w) ?? 0), 0));
  // Best first; of two equally good, the earlier.
  const order = all
    .map((_, i) => i)
    .filter((i) => worth[i]! > 0)
    .sort((a, b) => worth[b]! - worth[a]! || a - b);
  if (order.length === 0) return null;
  const render = (kept: ReadonlySet<number>) => {
    const parts: string[] = [];
    for (const [i, sentence] of all.entries()) {
      if (kept.has(i)) parts.push(sentence);
      else if (parts.at(-1) !== '…') parts.push('…');
    }
    return parts.join(' ');
  };
  const kept = new Set<number>();
  for (const i of order) if (fits(render(new Set(kept).add(i)))) kept.add(i);
  const chosen = kept.size > 0 ? kept : new Set([order[0]!]);
  return chosen.size === all.length ? null : render(chosen);
}
