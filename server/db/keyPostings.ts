import quickselect from 'quickselect';
import { idf } from './idf.ts';

/**
 * One key's keyword postings in memory, and BM25 over them exactly as the FTS5 statement of keywordSearch.ts ranks:
 * bm25() of fts5_aux.c (k1 = 1.2, b = 0.75, a term's frequency weighted by its column, a memory's length over all the
 * index's columns against the whole index's average) with the key's own IDF (bm25.ts). Plain data and arithmetic:
 * keywordIndex.ts fills it from the database and keeps it in step.
 *
 * A search scores only the memories that can still reach its top n (MaxScore, term at a time): the terms are taken
 * rarest first (the largest bound on what they add to a score), and once the terms left could not lift a memory
 * holding none of the terms taken so far past the n-th best score found, those terms are looked up only in the
 * memories that can still make it. A common word held by most of the key's memories then costs a few lookups rather
 * than a score for each. The survivors are scored again word by word, in the order the exhaustive sum takes them, so
 * the scores are the same to the last bit.
 */

const K1 = 1.2;
const B = 0.75;
/**
 * Bounds are raised, and the floor lowered, by this fraction: a sum taken in another order may differ in its last
 * bits, and that must never prune a memory that belongs in the top n.
 */
const SLACK = 1e-9;
/** A bound taken at an average length this much smaller than today's is taken again: it would be looser each time. */
const BOUND_DRIFT = 1.25;

/**
 * bm25()'s saturation of a term's frequency `f` in a memory of `length` tokens, against the index's average length:
 * f / (f + k1·(1 − b + b·length/average)).
 */
function saturation(f: number, length: number, average: number): number {
  return f / (f + K1 * (1 - B) + ((K1 * B) / average) * length);
}

/**
 * What a term adds to a memory's score: its weight (IDF × (k1 + 1)) times the saturation of its frequency `f` in a
 * memory of `length` tokens, with the saturation's terms that depend only on the average taken once per search
 * (`flat` = k1·(1 − b), `perToken` = k1·b / average). Every sum of this file adds these, in one arithmetic order.
 */
