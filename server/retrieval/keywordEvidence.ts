import type { KeywordHits } from '../db/storeDialect.ts';

/**
 * When a keyword match is no evidence that a memory is about the query: the keyword half of HYBRID's relevance floor
 * (relevanceFloor.ts). Both rules read only the key's own statistics (how many of its memories hold each of the query's
 * words), so no other key's memories decide what this key's block holds; neither reorders what it keeps.
 *
 * A query the key barely knows: when the key's memories hold fewer than a fifth of the query's words, the query is about
 * something the key never spoke of, and the one word in five it did match is incidental: another user's question
 * ("suggest accessories to complement my current photography setup") asked of a key whose memories are about an asylum
 * application matches "current" alone, a pasted paragraph on a new topic shares a few everyday words with anything. A
 * question of up to five words is never judged unknown on this ground while any of its words is held. On LongMemEval
 * oracle no question whose evidence ranked in the first five was this unknown to its key.
 *
 * Matches on common words only: a word that a fifth of the key's memories hold, and at least 50 of them, tells none of
 * them apart ("2" in a third of 5,000 abstracts against "what is 2+2?"); a memory whose every matched word is that
 * common is no evidence. A word needs both counts to be common: in a key of a few dozen memories a word most of them
 * hold is the key's topic ("trips" in 25 of 36 turns, asked "the order of the three trips I took"), not filler, and
 * such counts are too small to tell the two apart.
 */

/** The share of the query's words the key must hold for its keyword matches to count. */
const KNOWN_SHARE = 0.2;
/** A word held by at least this share of the key's memories… */
const COMMON_SHARE = 0.2;
/** …and by at least this many of them is a common word of the key. */
const COMMON_MEMORIES = 50;

/** The pks of the keyword hits that are no evidence for this query. */
export function weakKeywordMatches(hits: KeywordHits): Set<number> {
  return new Set(hits.rows.filter((row) => !isEvidence(row.matched, hits)).map((row) => row.pk));
}

/** Whether a memory holding these of the query's words (indices into them) is evidence for the query. */
export function isEvidence(matched: readonly number[], { memories, holding }: Pick<KeywordHits, 'memories' | 'holding'>): boolean {
  const known = holding.filter((n) => n > 0).length;
  if (known < KNOWN_SHARE * holding.length) return false;
  const common = (n: number) => n >= COMMON_MEMORIES && n >= COMMON_SHARE * memories;
  return !matched.every((w) => common(holding[w] ?? 0));
}
