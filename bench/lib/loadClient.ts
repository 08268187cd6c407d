/**
 * The mixed-load clients, run in a child process (spawnLoadClients) so that the server's process only serves.
 *
 * Protocol: one JSON LoadConfig line on stdin; a line { "warm": true } on stdout when the warm-up ends, then one JSON
 * LoadReply line when done (or { error }), then exit.
 * `clients` loops run at once, each on its own keep-alive connection, each sending its next request as soon as the
 * previous one is answered (a closed loop, as gateways behave under back-pressure): a createMemory with probability
 * `writeShare`, else a retrieve of a varied question for a key drawn like the seeded data (big tenants more often).
 * Calls that start during the first `warmupMs` are not timed; the run stops starting calls after `durationMs` more (or
 * once each kind of call has been timed, if none had been by then).
 */
import http from 'node:http';
import { createInterface } from 'node:readline';
import { answerOfResponse, RETRIEVE_QUERY } from './answer.ts';
import { questionStream } from './queries.ts';
import { keyWeights } from './seed.ts';
import { rng, sentence } from './text.ts';
import { timedPost } from './timedPost.ts';

export interface LoadConfig {
  url: string;
  token: string;
  clients: number;
  /** The API keys of the seeded data, biggest tenant first. */
  apiKeys: string[];
  writeShare: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadReply {
  /** Per timed call, milliseconds from writing the request to the last byte of the answer. */
  retrieveMs: number[];
  writeMs: number[];
  /** Wall-clock milliseconds of the timed part. */
  elapsedMs: number;
}

const CREATE_QUERY = 'mutation Create($input: MemoryInput!) { createMemory(input: $input) { id } }';
/** How long past its window a run may go on to time a call of each kind. */
const MAX_EXTRA_MS = 60_000;

async function runLoad(c: LoadConfig): Promise<LoadReply> {
  const url = new URL(c.url);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${c.token}` };
  const cumulative: number[] = [];
  keyWeights(c.apiKeys.length).reduce((acc, w, i) => (cumulative[i] = acc + w), 0);
  const reply: LoadReply = { retrieveMs: [], writeMs: [], elapsedMs: 0 };
  const start = performance.now();
  const timedFrom = start + c.warmupMs;
  const until = timedFrom + c.durationMs;
  // On a busy machine a short window can close before any call of a kind was timed in it, and a figure of 0 calls
  // says nothing: calls go on (a bounded while) until each kind the mix holds has one.
  const lastResort = until + MAX_EXTRA_MS;
  const missingKind = () => reply.retrieveMs.length === 0 || (c.writeShare > 0 && reply.writeMs.length === 0);
  const goOn = () => performance.now() < until || (missingKind() && performance.now() < lastResort);
  const client = async (n: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const random = rng(1000 + n);
    const question = questionStream(2000 + n);
    try {
      for (let call = 1; goOn(); call++) {
        const r = random();
        const apiKeyId =
          c.apiKeys[
            Math.max(
              0,
              cumulative.findIndex((x) => r < x),
            )
          ]!;
        const write = random() < c.writeShare;
        const body = write
          ? { query: CREATE_QUERY, variables: { input: { apiKeyId, content: sentence(random), metadata: { source: 'bench' } } } }
          : { query: RETRIEVE_QUERY, variables: { input: { apiKeyId, query: question(), strategy: 'HYBRID' } } };
        const timed = performance.now() >= timedFrom;
        const sent = await timedPost(agent, url, headers, Buffer.from(JSON.stringify(body)));
        const label = `client ${n}, call ${call}`;
        if (write) {
          const answer = JSON.parse(sent.text) as { data?: { createMemory?: { id: string } }; errors?: unknown[] };
          if (sent.status !== 200 || answer.errors || !answer.data?.createMemory) throw new Error(`${label}: ${sent.text.slice(0, 300)}`);
        } else answerOfResponse(label, sent.status, sent.text);
        if (timed) (write ? reply.writeMs : reply.retrieveMs).push(sent.ms);
      }
    } finally {
      agent.destroy();
    }
  };
  const warm = setTimeout(() => process.stdout.write(`${JSON.stringify({ warm: true })}\n`), c.warmupMs);
  await Promise.all(Array.from({ length: c.clients }, (_, n) => client(n)));
  clearTimeout(warm);
  reply.elapsedMs = performance.now() - timedFrom;
  return reply;
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (!line.trim()) continue;
    process.stdout.write(`${JSON.stringify(await runLoad(JSON.parse(line) as LoadConfig))}\n`, () => process.exit(0));
    return;
  }
}

main().catch((err: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`, () => process.exit(1));
});
