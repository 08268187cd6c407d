import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useMemoryListQuery, useMemoryOverviewQuery } from '../generated/graphql';

/** After any write: the list and the stats (every filter and page of them) are refetched. */
export function useInvalidateMemories() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: useMemoryListQuery.getKey() }),
        queryClient.invalidateQueries({ queryKey: useMemoryOverviewQuery.getKey() }),
      ]),
    [queryClient],
  );
}
