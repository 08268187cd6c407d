import { idf } from '../idf.ts';

/**
 * One key's keyword postings in memory, and BM25 over them exactly as the FTS5 statement of keywordSearch.ts ranks:
 * bm25() of fts5_aux.c (k1 = 1.2, b = 0.75, a term's frequency weighted by its column, a memory's length over all the
 * index's columns against the whole index's average) with the key's own IDF (bm25.ts). Plain data and arithmetic:
 * keywordIndex.ts fills it from the database and keeps it in step.
 *
 * FTS5 computes bm25() on every row a word matches and SQLite then groups the per-word scores of each row, about
 * 2 µs a match; here a match costs an add and a division, and only the best rows are ordered.
 */

const K1 = 1.2;
const B = 0.75;

/** A memory as the postings hold it: its length in tokens, and each of its terms with the term's weighted frequency. */
export interface PostedMemory {
  pk: number;
  length: number;
  terms: ReadonlyMap<string, number>;
}

/**
 * The memories holding a term: pairs of a memory's slot (see KeyPostings) and the term's weighted frequency in it, in
 * one plain array: most terms of a key are held by one or two memories, and a typed array costs several times more
 * than such a pair.
 */
class PostingList {
  readonly entries: number[] = [];

  get length(): number {
    return this.entries.length / 2;
  }

  add(slot: number, frequency: number) {
    this.entries.push(slot, frequency);
  }

