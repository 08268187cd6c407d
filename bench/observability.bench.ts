/**
 * What metrics and access logging cost a gateway: `retrieve` over HTTP against two servers on the same database,
 * one that counts its metrics and writes an access line per request (at info, to a Node write stream on /dev/null,
 * as `mnemo serve` writes to process.stdout piped to a log collector), one that does neither (metrics not
 * recorded, log level warn). Request ids and the request's logger exist in both: they are not optional.
 */
import { createWriteStream } from 'node:fs';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { Metrics } from '../server/metrics/metrics.ts';
import { createRequestScope } from '../server/requestScope.ts';
import { createServices } from '../server/services.ts';
import { RETRIEVE_QUERY } from './lib/answer.ts';
import { BENCH_ADMIN_TOKEN, openBenchDb } from './lib/benchDb.ts';
import { type HttpClientProcess, spawnHttpClient } from './lib/httpLane.ts';
import { questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable } from './lib/table.ts';

interface OverheadOptions {
  memories: number;
  /** Rounds of one block per server, in turns (on, off, on, off, ...). */
  rounds: number;
  callsPerBlock: number;
  warmup: number;
}

const SIZES: Record<'quick' | 'full', OverheadOptions> = {
  quick: { memories: 1000, rounds: 20, callsPerBlock: 10, warmup: 100 },
  full: { memories: 1000, rounds: 150, callsPerBlock: 10, warmup: 300 },
};

interface OverheadResult {
  on: LatencySummary;
  off: LatencySummary;
  /** CPU time this process (the servers) spent per call, in ms: less swayed by other work on the machine than wall time. */
  cpu: { on: number; off: number };
  /** Per question: its time against the server with metrics and access lines, minus against the one without. */
  added: LatencySummary;
  accessLines: number;
}

async function benchOverhead(o: OverheadOptions): Promise<OverheadResult> {
  const db = await openBenchDb();
  const devNull = createWriteStream('/dev/null');
  let accessLines = 0;
  const counted = {
    write: (line: string) => {
      if (line.includes('"msg":"request"')) accessLines++;
      return devNull.write(line);
    },
  };
  const key = apiKeyName(0);
  const clients: HttpClientProcess[] = [];
  const apps: ReturnType<typeof createApp>[] = [];
  try {
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 7 });
    await analyzeLikeAServer(db.database);
    await db.services.settings.update({ enabled: true });
    const server = async (observed: boolean) => {
      const services = createServices({
        db: db.database.db,
        logger: createLogger(observed ? 'info' : 'warn', counted),
        adminToken: BENCH_ADMIN_TOKEN,
        recordMetrics: observed,
      });
      const app = createApp(services);
      apps.push(app);
      const { port } = await app.listen(0, '127.0.0.1');
      const client = spawnHttpClient({
        url: `http://127.0.0.1:${port}/graphql`,
        token: BENCH_ADMIN_TOKEN,
        query: RETRIEVE_QUERY,
        strategy: 'HYBRID',
        label: observed ? 'metrics and access log on' : 'off',
      });
      clients.push(client);
      return client;
    };
    const [on, off] = [await server(true), await server(false)];
    const next = questionStream(3);
    const block = (n: number) => Array.from({ length: n }, () => ({ input: { apiKeyId: key, query: next(), strategy: 'HYBRID' } }));
    const warm = block(o.warmup);
    for (const client of [on, off]) await client.run({ variables: warm, warmup: warm.length, maxMs: null, minCalls: 0 });
    const ms = { on: [] as number[], off: [] as number[], added: [] as number[] };
    const cpuMs = new Map([
      [on, 0],
      [off, 0],
    ]);
    const timedRun = async (client: HttpClientProcess, variables: Record<string, unknown>[]) => {
      const before = process.cpuUsage();
      const reply = await client.run({ variables, warmup: 0, maxMs: null, minCalls: 0 });
      const used = process.cpuUsage(before);
      cpuMs.set(client, cpuMs.get(client)! + (used.user + used.system) / 1000);
      return reply;
    };
    for (let r = 0; r < o.rounds; r++) {
      // The same questions against both, in turns, so a busy spell of the machine hits both alike.
      const variables = block(o.callsPerBlock);
      const [first, second] = r % 2 === 0 ? [on, off] : [off, on];
      const a = await timedRun(first, variables);
      const b = await timedRun(second, variables);
      const [withIt, without] = first === on ? [a.ms, b.ms] : [b.ms, a.ms];
      ms.on.push(...withIt);
      ms.off.push(...without);
      ms.added.push(...withIt.map((t, i) => t - without[i]!));
    }
    const calls = o.rounds * o.callsPerBlock;
    return {
      on: summarize(ms.on),
      off: summarize(ms.off),
      added: summarize(ms.added),
      cpu: { on: cpuMs.get(on)! / calls, off: cpuMs.get(off)! / calls },
      accessLines,
    };
  } finally {
    for (const client of clients) await client.close();
    for (const app of apps) await app.close();
    await db.close();
    devNull.end();
  }
}

