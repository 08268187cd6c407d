import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { type DocumentNode, print } from 'graphql';

/**
 * A typed operation: a generated document of test/generated/graphql.ts (a String with result and variable types) or
 * a test's inline graphql() document (helpers/graphql.ts, a DocumentNode with the same types). A text that is
 * neither goes through the test app's gqlRaw.
 */
export type Operation<TResult = any, TVariables = any> = DocumentTypeDecoration<TResult, TVariables>;

/** The text that goes on the wire for an operation: a generated document's own string, an inline one printed. */
export function documentText(query: Operation | string): string {
  return typeof query === 'object' && 'kind' in query ? print(query as DocumentNode) : String(query);
}

export interface GraphQLResponse<T = any> {
  status: number;
  /**
   * The operation's result: null or absent when the response has errors, typed as present so that a test that has
   * checked `errors` reads it directly.
   */
  data: T;
  errors: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[] | undefined;
}

/** One POST of this body to the /graphql of the mnemo at `url`, with this bearer token (none: no Authorization). */
export async function postGraphQL(url: string, body: string, token: string | null): Promise<GraphQLResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body });
  const answer = (await res.json()) as { data?: unknown; errors?: GraphQLResponse['errors'] };
  return { status: res.status, data: answer.data, errors: answer.errors };
}

/** One of the tests' typed operations, sent to a mnemo the test reaches by URL (a process it started, an installed package). */
export function graphqlAt<TResult, TVariables>(
  url: string,
  query: Operation<TResult, TVariables>,
  variables: NoInfer<TVariables> | undefined,
  token: string | null,
): Promise<GraphQLResponse<TResult>> {
  return postGraphQL(url, JSON.stringify({ query: documentText(query), variables }), token);
}

/** The same, failing the test on any error: the operation's data. */
export async function okAt<TResult, TVariables>(
  url: string,
  query: Operation<TResult, TVariables>,
  variables: NoInfer<TVariables> | undefined,
  token: string | null,
): Promise<TResult> {
  const res = await graphqlAt(url, query, variables, token);
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data;
}
