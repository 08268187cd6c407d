import type { KeywordHits } from '../db/storeDialect.ts';

/**
 * When a keyword match is no evidence that a memory is about the query: the keyword half of HYBRID's relevance floor
 * (relevanceFloor.ts). The rule reads only the query and the key's own statistics (how many of its memories hold each of
 * the query's words), so no other key's memories decide what this key's block holds; it reorders nothing it keeps.
 *
 * A single common word: a memory that shares one word with the query, and a word that tells the key's memories apart no
 * better than chance, is no evidence. Common is held by a fifth of the key's memories and by at least 50 of them ("2" in
 * a third of 5,000 abstracts against "what is 2+2?"): in a key of a few dozen memories a word most of them hold is the
 * key's topic ("trips" in 25 of 36 turns, asked "the order of the three trips I took"), and such counts are too small to
 * tell topic from filler. A number of one or two digits is common whatever the key's size: any text counts things, and a
 * memory that shares only "2" or "10" with a message ("what is 2+2?", "give me 5 ideas") is not about it, which a small
 * key cannot show by its counts ("2" in 7 of 14 turns). Two or more shared words are evidence however common each is: a
 * key whose every memory is about "project falcon" still answers "project falcon notes".
 *
 * A rule on how many of the query's words the key holds at all (nothing from a query the key holds under a fifth of)
 * was measured and dropped: it kept other users' questions out, but in a key of a user's turns alone a real question is
 * mostly phrasing the key never held ("the order of the three trips I took in the past three months" holds only
 * "trips"), and the gateway replay lost R@5 (docs/retrieval-quality.md).
 */

/** A word held by at least this share of the key's memories… */
const COMMON_SHARE = 0.2;
/** …and by at least this many of them is a common word of the key. */
const COMMON_MEMORIES = 50;
/** A number of one or two digits: common in any text. */
const SMALL_NUMBER = /^\d{1,2}$/;

/** The pks of the keyword hits that are no evidence for the query's `words` (as searched, in their order). */
export function weakKeywordMatches(words: readonly string[], hits: KeywordHits): Set<number> {
  return new Set(hits.rows.filter((row) => !isEvidence(words, row.matched, hits)).map((row) => row.pk));
}

/** Whether a memory holding these of the query's words (indices into `words`) is evidence for the query. */
export function isEvidence(
  words: readonly string[],
  matched: readonly number[],
  { memories, holding }: Pick<KeywordHits, 'memories' | 'holding'>,
): boolean {
  if (matched.length !== 1) return matched.length > 1;
  const only = matched[0]!;
  const n = holding[only] ?? 0;
  return !(SMALL_NUMBER.test(words[only] ?? '') || (n >= COMMON_MEMORIES && n >= COMMON_SHARE * memories));
}
