/**
 * Near-duplicate suppression for the injected block: a memory that repeats one already taken, nearly word for
 * word, adds nothing but tokens, so the budget walk leaves it out and goes on to the next. Near means that the
 * two texts' word pairs (lower-cased word bigrams, so word order counts: "prefers Helix over Vim" and "prefers
 * Vim over Helix" differ) overlap by at least NEAR_DUPLICATE (Jaccard). At 0.9, a sentence of 20 words that
 * differs in one word (another date, another name) is still a different memory; a restatement that only adds
 * or drops a word at the edge of a long one, or differs in case and punctuation, is a repeat.
 */
export const NEAR_DUPLICATE = 0.9;

/** The texts taken so far, to test the next one against; `dropped` counts the texts refused. */
export class DistinctTexts {
  private readonly taken: Set<number>[] = [];
  /** Each word seen gets a number, so a word pair is one number instead of a new string. */
  private readonly words = new Map<string, number>();
  dropped = 0;

  /** Takes the text unless it nearly repeats one taken before; `always` takes it regardless (enforced memories). */
  admit(text: string, o: { always?: boolean } = {}): boolean {
    const pairs = this.wordPairs(text);
    if (!o.always && this.taken.some((t) => nearlyEqual(t, pairs))) {
      this.dropped++;
      return false;
    }
    this.taken.push(pairs);
    return true;
  }

  private wordPairs(text: string): Set<number> {
    const ids = (text.toLowerCase().match(WORD) ?? []).map((w) => {
      const known = this.words.get(w);
      if (known !== undefined) return known;
      const id = this.words.size + 1;
      this.words.set(w, id);
      return id;
    });
    if (ids.length < 2) return new Set(ids);
    const pairs = new Set<number>();
    // Past 2^26 distinct words in one retrieval, two pairs could share a number: far beyond any block.
    for (let i = 1; i < ids.length; i++) pairs.add(ids[i - 1]! * 2 ** 26 + ids[i]!);
    return pairs;
  }
}

/** Runs of letters and digits: close enough to the keyword index's words for telling repeats, and cheap. */
const WORD = /[\p{L}\p{N}]+/gu;

function nearlyEqual(a: Set<number>, b: Set<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  // Jaccard is at most |small| / |large|: most pairs are told apart by their sizes alone.
  if (large.size === 0) return true;
  if (small.size < NEAR_DUPLICATE * large.size) return false;
  // shared / (|small| + |large| − shared) ≥ t  ⇔  shared ≥ t (|small| + |large|) / (1 + t): stop once too many miss.
  let misses = small.size - (NEAR_DUPLICATE * (small.size + large.size)) / (1 + NEAR_DUPLICATE);
  for (const s of small) if (!large.has(s) && --misses < 0) return false;
  return true;
}
