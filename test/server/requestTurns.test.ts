import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestTurns } from '../../server/requestTurns.ts';
import { ADMIN_TOKEN, startTestApp } from '../helpers/testApp.ts';

// A request served by better-sqlite3 holds the event loop from its start to its answer. requestTurns starts one per
// turn of the loop, so timers and sockets are looked at between any two.

/** Holds the loop as a synchronous request does. */
function busyFor(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('requests taking turns on the event loop', () => {
  it('starts requests in the order they asked', async () => {
    const turns = requestTurns();
    const started: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => turns.take().then(() => started.push(i))));
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs a timer that fell due during one request before starting the next', async () => {
    const turns = requestTurns();
    const events: string[] = [];
    const first = turns.take().then(() => {
      events.push('first request');
      setTimeout(() => events.push('timer'), 0);
      // Long enough that the timer (due after 1 ms) is due when the loop next looks at its timers.
      busyFor(5);
    });
    const second = turns.take().then(() => events.push('second request'));
    await Promise.all([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual(['first request', 'timer', 'second request']);
  });

  it('reads a socket that became readable during one request before starting the next', async () => {
    const turns = requestTurns();
    const events: string[] = [];
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = () => events.push('message');
    const first = turns.take().then(() => {
      events.push('first request');
      port1.postMessage('ping');
      busyFor(5);
    });
    const second = turns.take().then(() => events.push('second request'));
    await Promise.all([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    port1.close();
    expect(events).toEqual(['first request', 'message', 'second request']);
  });

  it('tells how long each request waited for its turn', async () => {
    const waits: number[] = [];
    const turns = requestTurns({ waited: (ms) => waits.push(ms) });
    const first = turns.take().then(() => busyFor(5));
    await Promise.all([first, turns.take()]);
    expect(waits).toHaveLength(2);
    // The second waited behind the first one's 5 ms.
    expect(waits[1]).toBeGreaterThanOrEqual(5);
  });

  it('does not serve a request whose caller hung up while it waited', async () => {
    const turns = requestTurns();
    const served: string[] = [];
    const waitedFor = { destroyed: false };
    const abandoned = { destroyed: false };
    turns.serve(waitedFor, () => served.push('waited for'));
    turns.serve(abandoned, () => served.push('abandoned'));
    abandoned.destroyed = true;
    await turns.take();
    expect(served).toEqual(['waited for']);
  });
});

describe('a server under a burst of requests', () => {
  it('answers a health probe that came behind GraphQL requests before them', async () => {
    const app = await startTestApp();
    const port = Number(new URL(app.url).port);
    const sockets = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const socket = connect(port, '127.0.0.1');
        await once(socket, 'connect');
        return socket;
      }),
    );
    try {
      // Accepted first: a connection is accepted in one turn of the loop and read in the next.
      const accepted = () =>
        new Promise<number>((resolve, reject) => app.http.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
      while ((await accepted()) < sockets.length) await new Promise((resolve) => setTimeout(resolve, 5));
      const answered: string[] = [];
      const all = Promise.all(sockets.map((socket, i) => once(socket, 'data').then(() => answered.push(i < 5 ? 'graphql' : 'healthz'))));
      const body = JSON.stringify({ query: '{ __typename }' });
      const graphql = `POST /graphql HTTP/1.1\r\nhost: mnemo\r\ncontent-type: application/json\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      // Written in one go, so the server reads all six in one poll of its event loop, the probe last.
      for (const socket of sockets.slice(0, 5)) socket.write(graphql);
      sockets[5]!.write('GET /healthz HTTP/1.1\r\nhost: mnemo\r\n\r\n');
      await all;
      expect(answered).toEqual(['healthz', 'graphql', 'graphql', 'graphql', 'graphql', 'graphql']);
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
    }
  });
});