/**
 * The same extra work without HTTP or the rest of the request around it, per request: the access line (built,
 * serialized, redacted, written to /dev/null) and the metric updates of a retrieve. A tight loop keeps its code
 * and data hot, so it shows the least the extra work can cost; the HTTP figure above shows it in place.
 */
async function inProcessCost(calls: number): Promise<number> {
  const devNull = createWriteStream('/dev/null');
  const logger = createLogger('info', devNull);
  const metrics = new Metrics();
  // Every request has its scope, with or without an access line: made once here, outside what is timed.
  const scope = createRequestScope(logger, '2f1c7a9e-3b4d-4e5f-8a6b-7c8d9e0f1a2b');
  scope.tokenId = 'env';
  const once = () => {
    metrics.observeOperation({ type: 'query', fields: [{ name: 'retrieve', outcome: 'OK' }], durationMs: 2.1, stream: false });
    metrics.observeRetrieval({
      strategy: 'HYBRID',
      tiers: ['keyword'],
      fallbackReason: 'no model',
      skipped: null,
      tokensUsed: 812,
      items: 17,
    });
    scope.log.info(
      {
        method: 'POST',
        path: '/graphql',
        status: 200,
        ms: 2.14,
        bytesIn: 212,
        bytesOut: 13_402,
        tokenId: scope.tokenId,
        operation: 'query',
        operationName: 'Retrieve',
        fields: ['retrieve'],
        outcomes: ['OK'],
      },
      'request',
    );
  };
  for (let i = 0; i < calls / 10; i++) once();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) once();
  // The stream writes behind: its writes count too.
  await new Promise((resolve) => devNull.end(resolve));
  return (performance.now() - t0) / calls;
}

export const sections: BenchSection[] = [
  {
    name: 'observability',
    group: 'ops',
    description: 'what metrics and access logging add to retrieve over HTTP (p50), on vs off in one run',
    run: async ({ quick }) => {
      const o = SIZES[quick ? 'quick' : 'full'];
      const r = await benchOverhead(o);
      const inProcess = await inProcessCost(quick ? 2000 : 20_000);
      printTable({
        title: `retrieve over HTTP, ${fmtInt(o.memories)} memories of one key (HYBRID → keyword tier): metrics and access log on vs off`,
        columns: [
          { header: 'server' },
          { header: 'n' },
          { header: 'p50 ms' },
          { header: 'p95 ms' },
          { header: 'p99 ms' },
          { header: 'server CPU ms/call' },
        ],
        rows: [
          ['metrics counted, access line written', String(r.on.n), fmtMs(r.on.p50), fmtMs(r.on.p95), fmtMs(r.on.p99), fmtMs(r.cpu.on)],
          ['neither', String(r.off.n), fmtMs(r.off.p50), fmtMs(r.off.p95), fmtMs(r.off.p99), fmtMs(r.cpu.off)],
          [
            'added per question (on − off)',
            String(r.added.n),
            fmtMs(r.added.p50),
            fmtMs(r.added.p95),
            fmtMs(r.added.p99),
            fmtMs(r.cpu.on - r.cpu.off),
          ],
        ],
        notes: [
          `two servers in this process on one database; one client process per server, sending the same questions in blocks of`,
          `${o.callsPerBlock}, in turns (${o.rounds} rounds); p50 of the per-question differences is the cost; goal: under 0.1 ms.`,
          `${fmtInt(r.accessLines)} access lines written (to a write stream on /dev/null). Server CPU: this process's user+system`,
          `time over the timed blocks per call, which other work on the machine sways less than wall time.`,
          `in-process, the same extra work alone (access line built, serialized, redacted and written; metrics of a retrieve`,
          `updated), in a hot loop: ${fmtMs(inProcess)} ms per request.`,
        ],
      });
    },
  },
];
