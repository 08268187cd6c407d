import { createClient } from 'graphql-sse';
import { type GraphQLErrorItem, GraphQLRequestError } from './fetcher';
import { getToken } from './session';

/**
 * Subscriptions over SSE (graphql-sse, distinct connections mode, which graphql-yoga serves), with the
 * same bearer token as queries. Returns a function that ends the subscription. `retry: false` for a subscription that
 * does something (an evaluation run): a dropped connection retried would do it again.
 */
export function subscribe<TData, TVariables extends Record<string, unknown>>(
  query: string,
  variables: TVariables,
  handlers: { next: (data: TData) => void; error?: (error: unknown) => void; complete?: () => void },
  { retry = true }: { retry?: boolean } = {},
): () => void {
  const client = createClient({
    url: '/graphql',
    headers: (): Record<string, string> => {
      const token = getToken();
      return token ? { authorization: `Bearer ${token}` } : {};
    },
    retryAttempts: retry ? 3 : 0,
  });
  const unsubscribe = client.subscribe<TData>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors?.length) handlers.error?.(new GraphQLRequestError([...result.errors] as GraphQLErrorItem[]));
        else if (result.data) handlers.next(result.data as TData);
      },
      error: (error) => handlers.error?.(error),
      complete: () => handlers.complete?.(),
    },
  );
  return () => {
    unsubscribe();
    client.dispose();
  };
}
