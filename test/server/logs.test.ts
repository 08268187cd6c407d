import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import type { CreateTokenMutation } from '../generated/graphql.ts';
import { graphql } from '../helpers/graphql.ts';
import { documentText } from '../helpers/graphqlHttp.ts';
import {
  CREATE_TOKEN,
  DELETE_MEMORY,
  GET_SETTINGS,
  LIST_MEMORIES,
  UPDATE_QDRANT,
  UPDATE_SETTINGS,
  UPSERT_PROVIDER,
} from '../helpers/operations.ts';
import { ADMIN_TOKEN, type Operation, startTestApp, type TestApp } from '../helpers/testApp.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { stack?: string; message?: string };
  [field: string]: unknown;
}

/** What a test posts: a typed operation, or a text that must reach the server as it is written. */
interface Body<TResult> {
  query: Operation<TResult> | string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

interface GraphQLBody<TResult> {
  data?: TResult | null;
  errors: { message: string; extensions?: Record<string, unknown> }[];
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;

let app: TestApp | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await app?.close();
  app = null;
});

/** A server whose log (every level) is kept, as text and as parsed lines. */
async function logged() {
  let text = '';
  app = await startTestApp({ logger: createLogger('trace', { write: (line: string) => (text += line) }) });
  return {
    app,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as LogLine),
  };
}

