import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { type App, type AppOptions, createApp } from '../../server/app.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import { createServices, type Services } from '../../server/services.ts';
import type { VectorConfig } from '../../server/vectorConfig.ts';
import { CREATE_TOKEN } from './operations.ts';
import { dropTestStore, openTestStore, type TestStore } from './testStore.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/**
 * An operation: a typed document from test/generated/graphql.ts (result and variables typed), or a string a test
 * writes itself (untyped).
 */
export type Operation<TResult = any, TVariables = any> = DocumentTypeDecoration<TResult, TVariables> | string;

export interface GraphQLResponse<T = any> {
  status: number;
  /**
   * The operation's result: null or absent when the response has errors, typed as present so that a test that has
   * checked `errors` reads it directly.
   */
  data: T;
  errors: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[] | undefined;
}

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

export interface TestAppOptions {
  /** The vector engine's configuration; by default the offline one (no model, no worker). */
  engine?: VectorConfig;
  /** The environment the services read (MNEMO_QDRANT_*); by default none. */
  env?: NodeJS.ProcessEnv;
  /** The services' clock (every timestamp, delay and cutoff they use); a test moves it instead of waiting (helpers/clock.ts). */
  clock?: () => number;
  /** An existing folder to use (its mnemo.db is opened, not replaced); by default a fresh temp folder. */
  dir?: string;
  /** Where backupDatabase writes; by default none, so it is refused. */
  backupDir?: string;
  /** The HTTP app's own options (the metrics token). */
  app?: AppOptions;
  /** Where the server logs; by default nowhere. */
  logger?: Logger;
}

/**
 * A real mnemo on a fresh store (a SQLite file in a temp folder, or in the postgres project a PostgreSQL database),
 * migrated by the real migrator and listening on a free loopback port.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'mnemo-test-'));
  const database = await openTestStore(dir);
  const services = createServices({
    db: database.db,
    logger: options.logger ?? createLogger('silent'),
    adminToken: ADMIN_TOKEN,
    vectorConfig: options.engine,
    env: options.env,
    clock: options.clock,
    backupDir: options.backupDir,
  });
  const app = createApp(services, options.app);
  const address = await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;

  const post = async (body: string, token: string | null) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body });
    const answer = (await res.json()) as { data?: any; errors?: GraphQLResponse['errors'] };
    return { status: res.status, data: answer.data, errors: answer.errors };
  };
  const gql: TestApp['gql'] = (query, variables, token = ADMIN_TOKEN) => post(JSON.stringify({ query: String(query), variables }), token);
  const gqlRaw: TestApp['gqlRaw'] = (text, variables, token = ADMIN_TOKEN) => post(JSON.stringify({ query: text, variables }), token);
  const gqlJson: TestApp['gqlJson'] = (query, variablesJson, token = ADMIN_TOKEN) =>
    post(`{"query":${JSON.stringify(String(query))},"variables":${variablesJson}}`, token);

  async function ok<TResult, TVariables>(query: Operation<TResult, TVariables>, variables?: TVariables, token?: string | null) {
    const res = await gql(query, variables as Record<string, unknown> | undefined, token);
    if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
    // Without errors, a GraphQL response carries its data.
    return res.data as TResult;
  }

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
      await services.access.flush();
      await database.close();
      // A folder the caller passed in is the caller's: another app may open the same database after this one.
      if (!options.dir) {
        await dropTestStore(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The one error of a response, for tests that expect exactly one. */
export function onlyError(res: GraphQLResponse) {
  if (res.errors?.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(res.errors ?? res.data)}`);
  return res.errors[0]!;
}
