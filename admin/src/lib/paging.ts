import { useEffect, useState } from 'react';
import { hashParams, replaceHashParams } from './route';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** The page in the URL ("?page=3"), 1 when none or not a page number. */
function pageFromUrl(): number {
  const page = Number(hashParams().get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The page size in the URL ("?size=50"), the default when none or not one of PAGE_SIZES. */
function pageSizeFromUrl(): number {
  const size = Number(hashParams().get('size'));
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/**
 * Page size and page of a paged list, both kept in the URL ("?page=3&size=50") so a reload or a shared link opens
 * the same page. Any change to what is listed (`listed`: the filters and sort, as a string) or to the page size
 * starts again at page 1; the page is derived, so no request is ever sent for a stale page.
 */
export function useUrlPaging(listed: string) {
  const [pageSize, setPageSize] = useState(pageSizeFromUrl);
  const key = JSON.stringify([listed, pageSize]);
  const [state, setState] = useState(() => ({ key, page: pageFromUrl() }));
  const page = state.key === key ? state.page : 1;
  useEffect(() => {
    replaceHashParams({ page: page > 1 ? String(page) : null, size: pageSize !== DEFAULT_PAGE_SIZE ? String(pageSize) : null });
  }, [page, pageSize]);
  return {
    page,
    pageSize,
    setPage: (p: number) => setState({ key, page: Math.max(1, Math.floor(p)) }),
    setPageSize,
  };
}

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