function termPart(weight: number, f: number, length: number, flat: number, perToken: number): number {
  return (weight * f) / (f + flat + perToken * length);
}

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
  /** The largest saturation of the postings at the average length `at` (NaN: not taken yet). */
  private peak = 0;
  private at = Number.NaN;

  get length(): number {
    return this.entries.length / 2;
  }

  add(slot: number, frequency: number, length: number) {
    this.entries.push(slot, frequency);
    if (!Number.isNaN(this.at)) this.peak = Math.max(this.peak, saturation(frequency, length, this.at));
  }

  /**
   * The most the term's frequency adds to a memory's score before the IDF, at the index's average length. Taken over
   * the list once, then kept as postings come: as the average moves from `at` to A, a saturation's denominator shrinks
   * at most by at/A, so the peak times max(1, A/at) still bounds it. A removed posting leaves the peak as it was:
   * still a bound, if a looser one.
   */
  bound(lengths: Float64Array, average: number): number {
    if (Number.isNaN(this.at) || average > this.at * BOUND_DRIFT) {
      const { entries } = this;
      this.at = average;
      this.peak = 0;
      for (let i = 0; i < entries.length; i += 2) {
        this.peak = Math.max(this.peak, saturation(entries[i + 1]!, lengths[entries[i]!]!, average));
      }
    }
    return this.peak * Math.max(1, average / this.at);
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

/** A word of a search that the key holds: its index among the words, its term, postings, weight and bound. */
interface SearchedTerm {
  word: number;
  id: number;
  list: PostingList;
  /** The IDF times k1 + 1. */
  weight: number;
  /** The most it adds to any memory's score. */
  bound: number;
}

/** The best memories of a search, best first, and whether they are every memory holding one of its words. */
export interface TopMemories {
  rows: { pk: number; score: number; matched: number[] }[];
  complete: boolean;
  /** Memories given a score, in part or whole: what the search cost. */
  scored: number;
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
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
  /** Per slot, its memory's terms and their weighted frequencies, in pairs. */
  private termsOf: number[][] = [];
  private readonly freeSlots: number[] = [];
  /**
   * Per slot, a search's partial score and the words it holds (bits of the word's index): zero between searches, so
   * each search clears only the slots it used.
   */
  private partial = new Float64Array(0);
  private held = { low: new Uint32Array(0), high: new Uint32Array(0) };
  /** Postings held, for the cache's budget. */
  postings = 0;

  /** The key's memories in the index: the N of its IDF. */
  get memories(): number {
    return this.slotOf.size;
  }

  /** How many of the key's memories hold the term. */
  holding(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.lists[id]!.length;
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
    this.lists[id]!.add(slot, frequency, this.lengthOf[slot]!);
    this.termsOf[slot]!.push(id, frequency);
    this.postings++;
  }

  remove(pk: number) {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    const terms = this.termsOf[slot]!;
    for (let i = 0; i < terms.length; i += 2) this.lists[terms[i]!]!.remove(slot);
    this.postings -= terms.length / 2;
    this.termsOf[slot] = [];
    this.slotOf.delete(pk);
    this.freeSlots.push(slot);
    // An emptied list stays until the postings are built anew: a term once held is likely to come back.
  }

  /** The term's weighted frequency in the memory in the slot; 0 when it does not hold it. */
  private frequencyIn(slot: number, id: number): number {
    const terms = this.termsOf[slot]!;
    for (let i = 0; i < terms.length; i += 2) if (terms[i] === id) return terms[i + 1]!;
    return 0;
  }

  /**
   * The best `n` memories holding any of the terms (a null term matches nothing), best first, equal scores newest
   * (highest pk) first, as the FTS5 statement orders them. `average` is the whole index's tokens per row, as FTS5
   * keeps it. At most 64 terms: the bits of a memory's words.
   */
  top(terms: readonly (string | null)[], average: number, n: number): TopMemories {
    if (terms.length > 64) throw new RangeError(`at most 64 terms are ranked at once (${terms.length} given)`);
    const searched: SearchedTerm[] = [];
    terms.forEach((term, word) => {
      const id = term === null ? undefined : this.termIds.get(term);
      const list = id === undefined ? undefined : this.lists[id]!;
      if (id === undefined || !list || list.length === 0) return;
      const weight = idf(this.memories, list.length) * (K1 + 1);
      searched.push({ word, id, list, weight, bound: weight * list.bound(this.lengthOf, average) * (1 + SLACK) });
    });
    this.scratch();
    // Asked for as many as could match, nothing is left out: the terms are taken in the words' order, and the sums are
    // the scores (a caller whose scope leaves out most of a ranking asks for ever longer heads of it).
    const everyMatch = n >= searched.reduce((sum, t) => sum + t.list.length, 0);
    const order = everyMatch ? searched : [...searched].sort((a, b) => b.bound - a.bound);
    const { slots, complete, scored } = this.candidates(order, average, n, everyMatch);
    let rows: TopMemories['rows'];
    if (everyMatch) {
      // Ordered by copies side by side: the slots are spread over the key's arrays, and a sort reads each many times.
      const scores = new Float64Array(slots.length);
      const pks = new Int32Array(slots.length);
      const byRank: number[] = [];
      slots.forEach((slot, i) => {
        scores[i] = this.partial[slot]!;
        pks[i] = this.pkOf[slot]!;
        byRank.push(i);
      });
      byRank.sort((a, b) => scores[b]! - scores[a]! || pks[b]! - pks[a]!);
      rows = byRank.map((i) => ({ pk: pks[i]!, score: scores[i]!, matched: this.wordsOf(slots[i]!) }));
    } else {
      rows = slots.map((slot) => this.exactScore(slot, searched, average));
      rows.sort((a, b) => b.score - a.score || b.pk - a.pk);
    }
    this.clear(slots);
    return { rows: rows.slice(0, n), complete, scored };
  }

  private scratch() {
    const size = this.termsOf.length;
    if (this.partial.length >= size) return;
    const grownTo = Math.max(size, this.partial.length * 2);
    this.partial = new Float64Array(grownTo);
    this.held = { low: new Uint32Array(grownTo), high: new Uint32Array(grownTo) };
  }

  private clear(slots: readonly number[]) {
    for (const slot of slots) this.partial[slot] = this.held.low[slot] = this.held.high[slot] = 0;
  }

  /**
   * The slots of the memories that can be in the top n, the terms taken in `order`: MaxScore's way (see the head of this
   * file) when it is by bound, and every match when it cannot leave one out, the words each memory holds then marked.
   * Each term's part of a score is added in that order.
   */
  private candidates(order: readonly SearchedTerm[], average: number, n: number, everyMatch: boolean) {
    const { partial, lengthOf } = this;
    const { low, high } = this.held;
    // rest[i]: the most the terms from order[i] on can add to a memory's score.
    const rest = new Float64Array(order.length + 1);
    for (let i = order.length - 1; i >= 0; i--) rest[i] = rest[i + 1]! + order[i]!.bound;
    const flat = K1 * (1 - B);
    const perToken = (K1 * B) / average;
    let slots: number[] = [];
    // The n-th best partial score so far: no memory whose score cannot reach it is in the top n.
    let floor = 0;
    const nthBest = () => (slots.length >= n && n > 0 ? nthLargest(slots, partial, n) : 0);
    let i = 0;
    // In full while a memory that holds none of the terms taken so far could still reach the top n: while fewer than n
    // memories score above what the terms left can add (which the terms taken cannot pass until their bounds do).
    for (; i < order.length; i++) {
      if (slots.length >= n && rest[0]! - rest[i]! > rest[i]! && reaching(slots, partial, rest[i]!) >= n) {
        floor = nthBest();
        break;
      }
      const { list, weight, word } = order[i]!;
      const bits = word < 32 ? low : high;
      const bit = 1 << (word % 32);
      const { entries } = list;
      for (let e = 0; e < entries.length; e += 2) {
        const slot = entries[e]!;
        const f = entries[e + 1]!;
        // Every match scores above 0 (the IDF is never 0 or less): 0 is a slot not yet touched.
        if (partial[slot] === 0) slots.push(slot);
        partial[slot]! += termPart(weight, f, lengthOf[slot]!, flat, perToken);
        if (everyMatch) bits[slot]! |= bit;
      }
    }
    const scored = slots.length;
    const complete = i === order.length && slots.length <= n;
    if (i === order.length) floor = nthBest();
    // The rest only where they can still matter: each term by its postings or, when the memories left are fewer than
    // its postings would cost, in each memory's own terms.
    const termsPerMemory = this.postings / Math.max(this.memories, 1);
    for (; i < order.length; i++) {
      slots = this.keep(slots, floor * (1 - SLACK) - rest[i]!);
      const { id, list, weight } = order[i]!;
      if (slots.length * termsPerMemory < list.length) {
        for (const slot of slots) {
          const f = this.frequencyIn(slot, id);
          if (f > 0) partial[slot]! += termPart(weight, f, lengthOf[slot]!, flat, perToken);
        }
      } else {
        const { entries } = list;
        for (let e = 0; e < entries.length; e += 2) {
          const slot = entries[e]!;
          const f = entries[e + 1]!;
          if (partial[slot] !== 0) partial[slot]! += termPart(weight, f, lengthOf[slot]!, flat, perToken);
        }
      }
      floor = nthBest();
    }
    return { slots: everyMatch ? slots : this.keep(slots, floor * (1 - SLACK)), complete, scored };
  }

  /** The slots whose partial score reaches `least`, in place; the others' are cleared (a pruned memory's words are not marked). */
  private keep(slots: number[], least: number): number[] {
    const { partial } = this;
    let kept = 0;
    for (const slot of slots) {
      if (partial[slot]! >= least) slots[kept++] = slot;
      else partial[slot] = 0;
    }
    slots.length = kept;
    return slots;
  }

  /** The words the memory in the slot holds, by their index. */
  private wordsOf(slot: number): number[] {
    const words: number[] = [];
    for (let w = 0; w < 32; w++) if (this.held.low[slot]! & (1 << w)) words.push(w);
    for (let w = 0; w < 32; w++) if (this.held.high[slot]! & (1 << w)) words.push(32 + w);
    return words;
  }

  /** A memory's score and the words it holds, summed in the words' order as the exhaustive sum does. */
  private exactScore(slot: number, searched: readonly SearchedTerm[], average: number) {
    const flat = K1 * (1 - B);
    const perToken = (K1 * B) / average;
    const length = this.lengthOf[slot]!;
    let score = 0;
    const matched: number[] = [];
    for (const { word, id, weight } of searched) {
      const f = this.frequencyIn(slot, id);
      if (f === 0) continue;
      score += termPart(weight, f, length, flat, perToken);
      matched.push(word);
    }
    return { pk: this.pkOf[slot]!, score, matched };
  }
}

/** How many of the slots' partial scores are above `least`. */
function reaching(slots: readonly number[], partial: Float64Array, least: number): number {
  let above = 0;
  for (const slot of slots) if (partial[slot]! > least) above++;
  return above;
}

/** The n-th largest partial score of the slots (1 ≤ n ≤ slots). */
function nthLargest(slots: readonly number[], partial: Float64Array, n: number): number {
  const values = slots.map((slot) => partial[slot]!);
  quickselect(values, values.length - n);
  return values[values.length - n]!;
}