async function post<TResult>(target: TestApp, body: Body<TResult>, headers: Record<string, string> = {}) {
  const res = await fetch(`${target.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
    body: JSON.stringify({ ...body, query: documentText(body.query) }),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as GraphQLBody<TResult> };
}

/** The access line of the request with this id (it is written once the response is done). */
async function accessLine(log: { lines(): LogLine[] }, requestId: string) {
  await vi.waitFor(() => expect(log.lines().filter((l) => l.msg === 'request' && l.reqId === requestId)).toHaveLength(1));
  return log.lines().find((l) => l.msg === 'request' && l.reqId === requestId)!;
}

describe('request ids', () => {
  it('keeps a sane x-request-id: echoed in the response header, on every line of the request, in each error', async () => {
    const log = await logged();
    const id = 'a1b2c3d4-0000-4000-8000-000000000001';
    const res = await post(log.app, { query: DELETE_MEMORY, variables: { id } }, { 'x-request-id': 'req-2026.12.02:abc_1' });
    expect(res.requestId).toBe('req-2026.12.02:abc_1');
    expect(res.body.errors).toMatchInlineSnapshot(`
      [
        {
          "extensions": {
            "code": "NOT_FOUND",
            "requestId": "req-2026.12.02:abc_1",
          },
          "locations": [
            {
              "column": 3,
              "line": 3,
            },
          ],
          "message": "no memory with id a1b2c3d4-0000-4000-8000-000000000001",
          "path": [
            "deleteMemory",
          ],
        },
      ]
    `);
    await accessLine(log, 'req-2026.12.02:abc_1');
    const ofRequest = log
      .lines()
      .filter((l) => l.reqId === 'req-2026.12.02:abc_1')
      .map((l) => l.msg);
    expect(ofRequest).toEqual(['request answered with errors', 'request']);
  });

  it.each([
    ['missing', undefined],
    ['with spaces', 'my request'],
    ['too long', 'x'.repeat(200)],
    ['shaped like a key', 'sk-live-0123456789abcdefABCDEF'],
  ])('replaces one that is %s by a generated one', async (_what, given) => {
    const log = await logged();
    const res = await post(log.app, { query: GET_SETTINGS }, given ? { 'x-request-id': given } : {});
    expect(res.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await accessLine(log, res.requestId!);
    if (given) expect(log.text()).not.toContain(given);
  });
});

describe('the access line', () => {
  it('is one line per request at info: method, path, operation, root fields, duration, status, outcomes, token id and bytes', async () => {
    const log = await logged();
    const token = await log.app.mintToken({ apiKeyId: 'k1' });
    const [tokenRow] = await log.app.services.tokens.list();
    // Two root fields, one under an alias, that a gateway token bound to k1 gets different outcomes from.
    const recall = graphql(`
      query LogsRecall {
        memories(apiKeyId: "k1") {
          totalCount
        }
        other: memorySettings {
          enabled
        }
      }
    `);
    const res = await post(log.app, { query: recall, operationName: 'LogsRecall' }, { authorization: `Bearer ${token}` });
    const line = await accessLine(log, res.requestId!);
    expect(line).toMatchObject({
      level: INFO,
      method: 'POST',
      path: '/graphql',
      status: 200,
      operation: 'query',
      operationName: 'LogsRecall',
      fields: ['memories', 'memorySettings'],
      outcomes: ['OK', 'FORBIDDEN'],
      tokenId: tokenRow!.id,
    });
    expect(line.ms).toBeGreaterThan(0);
    expect(line.bytesIn).toBeGreaterThan(50);
    expect(line.bytesOut).toBeGreaterThan(100);
    expect(log.text()).not.toContain(token);
  });

  it('is written for a chunked body refused as too large, whose connection closes while the body still comes', async () => {
    const log = await logged();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${log.app.url}/graphql`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)));
      req.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
      );
      req.write('{"query":"{ __typename }"');
      for (let i = 0; i < 26; i++) req.write(Buffer.alloc(1_000_000, 0x20));
      req.end('}');
    });
    expect(status).toBe(413);
    await vi.waitFor(() => expect(log.lines().filter((l) => l.msg === 'request')).toHaveLength(1));
    expect(log.lines().find((l) => l.msg === 'request')).toMatchObject({ level: INFO, status: 413, bytesIn: null });
  });

  it('is written, marked aborted, for a request whose client went away before the answer', async () => {
    const log = await logged();
    const req = request(`${log.app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': 1000 },
    });
    req.on('error', () => {});
    const arrived = once(log.app.http.server, 'request');
    req.write('{"query":"');
    await arrived;
    req.destroy();
    await vi.waitFor(() => expect(log.lines().filter((l) => l.msg === 'request')).toHaveLength(1));
    expect(log.lines().find((l) => l.msg === 'request')).toMatchObject({ level: INFO, method: 'POST', path: '/graphql', aborted: true });
  });

  it('is written for requests outside GraphQL too; probes and scrapes at debug', async () => {
    const log = await logged();
    const admin = await fetch(`${log.app.url}/admin/`);
    const health = await fetch(`${log.app.url}/healthz`);
    const adminLine = await accessLine(log, admin.headers.get('x-request-id')!);
    const healthLine = await accessLine(log, health.headers.get('x-request-id')!);
    expect(adminLine).toMatchObject({ level: INFO, method: 'GET', path: '/admin/', status: 200, tokenId: null });
    expect(healthLine).toMatchObject({ level: 20, path: '/healthz', status: 200 });
  });
});

describe('error levels', () => {
  const levelsOf = (log: { lines(): LogLine[] }, requestId: string) =>
    log
      .lines()
      .filter((l) => l.reqId === requestId && l.msg !== 'request')
      .map((l) => ({ level: l.level, stack: l.err?.stack !== undefined }));

  it("logs a caller's mistakes at info, without a stack", async () => {
    const log = await logged();
    const mistakes: Body<unknown>[] = [
      { query: UPDATE_SETTINGS, variables: { input: { maxTokens: -1 } } },
      { query: DELETE_MEMORY, variables: { id: randomUUID() } },
      { query: '{ nope }' },
      { query: '{ memories(' },
      { query: LIST_MEMORIES, variables: { limit: 'many' } },
    ];
    for (const body of mistakes) {
      const res = await post(log.app, body);
      await accessLine(log, res.requestId!);
      expect(levelsOf(log, res.requestId!)).toEqual([{ level: INFO, stack: false }]);
    }
  });

  it('logs a request that names no operation of its several, or one it lacks, at info', async () => {
    const log = await logged();
    const twoOperations = 'query A { memorySettings { enabled } } query B { memorySettings { maxTokens } }';
    for (const body of [{ query: twoOperations }, { query: twoOperations, operationName: 'C' }]) {
      const res = await post(log.app, body);
      expect(res.body.errors.map((e) => e.extensions?.code)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
      await accessLine(log, res.requestId!);
      expect(levelsOf(log, res.requestId!)).toEqual([{ level: INFO, stack: false }]);
    }
  });

  it('logs refusals at warn, without a stack: no token, a wrong token, another key, a CSRF refusal, a body too large', async () => {
    const log = await logged();
    const gateway = await log.app.mintToken({ apiKeyId: 'k1' });
    const refusals = [
      await post(log.app, { query: GET_SETTINGS }, { authorization: '' }),
      await post(log.app, { query: GET_SETTINGS }, { authorization: 'Bearer mnemo_not-a-token' }),
      await post(log.app, { query: LIST_MEMORIES, variables: { apiKeyId: 'k2' } }, { authorization: `Bearer ${gateway}` }),
    ].map((r) => r.requestId!);
    const csrf = await fetch(`${log.app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ memorySettings { enabled } }' }),
    });
    expect(csrf.status).toBe(403);
    refusals.push(csrf.headers.get('x-request-id')!);
    refusals.push(await tooLarge(log.app));
    for (const id of refusals) {
      await accessLine(log, id);
      expect(levelsOf(log, id)).toEqual([{ level: WARN, stack: false }]);
    }
  });

  it('logs an unexpected error at error with its stack; the caller gets only INTERNAL_SERVER_ERROR and the request id', async () => {
    const log = await logged();
    vi.spyOn(log.app.services.settings, 'get').mockRejectedValue(new Error('SQLITE_CORRUPT: database disk image is malformed'));
    const res = await post(log.app, { query: GET_SETTINGS });
    expect(res.body).toMatchInlineSnapshot(
      { errors: [{ extensions: { requestId: expect.any(String) } }] },
      `
      {
        "data": null,
        "errors": [
          {
            "extensions": {
              "code": "INTERNAL_SERVER_ERROR",
              "requestId": Any<String>,
            },
            "locations": [
              {
                "column": 3,
                "line": 3,
              },
            ],
            "message": "Unexpected error.",
            "path": [
              "memorySettings",
            ],
          },
        ],
      }
    `,
    );
    expect(res.body.errors[0]!.extensions?.requestId).toBe(res.requestId);
    await accessLine(log, res.requestId!);
    const [line] = log.lines().filter((l) => l.reqId === res.requestId && l.msg === 'unexpected error');
    expect(line).toMatchObject({
      level: ERROR,
      path: 'memorySettings',
      err: { message: 'SQLITE_CORRUPT: database disk image is malformed' },
    });
    expect(line!.err!.stack).toContain('logs.test.ts');
  });

  it('logs a full disk at error without a stack and with what the database said, not as an unexpected error', async () => {
    const log = await logged();
    vi.spyOn(log.app.services.settings, 'get').mockRejectedValue(new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL'));
    const res = await post(log.app, { query: GET_SETTINGS });
    expect(res.body.errors[0]!.extensions?.code).toBe('STORAGE_FULL');
    await accessLine(log, res.requestId!);
    const lines = log.lines().filter((l) => l.reqId === res.requestId && l.msg !== 'request');
    expect(lines).toEqual([
      expect.objectContaining({
        level: ERROR,
        msg: 'request answered with errors',
        errors: [
          expect.objectContaining({
            code: 'STORAGE_FULL',
            path: 'memorySettings',
            store: { code: 'STORAGE_FULL', storeCode: 'SQLITE_FULL', message: 'database or disk is full' },
          }),
        ],
      }),
    ]);
    expect(log.text()).not.toContain('\\n    at ');
  });

  it('cuts a 10 MB value sent as an Int to a short prefix, in the answer and in the log', async () => {
    const log = await logged();
    const huge = '9'.repeat(10_000_000);
    const res = await post(log.app, { query: LIST_MEMORIES, variables: { limit: huge } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body).length).toBeLessThan(1000);
    // The request id is new for each request.
    expect(res.body).toMatchInlineSnapshot(
      { errors: [{ extensions: { requestId: expect.any(String) } }] },
      `
      {
        "errors": [
          {
            "extensions": {
              "code": "BAD_USER_INPUT",
              "requestId": Any<String>,
            },
            "locations": [
              {
                "column": 199,
                "line": 2,
              },
            ],
            "message": "Variable "$limit" got invalid value "9999999999999999999999999999999999999999…"; Int cannot represent non-integer value: "9999999999999999999999999999999999999999…"",
          },
        ],
      }
    `,
    );
    await accessLine(log, res.requestId!);
    expect(log.text().length).toBeLessThan(4000);
  });
});