  /** Order within a list means nothing, so the last pair takes the removed one's place. */
  remove(slot: number) {
    const { entries } = this;
    let i = 0;
    while (i < entries.length && entries[i] !== slot) i += 2;
    if (i === entries.length) return;
    const frequency = entries.pop()!;
    const last = entries.pop()!;
    if (i < entries.length) {
      entries[i] = last;
      entries[i + 1] = frequency;
    }
  }
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The memories a search matched, each once, with its score and the words it holds (bits of the word's index). */
export class Ranking {
  constructor(
    private readonly pks: Int32Array,
    private readonly scores: Float64Array,
    private readonly low: Uint32Array,
    private readonly high: Uint32Array,
  ) {}

  /** How many memories hold any of the words. */
  get matched(): number {
    return this.pks.length;
  }

  /** The best `n`, best first; equal scores newest (highest pk) first, as the FTS5 statement orders them. */
  top(n: number): { pk: number; score: number; matched: number[] }[] {
    const best = this.best(n);
    return best.map((i) => ({ pk: this.pks[i]!, score: this.scores[i]!, matched: this.wordsOf(i) }));
  }

  private before(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a > b || (a === b && this.pks[i]! > this.pks[j]!);
  }

  /** A heap of the best n seen so far, worst at its root: each match costs a comparison, a better one log n. */
  private best(n: number): number[] {
    const heap: number[] = [];
    const worse = (a: number, b: number) => this.before(b, a);
    for (let i = 0; i < this.pks.length; i++) {
      if (heap.length < n) {
        heap.push(i);
        siftUp(heap, heap.length - 1, worse);
      } else if (n > 0 && this.before(i, heap[0]!)) {
        heap[0] = i;
        siftDown(heap, 0, worse);
      }
    }
    return heap.sort((a, b) => (this.before(a, b) ? -1 : 1));
  }

  private wordsOf(i: number): number[] {
    const words: number[] = [];
    for (let w = 0; w < 32; w++) if (this.low[i]! & (1 << w)) words.push(w);
    for (let w = 0; w < 32; w++) if (this.high[i]! & (1 << w)) words.push(32 + w);
    return words;
  }
}

function siftUp(heap: number[], at: number, worse: (a: number, b: number) => boolean) {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!worse(heap[at]!, heap[parent]!)) return;
    [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
    at = parent;
  }
}

function siftDown(heap: number[], at: number, worse: (a: number, b: number) => boolean) {
  for (;;) {
    const left = 2 * at + 1;
    let worst = at;
    if (left < heap.length && worse(heap[left]!, heap[worst]!)) worst = left;
    if (left + 1 < heap.length && worse(heap[left + 1]!, heap[worst]!)) worst = left + 1;
    if (worst === at) return;
    [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
    at = worst;
  }
}

/**
 * A key's postings. Memories live in slots (reused after a delete) so that per-memory figures are typed arrays
 * indexed by slot rather than maps keyed by pk.
 */
export class KeyPostings {
  private readonly slotOf = new Map<number, number>();
  /** Terms by number, and each memory's terms as those numbers: numbers, not references, which V8's collector skips. */
  private readonly termIds = new Map<string, number>();
  private readonly lists: PostingList[] = [];
  private pkOf = new Int32Array(16);
  private lengthOf = new Float64Array(16);
  private termsOf: number[][] = [];
  private readonly freeSlots: number[] = [];
  /** Per slot, a search's sums and word bits: zero between searches, so each search clears only the slots it used. */
  private sums = { scores: new Float64Array(0), low: new Uint32Array(0), high: new Uint32Array(0) };
  /** Postings held, for the cache's budget. */
  postings = 0;

  /** The key's memories in the index: the N of its IDF. */
  get memories(): number {
    return this.slotOf.size;
  }

  /** How many of the key's memories hold the term. */
  holding(term: string): number {
    return this.listOf(term)?.length ?? 0;
  }

  has(pk: number): boolean {
    return this.slotOf.has(pk);
  }

  /** Adds a memory, or replaces what was held for it. */
  put(memory: PostedMemory) {
    this.remove(memory.pk);
    const slot = this.freeSlots.pop() ?? this.termsOf.length;
    if (slot >= this.pkOf.length) {
      this.pkOf = grown(this.pkOf, new Int32Array(this.pkOf.length * 2));
      this.lengthOf = grown(this.lengthOf, new Float64Array(this.lengthOf.length * 2));
    }
    this.slotOf.set(memory.pk, slot);
    this.pkOf[slot] = memory.pk;
    this.lengthOf[slot] = memory.length;
    this.termsOf[slot] = [];
    for (const [term, frequency] of memory.terms) this.post(slot, term, frequency);
  }

  /** Adds one term of a memory already put (a build reads the index a term at a time). */
  addTerm(pk: number, term: string, frequency: number) {
    const slot = this.slotOf.get(pk);
    if (slot !== undefined) this.post(slot, term, frequency);
  }

  private post(slot: number, term: string, frequency: number) {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.lists.push(new PostingList()) - 1;
      this.termIds.set(term, id);
    }
    this.lists[id]!.add(slot, frequency);
    this.termsOf[slot]!.push(id);
    this.postings++;
  }

  remove(pk: number) {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    for (const id of this.termsOf[slot]!) this.lists[id]!.remove(slot);
    this.postings -= this.termsOf[slot]!.length;
    this.termsOf[slot] = [];
    this.slotOf.delete(pk);
    this.freeSlots.push(slot);
    // An emptied list stays until the postings are built anew: a term once held is likely to come back.
  }

  private listOf(term: string): PostingList | undefined {
    const id = this.termIds.get(term);
    return id === undefined ? undefined : this.lists[id];
  }

  private scratch() {
    const slots = this.termsOf.length;
    if (this.sums.scores.length < slots) {
      const size = Math.max(slots, this.sums.scores.length * 2);
      this.sums = { scores: new Float64Array(size), low: new Uint32Array(size), high: new Uint32Array(size) };
    }
    return this.sums;
  }

  /**
   * Every memory holding any of the terms (a null term matches nothing), scored. `averageLength` is the whole index's
   * tokens per row, as FTS5 keeps it. At most 64 terms: the bits of a memory's words.
   */
  rank(terms: readonly (string | null)[], averageLength: number): Ranking {
    if (terms.length > 64) throw new RangeError(`at most 64 terms are ranked at once (${terms.length} given)`);
    const { scores, low, high } = this.scratch();
    const lengths = this.lengthOf;
    // bm25()'s denominator, f + k1·(1 − b + b·D/avgdl), as f + flat + perToken·D.
    const flat = K1 * (1 - B);
    const perToken = (K1 * B) / averageLength;
    const touched: number[] = [];
    terms.forEach((term, w) => {
      const list = term === null ? undefined : this.listOf(term);
      if (!list || list.length === 0) return;
      const weight = idf(this.memories, list.length) * (K1 + 1);
      const bits = w < 32 ? low : high;
      const bit = 1 << (w % 32);
      const { entries } = list;
      for (let i = 0; i < entries.length; i += 2) {
        const slot = entries[i]!;
        const f = entries[i + 1]!;
        // Every match scores above 0 (the IDF is never 0 or less): 0 is a slot not yet touched.
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += (weight * f) / (f + flat + perToken * lengths[slot]!);
        bits[slot]! |= bit;
      }
    });
    const pks = new Int32Array(touched.length);
    const matchedScores = new Float64Array(touched.length);
    const matchedLow = new Uint32Array(touched.length);
    const matchedHigh = new Uint32Array(touched.length);
    touched.forEach((slot, i) => {
      pks[i] = this.pkOf[slot]!;
      matchedScores[i] = scores[slot]!;
      matchedLow[i] = low[slot]!;
      matchedHigh[i] = high[slot]!;
      scores[slot] = low[slot] = high[slot] = 0;
    });
    return new Ranking(pks, matchedScores, matchedLow, matchedHigh);
  }
}
