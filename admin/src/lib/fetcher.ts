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
  return () => {
    const headers = new Headers(options);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return post<TData>(JSON.stringify({ query: query.toString(), variables }), headers);
  };
}

/**
 * An operation whose variable `file` is a file, sent as the GraphQL multipart request spec has it (the part "0"
 * mapped to variables.file), which yoga reads; answered and refused as the hooks' requests are.
 */
export function sendFile<TData, TVariables extends { file: File }>(query: string, variables: TVariables): Promise<TData> {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query, variables: { ...variables, file: null } }));
  form.set('map', JSON.stringify({ 0: ['variables.file'] }));
  form.set('0', variables.file);
  return post<TData>(form, new Headers());
}

/** The headers given win over the usual ones (accept, the session's token). */
async function post<TData>(body: BodyInit, headers: Headers): Promise<TData> {
  const token = getToken();
  const sent = new Headers({ accept: 'application/graphql-response+json, application/json' });
  if (token) sent.set('authorization', `Bearer ${token}`);
  for (const [name, value] of headers) sent.set(name, value);
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: sent,
      body,
    });
  } catch (error) {
    reportReachable(false);
    throw new ServerUnreachableError(error);
  }
  reportReachable(true);
  let answer: { data?: TData; errors?: GraphQLErrorItem[] };
  try {
    answer = await res.json();
  } catch {
    throw new GraphQLRequestError([{ message: `the server answered ${res.status} without a GraphQL response` }]);
  }
  if (answer.errors?.length) {
    const error = new GraphQLRequestError(answer.errors);
    if (error.code === 'UNAUTHENTICATED') setToken(null, error.message);
    throw error;
  }
  return answer.data as TData;
}
