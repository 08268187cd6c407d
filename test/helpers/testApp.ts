import { type App, type AppOptions, createApp } from '../../server/app.ts';
import type { Services } from '../../server/services.ts';
import { documentText, type GraphQLResponse, type Operation, okAt, postGraphQL } from './graphqlHttp.ts';

export type { GraphQLResponse, Operation } from './graphqlHttp.ts';

import { CREATE_TOKEN } from './operations.ts';
import { ADMIN_TOKEN, openTestDb, type TestDbOptions } from './testDb.ts';
import type { TestStore } from './testStore.ts';

export { ADMIN_TOKEN };

export interface TestApp {
  url: string;
  dir: string;
  database: TestStore;
  services: Services;
  /** The HTTP app itself: readiness, draining. */
  http: App;
  /**
   * Sends one GraphQL operation over real HTTP, as the admin unless another token is given. Its variables are not
   * checked against the document's: this is how a test sends what the server must refuse.
   */
  gql<TResult = any>(
    query: Operation<TResult>,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<GraphQLResponse<TResult>>;
  /**
   * Sends variables already written as JSON: for values JSON.stringify cannot write (10,000 levels deep) and bodies the
   * test spells out.
   */
  gqlJson<TResult = any>(query: Operation<TResult>, variablesJson: string, token?: string | null): Promise<GraphQLResponse<TResult>>;
  /**
   * Sends a text that is not one of the tests' typed operations: one the server must refuse (malformed, over a
   * limit, an unknown field) or whose exact text is the point (persisted and trusted documents). Its result is untyped.
   */
  gqlRaw(text: string, variables?: Record<string, unknown>, token?: string | null): Promise<GraphQLResponse<any>>;
  /** Like gql, but fails the test on any error and returns data; a typed document's variables are checked. */
  ok<TResult = any, TVariables = Record<string, unknown>>(
    query: Operation<TResult, TVariables>,
    variables?: NoInfer<TVariables>,
    token?: string | null,
  ): Promise<TResult>;
  mintToken(opts?: { apiKeyId?: string; role?: 'ADMIN' | 'GATEWAY' }): Promise<string>;
  close(): Promise<void>;
}

/** The services' options (engine, env, clock, folder, backups, logger: see openTestDb), and the HTTP app's. */
export interface TestAppOptions extends TestDbOptions {
  /** The HTTP app's own options (the metrics token). */
  app?: AppOptions;
}

/**
 * A real mnemo on a fresh store (a SQLite file in a temp folder, or in the postgres project a PostgreSQL database),
 * migrated by the real migrator and listening on a free loopback port.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const store = await openTestDb(options);
  const { dir, database, services } = store;
  const app = createApp(services, options.app);
  const address = await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;

  // Variables as given, unchecked: how a test sends what the server must refuse.
  const gql: TestApp['gql'] = (query, variables, token = ADMIN_TOKEN) =>
    postGraphQL(url, JSON.stringify({ query: documentText(query), variables }), token);
  const gqlRaw: TestApp['gqlRaw'] = (text, variables, token = ADMIN_TOKEN) =>
    postGraphQL(url, JSON.stringify({ query: text, variables }), token);
  const gqlJson: TestApp['gqlJson'] = (query, variablesJson, token = ADMIN_TOKEN) =>
    postGraphQL(url, `{"query":${JSON.stringify(documentText(query))},"variables":${variablesJson}}`, token);
  const ok: TestApp['ok'] = (query, variables, token = ADMIN_TOKEN) => okAt(url, query, variables, token);

  return {
    url,
    dir,
    database,
    services,
    http: app,
    gql,
    gqlJson,
    gqlRaw,
    ok,
    mintToken: async ({ apiKeyId, role = 'GATEWAY' } = {}) => {
      const data = await ok(CREATE_TOKEN, { input: { name: `test ${role} ${apiKeyId ?? '*'}`, role, apiKeyId } });
      return data.createAccessToken.token;
    },
    close: async () => {
      // A running reindex job stops between batches, as at a server's shutdown.
      await services.reindex.stop();
      await app.close();
      await store.close();
    },
  };
}

/** The one error of a response, for tests that expect exactly one. */
export function onlyError(res: GraphQLResponse) {
  if (res.errors?.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(res.errors ?? res.data)}`);
  return res.errors[0]!;
}
