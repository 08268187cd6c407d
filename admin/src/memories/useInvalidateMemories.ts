import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useMemoryHistoryQuery, useMemoryListQuery, useMemoryOverviewQuery } from '../generated/graphql';

/**
 * After any write: the list and the stats (every filter and page of them) are refetched, and an open History, which the
 * write may have added to (an edit, a revert, an Undo, a supersession by a new memory).
 */
export function useInvalidateMemories() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: useMemoryListQuery.getKey() }),
        queryClient.invalidateQueries({ queryKey: useMemoryOverviewQuery.getKey() }),
        // Every memory's: the key's first element, without the memory's id.
        queryClient.invalidateQueries({ queryKey: useMemoryHistoryQuery.getKey({ id: '' }).slice(0, 1) }),
      ]),
    [queryClient],
  );
}
