import { useEffect, useMemo, useState } from 'react';
import type { MemoryListQueryVariables, MemoryOrderField } from '../generated/graphql';
import { hashParams, replaceHashParams } from '../lib/route';
import { useDebouncedValue } from '../lib/useDebouncedValue';
import { type FilterVariables, filterVariables, type MemoryFilters, type MemorySort, NO_FILTERS } from './types';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 20;

function pageFromUrl(): number {
  const page = Number(hashParams().get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function pageSizeFromUrl(): number {
  const size = Number(hashParams().get('size'));
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}
const SEARCH_DEBOUNCE_MS = 300;

/** Ascending first for text, newest or largest first for dates and counts. */
const firstDirection = (field: MemoryOrderField) => (field === 'KEY' ? 'ASC' : 'DESC');

/**
 * What the table shows: filters (search debounced), sort, page size and page (the last two also in the URL). Any
 * change to what is listed starts again at page 1; the page is derived, so no request is ever sent for a stale page.
 */
export function useMemoryListState() {
  const [filters, setFilters] = useState<MemoryFilters>(NO_FILTERS);
  const [sort, setSort] = useState<MemorySort>({ orderBy: 'CREATED_AT', direction: 'DESC' });
  const [pageSize, setPageSize] = useState<number>(() => pageSizeFromUrl());
  const search = useDebouncedValue(filters.search, SEARCH_DEBOUNCE_MS);

  const filterVars: FilterVariables = useMemo(() => filterVariables({ ...filters, search }), [filters, search]);
  const listKey = JSON.stringify([filterVars, sort, pageSize]);
  const [pageState, setPageState] = useState(() => ({ listKey, page: pageFromUrl() }));
  const page = pageState.listKey === listKey ? pageState.page : 1;

  // Page and page size live in the URL too, so a reload (or a shared link) opens the same page.
  useEffect(() => {
    replaceHashParams({ page: page > 1 ? String(page) : null, size: pageSize !== DEFAULT_PAGE_SIZE ? String(pageSize) : null });
  }, [page, pageSize]);

  const listVars: MemoryListQueryVariables = { ...filterVars, ...sort, limit: pageSize, offset: (page - 1) * pageSize };

  return {
    filters,
    /** Search is still waiting for typing to pause. */
    searchPending: search !== filters.search,
    filterVars,
    listVars,
    sort,
    page,
    pageSize,
    setFilters: (patch: Partial<MemoryFilters>) => setFilters((f) => ({ ...f, ...patch })),
    clearFilters: () => setFilters(NO_FILTERS),
    sortBy: (field: MemoryOrderField) =>
      setSort((s) =>
        s.orderBy === field
          ? { orderBy: field, direction: s.direction === 'ASC' ? 'DESC' : 'ASC' }
          : { orderBy: field, direction: firstDirection(field) },
      ),
    setPage: (p: number) => setPageState({ listKey, page: Math.max(1, Math.floor(p)) }),
    setPageSize,
  };
}

export type MemoryListState = ReturnType<typeof useMemoryListState>;
