/** A seeded generator of numbers in [0, 1), so that a failing generated case can be run again. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