/** A POST that declares a body over the limit: refused (413) before the body is read. Resolves with the request id. */
function tooLarge(target: TestApp) {
  return new Promise<string>((resolve, reject) => {
    const req = request(`${target.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': 30_000_000 },
    });
    req.on('response', (res) => {
      expect(res.statusCode).toBe(413);
      resolve(String(res.headers['x-request-id']));
      res.resume();
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.write('{"query":"');
  });
}

describe('secrets in the log', () => {
  it('never reach it: secrets sent through valid and malformed calls of every operation that takes one', async () => {
    const log = await logged();
    const secrets = {
      // Shaped like a key, and not at all (only the field it is sent in says it is one).
      providerKey: 'sk-proj-Tq8vW2xYz0AbCdEf1234',
      plainProviderKey: 'correct horse battery staple',
      qdrantKey: 'zebra quartz flamingo 42',
      urlPassword: 'hunter2pw',
      wrongBearer: 'not-a-real-token-but-secret',
    };
    const gateway = await log.app.mintToken({ apiKeyId: 'k1' });
    const provider = (apiKey: unknown, extra: Record<string, unknown> = {}) => ({
      query: UPSERT_PROVIDER,
      variables: { input: { id: 'p1', baseUrl: 'http://127.0.0.1:9/v1', apiKey, models: [{ name: 'e', kind: 'EMBEDDING' }], ...extra } },
    });
    const qdrant = (input: Record<string, unknown>) => ({ query: UPDATE_QDRANT, variables: { input } });
    const calls: [Body<unknown>, Record<string, string>?][] = [
      // upsertModelProvider: valid, a wrong type beside the key, an unknown field, a bad URL, a key too long,
      // the key inline with a bad value beside it, a syntax error after it, and from a token that may not.
      [provider(secrets.providerKey)],
      [provider(secrets.plainProviderKey)],
      [provider(secrets.providerKey, { models: 5 })],
      [provider(secrets.plainProviderKey, { bogus: true })],
      [provider(secrets.providerKey, { baseUrl: 'not a url' })],
      [provider(secrets.plainProviderKey.repeat(200))],
      [{ query: `mutation { upsertModelProvider(input: { id: "p2", baseUrl: 5, apiKey: "${secrets.providerKey}", models: [] }) { id } }` }],
      [{ query: `mutation { upsertModelProvider(input: { id: "p2", apiKey: "${secrets.plainProviderKey}" models: [ }) { id } }` }],
      [provider(secrets.providerKey), { authorization: `Bearer ${gateway}` }],
      // updateQdrantSettings: valid (a key, credentials in the URL), a wrong type beside the key, out of range.
      [qdrant({ url: 'http://127.0.0.1:9', apiKey: secrets.qdrantKey })],
      [qdrant({ url: `http://admin:${secrets.urlPassword}@127.0.0.1:9` })],
      [qdrant({ apiKey: secrets.qdrantKey, timeoutMs: 'soon' })],
      [qdrant({ apiKey: secrets.qdrantKey, timeoutMs: 5 })],
      [qdrant({ url: `http://admin:${secrets.urlPassword}@127.0.0.1:9`, port: 'x' })],
      // createAccessToken: valid (the minted token is a secret too) and malformed.
      [{ query: CREATE_TOKEN, variables: { input: { name: 'ci', role: 'GATEWAY' } } }],
      [{ query: CREATE_TOKEN, variables: { input: { name: 'ci', role: 'ROOT' } } }],
      // Tokens in the Authorization header: unknown, and a gateway token where an admin one is needed.
      [{ query: GET_SETTINGS }, { authorization: `Bearer ${secrets.wrongBearer}` }],
      [{ query: GET_SETTINGS }, { authorization: `Bearer ${gateway}` }],
      // What reads the configured secrets: Qdrant's health and the engine, whose calls fail.
      [{ query: graphql('query LogsSecretReaders { qdrantHealth { error } engineStatus { qdrant { error } embedding { reason } } }') }],
    ];
    const minted: string[] = [];
    for (const [body, headers] of calls) {
      const res = await post(log.app, body, headers);
      await accessLine(log, res.requestId!);
      // Only a createAccessToken call answers with a token.
      const { data } = res.body as GraphQLBody<Partial<CreateTokenMutation>>;
      if (data?.createAccessToken) minted.push(data.createAccessToken.token);
    }
    expect(minted).toHaveLength(1);
    const text = log.text();
    expect(text).toContain('"outcomes":["BAD_USER_INPUT"]');
    for (const secret of [...Object.values(secrets), gateway, ...minted, ADMIN_TOKEN]) {
      expect(text).not.toContain(secret);
      // Nor a part of one that would give most of it away.
      for (const part of secret.split(' ').filter((p) => p.length >= 6)) expect(text).not.toContain(part);
    }
  });
});
