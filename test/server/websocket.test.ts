import { once } from 'node:events';
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import type { ExecutionResult, GraphQLFormattedError } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_REQUEST_BODY_BYTES } from '../../server/graphql/bodyLimit.ts';
import { createLogger } from '../../server/logger.ts';
import { WebsocketRetrieveDocument as WS_RETRIEVE } from '../generated/graphql.ts';
import { holdEmbeddings, releaseHeldEmbeddings } from '../helpers/holdEmbeddings.ts';
import {
  CREATE_MEMORY,
  CREATE_TOKEN,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  REINDEX_PROGRESS,
  REVOKE_TOKEN,
  START_REINDEX,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { subscribe, subscribeOverWebSocket } from '../helpers/subscribe.ts';
import { startTestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { startVectorApp, type VectorApp } from '../helpers/vectorStore.ts';

let app: VectorApp;
beforeAll(async () => {
  // Batches of 5, so a job over a few dozen memories sends several updates.
  app = await startVectorApp({ engine: topicEngine(topicModelDir(), { MEMORY_EMBEDDING_BATCH_SIZE: '5' }) });
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'key-a', content: 'I deploy with Helm' } });
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'key-b', content: 'I deploy with Nomad' } });
});
afterAll(() => app.close());
afterEach(() => {
  releaseHeldEmbeddings();
  vi.restoreAllMocks();
});

/** Runs one operation over WebSocket to its end. */
const overWebSocket = <T, V>(
  query: DocumentTypeDecoration<T, V> | string,
  variables: NoInfer<V>,
  token?: string | null,
  how?: 'payload' | 'header',
) => subscribeOverWebSocket(app.url, query, variables, token, how).rest();

const codesOf = (results: ExecutionResult<unknown>[]) => results.flatMap((r) => r.errors ?? []).map((e) => e.extensions?.code);

async function startReindex() {
  const memories = Array.from({ length: 23 }, (_, i) => ({ apiKeyId: 'key-r', key: `m${i}`, content: `I eat mango on day ${i}` }));
  await app.ok(IMPORT_MEMORIES, { memories });
  return (await app.ok(START_REINDEX, { force: true })).reindex;
}

