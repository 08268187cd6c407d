import type { LeftOutReason } from './receipt.ts';

/**
 * Fits ranked items into a token budget: walk the list best first, take what fits (or, where the caller has one, a
 * shorter rendering of it that fits), skip what does not and keep going. Never exceeds the budget. When nothing fits,
 * the best item is shortened to fit, so a tight budget still carries the most relevant memory instead of nothing.
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
  /** Asked of each item that fits, just before it is taken: a reason leaves it out (a repeat of one taken). */
  refuse?: (item: T) => LeftOutReason | null;
  /** Told of each item the walk leaves out, and why: only when a receipt is kept. */
  leftOut?: (item: T, reason: LeftOutReason) => void;
}

export function fitToBudget<T>(
  ranked: readonly T[],
  { budget, maxItems = Infinity, cost, truncate, cut, refuse, leftOut }: BudgetOptions<T>,
): { items: T[]; used: number } {
  if (budget <= 0 || ranked.length === 0) {
    if (leftOut) for (const item of ranked) leftOut(item, 'over_budget');
    return { items: [], used: 0 };
  }
  const items: T[] = [];
  let used = 0;
  for (let i = 0; i < ranked.length; i++) {
    const item = ranked[i]!;
    if (items.length >= maxItems) {
      if (leftOut) for (const rest of ranked.slice(i)) leftOut(rest, 'over_limit');
      break;
    }
    const whole = cost(item);
    const shorter = used + whole > budget && cut ? cut(item, budget - used) : null;
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
