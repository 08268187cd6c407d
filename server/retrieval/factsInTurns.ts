import type { Memory } from '../memory/memory.ts';
import type { RetrievedMemory } from './retrieval.ts';

/**
 * A fact extracted from a captured turn restates part of that turn ("Prefers green tea over coffee" from "I've cut
 * caffeine, so green tea over coffee for me these days"), without the rest of what was said. When a ranking finds
 * both, they are one statement: the block holds it once, as the turn, which carries the fact's own words and their
 * context, and the slot and tokens the fact would take go to the next memory. So the turn moves up to the place of its
 * best-ranked fact and the facts follow it, to be taken only if the turn is not (it did not fit the budget, or it
 * repeats one taken). Measured through the gateway path on LongMemEval (docs/retrieval-quality.md).
 */
export function turnsAtTheirFactsPlace(ranked: readonly RetrievedMemory[]): RetrievedMemory[] {
  const byId = new Map(ranked.map((c) => [c.memory.id, c]));
  // An enforced fact is pinned to every block: it stays where it is.
  const turnFound = (c: RetrievedMemory) => {
    const turn = c.tier === 'enforced' ? null : turnOf(c.memory);
    return turn !== null && byId.has(turn) ? turn : null;
  };
  const factsOf = new Map<string, RetrievedMemory[]>();
  for (const c of ranked) {
    const turn = turnFound(c);
    if (turn !== null) factsOf.set(turn, [...(factsOf.get(turn) ?? []), c]);
  }
  if (factsOf.size === 0) return [...ranked];
  const out: RetrievedMemory[] = [];
  const placed = new Set<string>();
  const place = (c: RetrievedMemory) => {
    if (placed.has(c.memory.id)) return;
    placed.add(c.memory.id);
    out.push(c);
  };
  for (const c of ranked) {
    const turnId = factsOf.has(c.memory.id) ? c.memory.id : turnFound(c);
    if (turnId === null) {
      place(c);
      continue;
    }
    if (placed.has(turnId)) continue;
    const turn = byId.get(turnId)!;
    // At the place of the better of the two, with its score, so the scores still go down the ranking.
    place(turn.score >= c.score ? turn : { ...turn, score: c.score });
    for (const fact of factsOf.get(turnId)!) place(fact);
  }
  return out;
}

/** The id of the captured turn a fact was said in (metadata.sourceTurn, gateway/storeFacts.ts), or null. */
export function turnOf(memory: Memory): string | null {
  const source = memory.metadata.sourceTurn;
  return typeof source === 'string' ? source : null;
}
