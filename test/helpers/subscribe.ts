import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import type { ExecutionResult } from 'graphql';
import { createClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { documentText } from './graphqlHttp.ts';
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
export function subscribe<T, V = Record<string, unknown>>(
  url: string,
  query: DocumentTypeDecoration<T, V> | string,
  variables: NoInfer<V>,
  token: string | null = ADMIN_TOKEN,
): Subscription<T> {
  const client = createClient({
    url: `${url}/graphql`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    // A test sees the first failure as it is; the admin's retries wait between attempts.
    retryAttempts: 0,
  });
  return iterated(client.iterate<T>({ query: documentText(query), variables: variables as Record<string, unknown> }), () =>
    client.dispose(),
  );
}

/**
 * The same over GraphQL over WebSocket (graphql-ws's client on the `ws` package), the token in the
 * connection_init payload (`how: 'payload'`), in the upgrade request's Authorization header (`how: 'header'`),
 * or nowhere (null). A refused connection rejects with the close event (code 4403 when the token is refused).
 */
export function subscribeOverWebSocket<T, V = Record<string, unknown>>(
  url: string,
  query: DocumentTypeDecoration<T, V> | string,
  variables: NoInfer<V>,
  token: string | null = ADMIN_TOKEN,
  how: 'payload' | 'header' = 'payload',
): Subscription<T> & { client: WsClient } {
  const authorization = token ? `Bearer ${token}` : undefined;
  const client = createWsClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: how === 'header' && authorization ? headerSocket(authorization) : WebSocket,
    connectionParams: how === 'payload' && authorization ? { authorization } : undefined,
    retryAttempts: 0,
    // The connection outlives a finished operation a while, so a test can run another one on it.
    lazyCloseTimeout: 5_000,
  });
  return {
    ...iterated(
      client.iterate<T>({ query: documentText(query), variables: variables as Record<string, unknown> }),
      () => void client.dispose(),
    ),
    client,
  };
}

/** ws's WebSocket with an Authorization header on its upgrade request (browsers cannot send one). */
function headerSocket(authorization: string) {
  return class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: { authorization } });
    }
  };
}

function iterated<T>(results: AsyncIterator<unknown>, dispose: () => void): Subscription<T> {
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
      dispose();
    },
  };
}