describe('GraphQL over WebSocket on /graphql', () => {
  it('streams reindexProgress to its end, as SSE does', async () => {
    // The job waits at its first batch until both streams have seen it running.
    const hold = await holdEmbeddings(app);
    const job = await startReindex();
    await hold.reached;
    const streams = [
      subscribeOverWebSocket(app.url, REINDEX_PROGRESS, { jobId: job.id }),
      subscribe(app.url, REINDEX_PROGRESS, { jobId: job.id }),
    ];
    const firsts = await Promise.all(streams.map((s) => s.next()));
    hold.open();
    const rests = await Promise.all(streams.map((s) => s.rest()));
    for (const [i, first] of firsts.entries()) {
      expect(first?.data?.reindexProgress).toMatchObject({ id: job.id, status: 'RUNNING', processed: 0 });
      const jobs = rests[i]!.map((r) => r.data!.reindexProgress);
      expect(jobs.length).toBeGreaterThan(1);
      expect(jobs.at(-1)).toMatchObject({ id: job.id, status: 'COMPLETED', processed: job.total, total: job.total });
    }
  });

  it('takes the token from the upgrade request’s Authorization header too', async () => {
    const token = await app.mintToken({ apiKeyId: 'key-a' });
    const [result] = await overWebSocket(WS_RETRIEVE, { input: { apiKeyId: 'key-a', query: 'deploy' } }, token, 'header');
    expect(result?.data).toEqual({ retrieve: { items: [{ memory: { apiKeyId: 'key-a', content: 'I deploy with Helm' } }] } });
  });

  it('confines a bound token to its own API key', async () => {
    const token = await app.mintToken({ apiKeyId: 'key-a' });
    const results = await overWebSocket(WS_RETRIEVE, { input: { apiKeyId: 'key-b', query: 'deploy' } }, token);
    expect(codesOf(results)).toEqual(['FORBIDDEN']);
  });

  it('refuses a connection without a token, or with an unknown one, with 4403', async () => {
    await expect(overWebSocket(WS_RETRIEVE, { input: { apiKeyId: 'key-a', query: 'x' } }, null)).rejects.toMatchObject({ code: 4403 });
    await expect(overWebSocket(WS_RETRIEVE, { input: { apiKeyId: 'key-a', query: 'x' } }, 'not-a-token')).rejects.toMatchObject({
      code: 4403,
    });
  });

  it('stops a token revoked while its connection is open at its next operation', async () => {
    const minted = await app.ok(CREATE_TOKEN, { input: { name: 'ws', role: 'GATEWAY', apiKeyId: 'key-a' } });
    const { token, accessToken } = minted.createAccessToken;
    const input = { input: { apiKeyId: 'key-a', query: 'deploy' } };
    const first = subscribeOverWebSocket(app.url, WS_RETRIEVE, input, token);
    expect((await first.next())?.data).toBeTruthy();
    await app.ok(REVOKE_TOKEN, { id: accessToken.id });
    // The same connection, a new operation.
    // graphql-ws answers an operation refused before it runs with an error message: the client rejects.
    const refused = first.client.iterate({ query: String(WS_RETRIEVE), variables: input }).next();
    await expect(refused).rejects.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
    first.close();
  });

  it('runs mutations, as a POST does', async () => {
    const token = await app.mintToken({ apiKeyId: 'key-w' });
    const [result] = await overWebSocket(CREATE_MEMORY, { input: { apiKeyId: 'key-w', content: 'I write over WebSocket' } }, token);
    expect(result?.errors).toBeUndefined();
    const stored = await app.ok(LIST_MEMORIES, { apiKeyId: 'key-w' });
    expect(stored.memories.items.map((m) => m.content)).toEqual(['I write over WebSocket']);
  });

  it('applies the same query limits as HTTP', async () => {
    const tooManyAliases = `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: memorySettings { enabled }`).join(' ')} }`;
    const overHttp = await app.gqlRaw(tooManyAliases);
    expect(overHttp.errors?.[0]?.message).toMatch(/Aliases limit of 20 exceeded/);
    await expect(overWebSocket(tooManyAliases, {})).rejects.toEqual(
      overHttp.errors?.map((e) => expect.objectContaining({ message: e.message })),
    );
  });
});

describe('an operation refused over WebSocket before it runs', () => {
  it('is answered with its request id and logged, as over HTTP', async () => {
    let log = '';
    const target = await startTestApp({ logger: createLogger('info', { write: (line: string) => (log += line) }) });
    try {
      const minted = await target.ok(CREATE_TOKEN, { input: { name: 'ws', role: 'GATEWAY', apiKeyId: 'key-a' } });
      const { token, accessToken } = minted.createAccessToken;
      const input = { input: { apiKeyId: 'key-a', content: 'first' } };
      const socket = subscribeOverWebSocket(target.url, CREATE_MEMORY, input, token);
      expect((await socket.next())?.errors).toBeUndefined();
      await target.ok(REVOKE_TOKEN, { id: accessToken.id });
      // graphql-ws's client rejects with the errors of an operation refused before it runs.
      const refused: GraphQLFormattedError[] = await socket.client
        .iterate({ query: String(CREATE_MEMORY), variables: input })
        .next()
        .then(
          () => [],
          (errors) => errors,
        );
      socket.close();
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchInlineSnapshot(
        { extensions: { requestId: expect.any(String) } },
        `
        {
          "extensions": {
            "code": "UNAUTHENTICATED",
            "requestId": Any<String>,
          },
          "message": "the bearer token is unknown or revoked",
        }
      `,
      );
      const ofRequest = log
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { reqId?: string; level: number; msg: string })
        .filter((l) => l.reqId === refused[0]?.extensions?.requestId);
      expect(ofRequest).toMatchObject([{ level: 40, msg: 'request answered with errors' }]);
    } finally {
      await target.close();
    }
  });
});

describe('a WebSocket message over the request size limit', () => {
  it('closes the connection with 1009 (message too big) and logs a warning, printing nothing else', async () => {
    let log = '';
    const target = await startTestApp({ logger: createLogger('info', { write: (line: string) => (log += line) }) });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const socket = new WebSocket(`${target.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      // The server may reset the connection while the rest of the message is still being sent.
      socket.on('error', () => {});
      await once(socket, 'open');
      socket.send('x'.repeat(MAX_REQUEST_BODY_BYTES + 1));
      const [code] = await once(socket, 'close');
      expect(code).toBe(1009);
      expect(log).toContain('"code":"WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"');
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      await target.close();
    }
  });
});
