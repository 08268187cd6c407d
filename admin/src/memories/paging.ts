export type PageItem = number | 'gap-start' | 'gap-end';

/**
 * The page buttons to show: always the first and last page, the current one with a neighbour on each side,
 * and a gap where pages are skipped; the list keeps the same length as the current page moves.
 */
export function pageItems(current: number, total: number): PageItem[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (total <= 7) return range(1, total);
  if (current <= 4) return [...range(1, 5), 'gap-end', total];
  if (current >= total - 3) return [1, 'gap-start', ...range(total - 4, total)];
  return [1, 'gap-start', current - 1, current, current + 1, 'gap-end', total];
}
