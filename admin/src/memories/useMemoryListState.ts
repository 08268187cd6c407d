import { useEffect, useMemo, useState } from 'react';
import type { MemoryListQueryVariables, MemoryOrderField } from '../generated/graphql';
import { useUrlPaging } from '../lib/paging';
import { hashParams, replaceHashParams } from '../lib/route';
import { useDebouncedValue } from '../lib/useDebouncedValue';
import { type FilterVariables, filterVariables, isMemorySource, type MemoryFilters, type MemorySort, NO_FILTERS } from './types';

const SEARCH_DEBOUNCE_MS = 300;

/** Ascending first for text, newest or largest first for dates and counts. */
const firstDirection = (field: MemoryOrderField) => (field === 'KEY' ? 'ASC' : 'DESC');

/**
 * What the table shows: filters (search debounced), sort, page size and page (the last two in the URL, with whether
 * hidden memories are shown and which source). Any change to what is listed starts again at page 1.
 */
export function useMemoryListState() {
  // "?all=1" opens the list with the hidden memories shown (the Data tab links there); "?show=TURNS" with the captured
  // turns alone; "?superseded=1" with the memories that no longer hold.
  const [filters, setFilters] = useState<MemoryFilters>(() => {
    const params = hashParams();
    const show = params.get('show');
    return {
      ...NO_FILTERS,
      showAll: params.get('all') === '1',
      showSuperseded: params.get('superseded') === '1',
      source: isMemorySource(show) ? show : NO_FILTERS.source,
    };
  });
  const [sort, setSort] = useState<MemorySort>({ orderBy: 'CREATED_AT', direction: 'DESC' });
  const search = useDebouncedValue(filters.search, SEARCH_DEBOUNCE_MS);

  const filterVars: FilterVariables = useMemo(() => filterVariables({ ...filters, search }), [filters, search]);
  const paging = useUrlPaging(JSON.stringify([filterVars, sort]));
  const { page, pageSize } = paging;
  useEffect(() => {
    replaceHashParams({
      all: filters.showAll ? '1' : null,
      superseded: filters.showSuperseded ? '1' : null,
      show: filters.source === NO_FILTERS.source ? null : filters.source,
    });
  }, [filters.showAll, filters.showSuperseded, filters.source]);

  const listVars: MemoryListQueryVariables = { ...filterVars, ...sort, limit: pageSize, offset: (page - 1) * pageSize };

  return {
    filters,
    /** Search is still waiting for typing to pause. */
    searchPending: search !== filters.search,
    filterVars,
    listVars,
    sort,
    ...paging,
    setFilters: (patch: Partial<MemoryFilters>) => setFilters((f) => ({ ...f, ...patch })),
    clearFilters: () => setFilters(NO_FILTERS),
    sortBy: (field: MemoryOrderField) =>
      setSort((s) =>
        s.orderBy === field
          ? { orderBy: field, direction: s.direction === 'ASC' ? 'DESC' : 'ASC' }
          : { orderBy: field, direction: firstDirection(field) },
      ),
  };
}

export type MemoryListState = ReturnType<typeof useMemoryListState>;
