import type { LeftOutReason } from './receipt.ts';

/**
 * Fits ranked items into a token budget: walk the list best first, take what fits (or, where the caller has one, a
 * shorter rendering of it that fits, or that leaves room for the next: `share`), skip what does not and keep going.
 * Never exceeds the budget. When nothing fits, the best item is shortened to fit, so a tight budget still carries
 * the most relevant memory instead of nothing.
 */
export interface BudgetOptions<T> {
  budget: number;
  /** Stop once this many items are taken; later items are never priced. */
  maxItems?: number;
  cost: (item: T) => number;
  /** Returns the item cut down to cost at most `tokens`, or null if it cannot be. */
  truncate: (item: T, tokens: number) => T | null;
  /** An item too long for what is left (`room` tokens): a shorter rendering of it that fits, or null to skip it. */
  cut?: (item: T, room: number) => T | null;
  /**
   * Most tokens one item should take while it and the items after it (as many as the limit leaves slots for) would
   * not all fit whole: a longer one is first offered to `cut` with this much room (taken whole if that fits and it
   * has no shorter rendering), so a small budget carries several hits rather than one or two long ones. The last
   * item the walk can take gets all that is left.
   */
  share?: number;
  /** Asked of each item that fits, just before it is taken: a reason leaves it out (a repeat of one taken). */
  refuse?: (item: T) => LeftOutReason | null;
  /** Told of each item the walk leaves out, and why: only when a receipt is kept. */
  leftOut?: (item: T, reason: LeftOutReason) => void;
}

export function fitToBudget<T>(
  ranked: readonly T[],
  { budget, maxItems = Infinity, cost, truncate, cut, share, refuse, leftOut }: BudgetOptions<T>,
): { items: T[]; used: number } {
  if (budget <= 0 || ranked.length === 0) {
    if (leftOut) for (const item of ranked) leftOut(item, 'over_budget');
    return { items: [], used: 0 };
  }
  const items: T[] = [];
  let used = 0;
  /** Whether `slots` items from `from` on fit in `room` whole; prices no more of them than it must. */
  const fitWhole = (from: number, slots: number, room: number) => {
    let total = 0;
    for (let j = from; j < from + slots && total <= room; j++) total += cost(ranked[j]!);
    return total <= room;
  };
  for (let i = 0; i < ranked.length; i++) {
    const item = ranked[i]!;
    if (items.length >= maxItems) {
      if (leftOut) for (const rest of ranked.slice(i)) leftOut(rest, 'over_limit');
      break;
    }
    const whole = cost(item);
    const room = budget - used;
    const slots = Math.min(ranked.length - i, maxItems - items.length);
    const crowded = cut && share !== undefined && whole > share && slots > 1 && !fitWhole(i, slots, room);
    let shorter = crowded ? cut(item, Math.min(share, room)) : null;
    if (shorter === null && whole > room && cut) shorter = cut(item, room);
    const taking = shorter ?? item;
    const c = shorter === null ? whole : cost(shorter);
    const refused = used + c > budget ? 'over_budget' : (refuse?.(taking) ?? null);
    if (refused !== null) leftOut?.(item, refused);
    else {
      items.push(taking);
      used += c;
    }
  }
  if (items.length > 0) return { items, used };
  const head = truncate(ranked[0]!, budget);
  if (head === null) return { items: [], used: 0 };
  const c = cost(head);
  return c <= budget ? { items: [head], used: c } : { items: [], used: 0 };
}
