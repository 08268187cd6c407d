import { vectorListTrusted } from './fusion.ts';
import type { RetrievedMemory } from './retrieval.ts';

/** The deepest place in the vector list from which a hit no keyword match backs may still enter a block. */
const VECTOR_ONLY_DEPTH = 6;

/**
 * HYBRID's relevance floor: which fused candidates may enter a block at all, before the budget walk.
 *
 * A memory keyword search found is matched evidence and stays, unless its match is no evidence for this query
 * (keywordEvidence.ts: the memory shares a single word with the query, and a common one: held by a fifth of a large
 * key's memories, or a number of one or two digits; or no hit shares a telling word with the query, one rare in English
 * or the key's topic, as a chat line's "thanks" or a chatty key's "sounds good" is not; or the query names three rarer
 * words the key never holds, and is about something else); such a hit is then judged as
 * the vector tier's alone, when that tier found it too, and left out when not. A floor on BM25 relative to what the
 * query's own words could reach was measured and rejected: to keep a chat line's stray word matches out it had to drop
 * real evidence, R@5 −0.008 on LongMemEval oracle for distractors clean 29% → 39%; docs/retrieval-quality.md.
 * A memory only the vector tier found stays only when that tier's list is evidence for this query (it agrees with
 * the keyword evidence and stands out: fusion.ts, vectorListTrusted), and only from the head of that list: no deeper
 * than one place past as many hits as are keyword evidence, and never past the 6th. Every vector-only hit that was a
 * question's evidence in the dev sets ranked 1st to 6th, while a chat line's vector list is noise at every depth; a key
 * of ten memories asked "Which editor should I configure?" got all ten before, two now. With no keyword evidence at
 * all, the best hit of a list that stands out counts for a real model ("Where do I reside?" against "Lives in
 * Berlin"), nothing for a weak one: averaged word vectors score every memory 0.4–0.7 against "thanks!" or "what is
 * 2+2?", and no dev-set question needed them without a keyword match.
 */
export function aboveRelevanceFloor(
  fused: readonly RetrievedMemory[],
  tiers: {
    keyword: readonly RetrievedMemory[];
    /** The keyword hits whose match is no evidence for the query (keywordEvidence.ts), by pk. */
    weakMatches: ReadonlySet<number>;
    vector: readonly RetrievedMemory[];
    weakModel: boolean;
    similarityFloor: number;
  },
): { kept: RetrievedMemory[]; belowFloor: RetrievedMemory[] } {
  const { weakMatches } = tiers;
  const evidence = tiers.keyword.filter((c) => !weakMatches.has(c.memory.pk));
  const trusted =
    evidence.length === 0 && tiers.weakModel
      ? false
      : vectorListTrusted(
          evidence.map((c) => c.memory.pk),
          tiers.vector.map((c) => ({ id: c.memory.pk, score: c.vectorScore ?? 0 })),
          tiers.similarityFloor,
        );
  const depth = trusted ? Math.min(VECTOR_ONLY_DEPTH, evidence.length + 1) : 0;
  const kept: RetrievedMemory[] = [];
  const belowFloor: RetrievedMemory[] = [];
  for (const c of fused) {
    // A hit whose keyword match is no evidence stands on its vector rank alone (none: the vector tier missed it).
    const vectorOnly = c.tier === 'vector' || (c.tier === 'hybrid' && weakMatches.has(c.memory.pk));
    const below =
      (c.tier === 'keyword' && weakMatches.has(c.memory.pk)) || (vectorOnly && (c.vectorRank ?? Number.POSITIVE_INFINITY) > depth);
    (below ? belowFloor : kept).push(c);
  }
  return { kept, belowFloor };
}
