import { reportReachable, ServerUnreachableError } from './connection';
import { getToken, setToken } from './session';

export interface GraphQLErrorItem {
  message: string;
  extensions?: { code?: string };
}

/** A GraphQL error response, with the server's code (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, …). */
export class GraphQLRequestError extends Error {
  readonly code: string | null;

  constructor(readonly errors: GraphQLErrorItem[]) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'GraphQLRequestError';
    this.code = errors[0]?.extensions?.code ?? null;
  }
}

/**
 * The one transport the generated hooks use: a JSON POST with the session's bearer token. An
 * UNAUTHENTICATED answer signs the browser out, so the sign-in screen explains what happened; no answer at all
 * marks the server unreachable (connection.ts) and throws ServerUnreachableError.
 */
export function fetcher<TData, TVariables>(
  query: string | { toString(): string },
  variables?: TVariables,
  options?: RequestInit['headers'],
) {
  return async (): Promise<TData> => {
    const token = getToken();
    let res: Response;
    try {
      res = await fetch('/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...options,
        },
        body: JSON.stringify({ query: query.toString(), variables }),
      });
    } catch (error) {
      reportReachable(false);
      throw new ServerUnreachableError(error);
    }
    reportReachable(true);
    let body: { data?: TData; errors?: GraphQLErrorItem[] };
    try {
      body = await res.json();
    } catch {
      throw new GraphQLRequestError([{ message: `the server answered ${res.status} without a GraphQL response` }]);
    }
    if (body.errors?.length) {
      const error = new GraphQLRequestError(body.errors);
      if (error.code === 'UNAUTHENTICATED') setToken(null, error.message);
      throw error;
    }
    return body.data as TData;
  };
}
