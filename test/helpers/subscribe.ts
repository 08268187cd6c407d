import type { ExecutionResult } from 'graphql';
import { createClient } from 'graphql-sse';
import { ADMIN_TOKEN } from './testApp.ts';

export interface Subscription<T> {
  /** The next result, or null once the server completed the stream. */
  next(): Promise<ExecutionResult<T> | null>;
  /** Every result still to come, up to the server's `complete`. */
  rest(): Promise<ExecutionResult<T>[]>;
  close(): void;
}

/**
 * A GraphQL subscription as Memory Studio runs it: graphql-sse's client (distinct connections mode) over
 * Yoga's SSE transport, with a bearer token (the admin's unless another, or none, is given). A refused
 * connection rejects with graphql-sse's NetworkError, whose `response` is the server's answer.
 */
export function subscribe<T>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token: string | null = ADMIN_TOKEN,
): Subscription<T> {
  const client = createClient({
    url: `${url}/graphql`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    // A test sees the first failure as it is; the admin's retries wait between attempts.
    retryAttempts: 0,
  });
  const results = client.iterate<T>({ query, variables });
  const next = async () => {
    const result = await results.next();
    return result.done ? null : (result.value as ExecutionResult<T>);
  };
  return {
    next,
    async rest() {
      const all: ExecutionResult<T>[] = [];
      for (let result = await next(); result; result = await next()) all.push(result);
      return all;
    },
    close() {
      void results.return?.();
      client.dispose();
    },
  };
}
