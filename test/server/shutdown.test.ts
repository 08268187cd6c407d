import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../server/embedding/embedder.ts';
import { GET_SETTINGS, IMPORT_MEMORIES, REINDEX_PROGRESS, START_REINDEX } from '../helpers/operations.ts';
import { subscribe, subscribeOverWebSocket } from '../helpers/subscribe.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';

let app: TestApp | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await app?.close();
  app = null;
});

const readyz = async (target: TestApp) => {
  const res = await fetch(`${target.url}/readyz`);
  return { status: res.status, body: await res.json() };
};

/**
 * Sends an importMemories request whose body arrives in two parts: the server has the request (it is in flight)
 * once `arrived` resolves, and finishes it only after `finish()` sends the rest.
 */
function requestInTwoParts(target: TestApp) {
  const body = JSON.stringify({
    query: String(IMPORT_MEMORIES),
    variables: { memories: [{ apiKeyId: 'k1', key: 'editor', content: 'Uses Helix' }] },
  });
  const arrived = once(target.http.server, 'request');
  const req = request(`${target.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': Buffer.byteLength(body) },
  });
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { arrived, response, finish: () => req.end(body.slice(half)) };
}

describe('/readyz', () => {
  it('answers 503 until start-up is complete, 200 then, and 503 again once draining', async () => {
    app = await startTestApp();
    expect(await readyz(app)).toEqual({ status: 503, body: { status: 'starting' } });
    app.http.markReady();
    expect(await readyz(app)).toEqual({ status: 200, body: { status: 'ready' } });
    // A probe that reaches the server while it drains: pipelined behind a request still in flight.
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closed = once(socket, 'close');
    const body = JSON.stringify({ query: String(GET_SETTINGS) });
    const head = `POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-length: ${body.length}\r\n\r\n`;
    const arrived = once(app.http.server, 'request');
    socket.write(head);
    await arrived;
    const draining = app.http.drain(60_000);
    socket.write(`${body}GET /readyz HTTP/1.1\r\nhost: x\r\n\r\n`);
    await closed;
    expect(answer).toMatch(/^HTTP\/1.1 200 /);
    expect(answer).toContain('HTTP/1.1 503');
    expect(answer).toContain(`{"status":"draining"}`);
    expect(await draining).toEqual({ cut: 0 });
  });

  it('refuses new connections once draining', async () => {
    app = await startTestApp();
    app.http.markReady();
    await app.http.drain(60_000);
    await expect(fetch(`${app.url}/readyz`)).rejects.toThrow();
  });
});

describe('draining', () => {
  it('lets a request in flight finish and land, and accepts no new connection', async () => {
    app = await startTestApp();
    const inFlight = requestInTwoParts(app);
    await inFlight.arrived;
    const draining = app.http.drain(60_000);
    await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
    inFlight.finish();
    const res = await inFlight.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.importMemories.imported).toBe(1);
    expect(await draining).toEqual({ cut: 0 });
    expect(app.database.sqlite.prepare('select count(*) as n from memories').get()).toEqual({ n: 1 });
  });

  it('cuts what is still in flight at the deadline, and says how many requests it cut', async () => {
    app = await startTestApp();
    const inFlight = requestInTwoParts(app);
    await inFlight.arrived;
    expect(await app.http.drain(0)).toEqual({ cut: 1 });
    await expect(inFlight.response).rejects.toThrow();
  });

  it.each([
    ['SSE', subscribe],
    ['WebSocket', subscribeOverWebSocket],
  ])('ends a subscription over %s with a complete event', async (_transport, open) => {
    app = await startTestApp({ engine: topicEngine(topicModelDir()) });
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'k1', key: 'editor', content: 'Uses Helix' }] });
    const { embedder } = await app.services.vectors.embedding();
    let reach!: () => void;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    // The job's embedding waits until after the drain, so the job is still running while the stream ends.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const embed = embedder!.embed.bind(embedder);
    vi.spyOn(embedder as Embedder, 'embed').mockImplementation(async (texts) => {
      reach();
      await released;
      return embed(texts);
    });
    const { reindex } = await app.ok(START_REINDEX);
    await reached;
    const stream = open(app.url, REINDEX_PROGRESS, { jobId: reindex.id });
    expect((await stream.next())?.data?.reindexProgress.status).toBe('RUNNING');
    const drained = app.http.drain(60_000);
    // null: the client saw the server's complete event (a cut connection would reject instead).
    expect(await stream.next()).toBeNull();
    expect(await drained).toEqual({ cut: 0 });
    release();
    stream.close();
    await app.services.reindex.idle();
  });
});
