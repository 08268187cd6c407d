/**
 * The HTTP lane's client, run in a child process (spawnHttpClient in httpLane.ts) so that the server's process
 * does nothing but serve while it is timed: what a gateway on the same host would see, without this client's
 * own costs or a shared event loop in the figure.
 *
 * Protocol: one JSON object per line on stdin, one reply per line on stdout.
 *   1st line:  { url, token, query, strategy, label, protocol }             (no reply)
 *   then:      { variables: [...], warmup, maxMs, minCalls }                → { ms: [...], items: [...], connections }
 *   stdin end: exit 0.   Any failure: { error } on stdout, exit 1.
 * Each block sends `variables` in order, one request at a time; the first `warmup` are sent untimed. Timing
 * stops early once maxMs have passed since the block began and at least minCalls were timed.
 *
 * Transport: node:http with a keep-alive Agent of one socket, not undici's fetch. Per call, fetch builds
 * WHATWG Request/Headers/Response objects and reads the body through a web stream; node:http writes a
 * prebuilt buffer and hands back Buffers from llhttp. Against a plain node:http server on loopback returning a
 * retrieve-sized body (13 KB), a round trip took 0.3-0.4 ms at p50 with node:http and 0.6-0.8 ms with fetch
 * (Node 20, 2 cores): ~0.3 ms of client cost per call that this lane would otherwise count as HTTP overhead.
 * The timer runs from the request being written to the last byte of the response; parsing the JSON and
 * checking it happen after the timer stops.
 */
import http from 'node:http';
import { createInterface } from 'node:readline';
import type { Strategy } from '../../server/retrieval/retrieval.ts';
import { answerOfMcpResponse, answerOfResponse, expectTier } from './answer.ts';
import { timedPost } from './timedPost.ts';

export interface ClientConfig {
  /** The endpoint, e.g. http://127.0.0.1:1234/graphql. */
  url: string;
  token: string;
  /**
   * graphql (the default): each call posts { query, variables } and is answered by `retrieve`; mcp: each call is a
   * JSON-RPC tools/call of memory_search with the variables as its arguments.
   */
  protocol?: 'graphql' | 'mcp';
  /** The GraphQL document; unused over MCP. */
  query: string;
  /** The strategy the variables ask for; every answer is checked against it (expectTier). */
  strategy: Strategy;
  /** Names the lane in error messages. */
  label: string;
}

export interface ClientBlock {
  variables: Record<string, unknown>[];
  warmup: number;
  maxMs: number | null;
  minCalls: number;
}

export interface ClientReply {
  /** Per timed call, milliseconds from writing the request to the last byte of the response. */
  ms: number[];
  /** Memories each timed call returned. */
  items: number[];
  /** Connections opened during the block: 1 for the first block, 0 after it while keep-alive holds. */
  connections: number;
}

function client(config: ClientConfig) {
  const url = new URL(config.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const mcp = config.protocol === 'mcp';
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${config.token}`,
    // A streamable HTTP server answers only clients that take both.
    ...(mcp ? { accept: 'application/json, text/event-stream' } : {}),
  };
  const bodyOf = (variables: Record<string, unknown>, id: number) =>
    mcp
      ? { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'memory_search', arguments: variables } }
      : { query: config.query, variables };
  const answerOf = mcp ? answerOfMcpResponse : answerOfResponse;
  let calls = 0;

  const send = (body: Buffer) => timedPost(agent, url, headers, body);

  return {
    async run(block: ClientBlock): Promise<ClientReply> {
      // Serialized before anything is timed: the request bytes are the client's business.
      const bodies = block.variables.map((variables, i) => Buffer.from(JSON.stringify(bodyOf(variables, calls + i + 1))));
      const reply: ClientReply = { ms: [], items: [], connections: 0 };
      const until = block.maxMs === null ? Number.POSITIVE_INFINITY : performance.now() + block.maxMs;
      for (const [i, body] of bodies.entries()) {
        const timed = i >= block.warmup;
        if (timed && reply.ms.length >= block.minCalls && performance.now() >= until) break;
        const sent = await send(body);
        const answer = answerOf(`${config.label}, call ${++calls}`, sent.status, sent.text);
        expectTier(`${config.label}, call ${calls}`, config.strategy, answer);
        if (sent.newConnection) reply.connections++;
        if (timed) {
          reply.ms.push(sent.ms);
          reply.items.push(answer.items);
        }
      }
      return reply;
    },
    close: () => agent.destroy(),
  };
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let c: ReturnType<typeof client> | null = null;
  for await (const line of lines) {
    if (!line.trim()) continue;
    if (!c) {
      c = client(JSON.parse(line) as ClientConfig);
      continue;
    }
    process.stdout.write(`${JSON.stringify(await c.run(JSON.parse(line) as ClientBlock))}\n`);
  }
  c?.close();
}

main().catch((err: unknown) => {
  // Exits at once (the agent's socket would keep the process alive), once the error line has been flushed.
  process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`, () => process.exit(1));
});
