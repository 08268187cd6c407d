/**
 * The request body limit (useRequestBodyLimit, in place of yoga's built-in maxRequestBodySize): the same
 * refusals as yoga's, whether the body comes over HTTP with a Content-Length, chunked, or through yoga.fetch
 * with a Content-Length that lies.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES, useRequestBodyLimit } from '../../server/graphql/bodyLimit.ts';
import { graphql } from '../helpers/graphql.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

const LIMIT = 200;
const echo = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { echo(text: String!): String! }',
    resolvers: { Query: { echo: (_: unknown, a: { text: string }) => a.text } },
  }),
  maxRequestBodySize: false,
  logging: false,
  plugins: [useRequestBodyLimit(LIMIT)],
});
const body = (text: string) => JSON.stringify({ query: 'query($t: String!) { echo(text: $t) }', variables: { t: text } });

let server: Server;
let port: number;
let app: TestApp;
beforeAll(async () => {
  server = createServer(echo);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  app = await startTestApp();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

/** A POST over a fresh connection: with a Content-Length header, or chunked (the chunks as given). */
function post(to: { port: number; headers?: Record<string, string> }, chunks: (string | Buffer)[], contentLength: number | null) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1', ...to.headers };
    if (contentLength !== null) headers['content-length'] = contentLength;
    const req = request({ host: '127.0.0.1', port: to.port, path: '/graphql', method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer')));
    // The server may answer and close before the whole body is written.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('the request body limit', () => {
  it('over HTTP with a Content-Length: accepts a body within the limit, refuses one declared over it before reading it', async () => {
    const small = body('hi');
    expect(await post({ port }, [small], Buffer.byteLength(small))).toEqual({ status: 200, text: '{"data":{"echo":"hi"}}' });
    const big = body('x'.repeat(LIMIT));
    const refused = await post({ port }, [big], Buffer.byteLength(big));
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "extensions": {
              "code": "REQUEST_ENTITY_TOO_LARGE",
            },
            "message": "Request body too large",
          },
        ],
      }
    `);
  });

  it('over HTTP, chunked: counts the bytes as they arrive', async () => {
    const small = body('hi');
    expect((await post({ port }, [small.slice(0, 10), small.slice(10)], null)).status).toBe(200);
    const big = body('x'.repeat(LIMIT));
    const refused = await post({ port }, [big.slice(0, 100), big.slice(100)], null);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "extensions": {
              "code": "REQUEST_ENTITY_TOO_LARGE",
            },
            "message": "Request body too large",
          },
        ],
      }
    `);
  });

  it('through yoga.fetch: refuses a malformed Content-Length, and counts a body whose Content-Length lies', async () => {
    const send = (text: string, contentLength: string) =>
      echo.fetch(
        new echo.fetchAPI.Request('http://x/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1', 'content-length': contentLength },
          body: text,
        }),
      );
    for (const bad of ['1,1', '-1', 'abc', '1 ']) {
      const res = await send(body('hi'), bad);
      expect(res.status, `Content-Length: "${bad}"`).toBe(400);
      expect(await res.json()).toMatchInlineSnapshot(`
        {
          "errors": [
            {
              "extensions": {
                "code": "BAD_REQUEST",
              },
              "message": "Content-Length header is invalid.",
            },
          ],
        }
      `);
    }
    expect((await send(body('hi'), String(Buffer.byteLength(body('hi'))))).status).toBe(200);
    const lying = await send(body('x'.repeat(LIMIT)), '10');
    expect(lying.status).toBe(413);
    expect(await lying.json()).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "extensions": {
              "code": "REQUEST_ENTITY_TOO_LARGE",
            },
            "message": "Request body too large",
          },
        ],
      }
    `);
  });

  it('mnemo refuses bodies over 25 MB, declared or chunked', async () => {
    const to = { port: Number(new URL(app.url).port), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
    const declared = await post(to, ['{'], MAX_REQUEST_BODY_BYTES + 1);
    expect(declared.status).toBe(413);
    const mb = Buffer.alloc(1_000_000, 0x20);
    const chunked = await post(to, ['{"query":"{ __typename }"', ...Array.from({ length: 26 }, () => mb), '}'], null);
    expect(chunked.status).toBe(413);
    // mnemo's errors carry the request's id, new for each request.
    expect(JSON.parse(chunked.text)).toMatchInlineSnapshot(
      { errors: [{ extensions: { requestId: expect.any(String) } }] },
      `
      {
        "errors": [
          {
            "extensions": {
              "code": "REQUEST_ENTITY_TOO_LARGE",
              "requestId": Any<String>,
            },
            "message": "Request body too large",
          },
        ],
      }
    `,
    );
    expect(await app.ok(graphql('query BodyLimitTypename { __typename }'))).toEqual({ __typename: 'Query' });
  });
});
