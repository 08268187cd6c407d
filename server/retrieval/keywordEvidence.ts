import type { KeywordHits } from '../db/storeDialect.ts';

/**
 * When a keyword match is no evidence that a memory is about the query: the keyword half of HYBRID's relevance floor
 * (relevanceFloor.ts). Both rules read only the query and the key's own statistics (how many of its memories hold each
 * of the query's words), so no other key's memories decide what this key's block holds; neither reorders what it keeps.
 *
 * A query the key barely knows: when the key's memories hold fewer than a fifth of the query's words, the query is about
 * something the key never spoke of, and the one word in five it did match is incidental: another user's question
 * ("suggest accessories to complement my current photography setup") asked of a key whose memories are about an asylum
 * application matches "current" alone, a pasted paragraph on a new topic shares a few everyday words with anything. A
 * question of up to five words is never judged unknown on this ground while any of its words is held. Words with a
 * digit (numbers, ids, the parts of a pasted UUID) are left out of that count: that a key never held an id says nothing
 * about the topic. On LongMemEval oracle no question whose evidence ranked in the first five was this unknown to its key.
 *
 * A single common word: a memory that shares one word with the query, and a word that tells the key's memories apart no
 * better than chance, is no evidence. Common is held by a fifth of the key's memories and by at least 50 of them ("2" in
 * a third of 5,000 abstracts against "what is 2+2?"): in a key of a few dozen memories a word most of them hold is the
 * key's topic ("trips" in 25 of 36 turns, asked "the order of the three trips I took"), and such counts are too small to
 * tell topic from filler. A number of one or two digits is common whatever the key's size: any text counts things, and a
 * memory that shares only "2" or "10" with a message ("what is 2+2?", "give me 5 ideas") is not about it, which a small
 * key cannot show by its counts ("2" in 7 of 14 turns). Two or more shared words are evidence however common each is: a
 * key whose every memory is about "project falcon" still answers "project falcon notes".
 */

/** The share of the query's words (those without a digit) the key must hold for its keyword matches to count. */
const KNOWN_SHARE = 0.2;
/** A word held by at least this share of the key's memories… */
const COMMON_SHARE = 0.2;
/** …and by at least this many of them is a common word of the key. */
const COMMON_MEMORIES = 50;
/** A number of one or two digits: common in any text. */
const SMALL_NUMBER = /^\d{1,2}$/;
const DIGIT = /\d/;

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
  const topical = words.flatMap((w, i) => (DIGIT.test(w) ? [] : [holding[i] ?? 0]));
  if (topical.filter((n) => n > 0).length < KNOWN_SHARE * topical.length) return false;
  if (matched.length !== 1) return matched.length > 1;
  const only = matched[0]!;
  const n = holding[only] ?? 0;
  return !(SMALL_NUMBER.test(words[only] ?? '') || (n >= COMMON_MEMORIES && n >= COMMON_SHARE * memories));
}
