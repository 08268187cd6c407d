import type { Memory } from '../memory/memory.ts';

/**
 * Session context: the memory written just before or after one of the best hits, in the same session, is often
 * what that hit was about. In a conversation the words of a question come back in the answer next to it, while
 * the turn that holds the fact may not repeat them ("I switched to Helix last week" beside "Which editor did
 * you say you use?"). So the neighbours of the first ADJACENT_SOURCES hits get a small boost: a tenth of their
 * hit's score, both min–max normalised over the ranking, added to their own (0 when no tier found them).
 *
 * Bounded: a neighbour never rises to or above the hit it sits next to, so the boost can reorder what follows a
 * hit but never the hits themselves. Measured with `npm run eval` (README, Retrieval quality): on LongMemEval it
 * lifts keyword search (R@10 0.935 → 0.952) and HYBRID; with a semantic model alone it cost a little (the model
 * already finds those turns), so retrieval applies it only to rankings keyword search took part in.
 */

/**
 * Whether a hit's neighbour takes its boost: not when both are messages of one speaker. A question and its answer sit
 * next to each other; two user messages with the answer between them not kept (captureTurns USER) are only two
 * things said one after the other. Measured through the gateway path on LongMemEval (docs/retrieval-quality.md).
 */
export function answersEachOther(hit: Pick<Memory, 'metadata'>, neighbour: Pick<Memory, 'metadata'>): boolean {
  const role = (m: Pick<Memory, 'metadata'>) => (typeof m.metadata.role === 'string' ? m.metadata.role : null);
  return role(hit) === null || role(hit) !== role(neighbour);
}

/** The hits, best first, whose session neighbours are boosted. */
export const ADJACENT_SOURCES = 5;
/** A neighbour's boost as a share of its hit's normalised score. */
export const ADJACENT_BOOST = 0.1;
/** How far below its hit a neighbour stays at most, in normalised score. */
const BELOW_HIT = 1e-9;

export interface Scored<T> {
  item: T;
  score: number;
}

/** A memory next to a hit: `of` is the hit's id; `item` is the neighbour as it would enter the ranking. */
export interface Neighbour<T> {
  id: number;
  of: number;
  item: T;
  /** False when it does not answer its hit (answersEachOther): it is never raised, only added after the ranking. */
  boost: boolean;
}

export interface Adjacent<T> extends Scored<T> {
  /** The hit whose neighbour raised this item, or null. */
  adjacentTo: number | null;
  /** True when only adjacency brought the item in (no tier found it). */
  added: boolean;
}

/**
 * The ranking with the neighbours' boosts applied, best first; items the boost leaves alone keep their score
 * and their order relative to each other. `ranked` must be best first.
 */
export function boostNeighbours<T>(
  ranked: readonly Scored<T>[],
  neighbours: readonly Neighbour<T>[],
  id: (item: T) => number,
): Adjacent<T>[] {
  // Written out, not spread: V8 (Node 20) keeps an object made by spreading another and adding properties through
  // young-generation collections, and a retrieve's every candidate reached the old generation that way.
  const out: Adjacent<T>[] = ranked.map((r) => ({ item: r.item, score: r.score, adjacentTo: null, added: false }));
  if (ranked.length === 0 || neighbours.length === 0) return out;
  const high = ranked[0]!.score;
  const low = ranked[ranked.length - 1]!.score;
  const span = high > low ? high - low : 1;
  const normalised = (score: number) => (score - low) / span;
  const scoreOf = new Map(ranked.map((r) => [id(r.item), r.score]));
  // Each neighbour takes the best hit it sits next to.
  const best = new Map<number, { of: number; hitScore: number; item: T }>();
  for (const n of neighbours) {
    const hitScore = scoreOf.get(n.of);
    if (!n.boost || hitScore === undefined || n.id === n.of) continue;
    const seen = best.get(n.id);
    if (!seen || seen.hitScore < hitScore) best.set(n.id, { of: n.of, hitScore, item: n.item });
  }
  const boosted = (own: number | null, hitScore: number) => {
    const hit = normalised(hitScore);
    const raised = Math.min((own === null ? 0 : normalised(own)) + ADJACENT_BOOST * hit, hit - BELOW_HIT);
    return low + raised * span;
  };
  for (const entry of out) {
    const b = best.get(id(entry.item));
    if (!b || entry.score >= b.hitScore) continue;
    const score = boosted(entry.score, b.hitScore);
    if (score > entry.score) Object.assign(entry, { score, adjacentTo: b.of });
  }
  for (const [neighbourId, b] of best) {
    if (scoreOf.has(neighbourId)) continue;
    out.push({ item: b.item, score: boosted(null, b.hitScore), adjacentTo: b.of, added: true });
  }
  // Below everything found, in the order of their hits: context, not evidence.
  const followers = new Set<number>();
  for (const n of neighbours) {
    if (n.boost || scoreOf.has(n.id) || best.has(n.id) || followers.has(n.id) || !scoreOf.has(n.of)) continue;
    followers.add(n.id);
    out.push({ item: n.item, score: low - BELOW_HIT * span, adjacentTo: n.of, added: true });
  }
  // Stable: equal scores keep the ranking's order, added neighbours last.
  return out.sort((a, b) => b.score - a.score);
}
