/** One ranked list entering the fusion: the items best first, and how much this tier counts. */
export interface RankedList<T> {
  items: readonly T[];
  weight: number;
}

export interface Fused<T> {
  item: T;
  score: number;
  /** The item's 1-based rank in each list, or null where the list did not have it. */
  ranks: (number | null)[];
}

/**
 * Reciprocal Rank Fusion: score = Σ weight / (k + rank). Rank-based, so BM25 and cosine scores never need
 * to be put on one scale, and an item both tiers like beats one only a single tier likes.
 */
export function reciprocalRankFusion<T>(lists: readonly RankedList<T>[], key: (item: T) => string | number, k: number): Fused<T>[] {
  const byKey = new Map<string | number, Fused<T>>();
  lists.forEach((list, li) => {
    list.items.forEach((item, i) => {
      const id = key(item);
      let entry = byKey.get(id);
      if (!entry) {
        entry = { item, score: 0, ranks: lists.map(() => null) };
        byKey.set(id, entry);
      }
      entry.ranks[li] = i + 1;
      entry.score += list.weight / (k + i + 1);
    });
  });
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}
