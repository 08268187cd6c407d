/**
 * Mixed load: many gateways at once against one `mnemo serve` over HTTP, mostly reading (retrieve) with some writing
 * (createMemory), for a fixed time. What a deployment sees at its busiest: throughput and the latency each call had,
 * queueing included, with the server's memory and its event loop's worst stall. Each MNEMO_WORKERS value runs as its
 * own real server on its own copy of the seeded database; their slices of the run alternate, so that a change in the
 * machine's load (other processes) reaches every variant alike.
 */

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN, openBenchDb } from './lib/benchDb.ts';
import { runLoadClients } from './lib/httpLane.ts';
import type { LoadReply } from './lib/loadClient.ts';
import { loadLine } from './lib/machine.ts';
import { gcPausesOver100Ms, metricValue, type ServedMnemo, serveMnemo } from './lib/mnemoServer.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';

export interface MixedOptions {
  /** Memories seeded before the run, over `apiKeys` keys (a few big tenants and a long tail). */
  memories: number;
  apiKeys: number;
  clients: number;
  /** Share of calls that write (createMemory); the rest retrieve. */
  writeShare: number;
  warmupMs: number;
  /** Timed time per variant, split into `slices` that alternate with the other variants'. */
  durationMs: number;
  slices: number;
}

const MIXED_SIZES: Record<'quick' | 'default', MixedOptions> = {
  quick: { memories: 2_000, apiKeys: 5, clients: 16, writeShare: 0.1, warmupMs: 500, durationMs: 2_000, slices: 2 },
  default: { memories: 50_000, apiKeys: 20, clients: 16, writeShare: 0.1, warmupMs: 3_000, durationMs: 30_000, slices: 2 },
};

/** The bounded mix of the target: one key of 10k memories, 9 retrieve : 1 create, 16 connections, 60 s. */
const BOUNDED_SIZES: Record<'quick' | 'default', MixedOptions> = {
  quick: { memories: 2_000, apiKeys: 1, clients: 16, writeShare: 0.1, warmupMs: 500, durationMs: 4_000, slices: 2 },
  default: { memories: 10_000, apiKeys: 1, clients: 16, writeShare: 0.1, warmupMs: 3_000, durationMs: 60_000, slices: 2 },
};

/** What one MNEMO_WORKERS value did over all its slices. */
export interface VariantResult {
  workers: number;
  load: LoadReply;
  /** Bytes, the server's processes together (ServedMnemo.memory): once started (before the first slice), and at most. */
  idle: { rss: number; pss: number };
  peak: { rss: number; pss: number };
  /**
   * The event loop's worst delay in any process of the server during the slices' timed part, and during their warm-ups
   * (perf_hooks.monitorEventLoopDelay).
   */
  eventLoopMaxMs: number;
  warmupEventLoopMaxMs: number;
  gcPausesOver100Ms: number;
  /** How long each /healthz probe of the timed part waited for its answer. */
  healthzMs: number[];
}

export async function benchMixed(o: MixedOptions, workers: readonly number[]): Promise<VariantResult[]> {
  const seeded = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-mixed-'));
  const servers: ServedMnemo[] = [];
  try {
    await seedFolder(o, seeded);
    const results: VariantResult[] = [];
    for (const n of workers) {
      const dataDir = path.join(seeded, `workers-${n}`);
      mkdirSync(dataDir);
      copyFileSync(path.join(seeded, 'mnemo.db'), path.join(dataDir, 'mnemo.db'));
      const server = await serveMnemo(dataDir, n);
      servers.push(server);
      results.push({
        workers: n,
        load: { retrieveMs: [], writeMs: [], elapsedMs: 0 },
        idle: { rss: 0, pss: 0 },
        peak: { rss: 0, pss: 0 },
        eventLoopMaxMs: 0,
        warmupEventLoopMaxMs: 0,
        gcPausesOver100Ms: 0,
        healthzMs: [],
      });
    }
    for (let slice = 0; slice < o.slices; slice++) {
      for (const [i, server] of servers.entries()) await runSlice(server, results[i]!, o, slice);
    }
    return results;
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    rmSync(seeded, { recursive: true, force: true });
  }
}

/** The seeded database file, mnemo.db in `folder`, as a server that has run a while would leave it. */
async function seedFolder(o: MixedOptions, folder: string) {
  const db = await openBenchDb();
  try {
    await seedMemories(db.database, { count: o.memories, apiKeys: o.apiKeys, seed: 301 });
    await analyzeLikeAServer(db.database);
    await db.services.settings.update({ enabled: true });
    db.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(db.file, path.join(folder, 'mnemo.db'));
  } finally {
    await db.close();
  }
}

async function runSlice(server: ServedMnemo, into: VariantResult, o: MixedOptions, slice: number) {
  // The first scrape starts the process monitors; each scrape resets the event-loop histogram (prom-client), so the
  // scrape at the warm-up's end leaves the timed part's stalls to the last.
  let before = await server.metrics();
  if (slice === 0) into.idle = server.memory();
  const sample = () => {
    const now = server.memory();
    into.peak = { rss: Math.max(into.peak.rss, now.rss), pss: Math.max(into.peak.pss, now.pss) };
  };
  const sampler = setInterval(sample, 200);
  let probe: HealthProbe | undefined;
  try {
    const reply = await runLoadClients(
      {
        url: `${server.url}/graphql`,
        token: BENCH_ADMIN_TOKEN,
        clients: o.clients,
        apiKeys: Array.from({ length: o.apiKeys }, (_, i) => apiKeyName(i)),
        writeShare: o.writeShare,
        // Connections are new at each slice; the server is warm after the first.
        warmupMs: slice === 0 ? o.warmupMs : Math.min(o.warmupMs, 1_000),
        durationMs: o.durationMs / o.slices,
      },
      async () => {
        before = await server.metrics();
        into.warmupEventLoopMaxMs = Math.max(into.warmupEventLoopMaxMs, metricValue(before, 'nodejs_eventloop_lag_max_seconds') * 1000);
        probe = probeHealthz(server.url);
      },
    );
    into.healthzMs.push(...((await probe?.stop()) ?? []));
    into.load.retrieveMs.push(...reply.retrieveMs);
    into.load.writeMs.push(...reply.writeMs);
    into.load.elapsedMs += reply.elapsedMs;
  } finally {
    clearInterval(sampler);
    await probe?.stop();
  }
  sample();
  const after = await server.metrics();
  into.eventLoopMaxMs = Math.max(into.eventLoopMaxMs, metricValue(after, 'nodejs_eventloop_lag_max_seconds') * 1000);
  into.gcPausesOver100Ms += gcPausesOver100Ms(after) - gcPausesOver100Ms(before);
}

interface HealthProbe {
  /** Stops probing; how long each probe waited. */
  stop(): Promise<number[]>;
}

/**
 * Asks /healthz every 100 ms, one probe at a time, each on a new connection (as a load balancer's probe comes, and so
 * that the workers take turns with it): how long a health check waits while the load runs.
 */
function probeHealthz(url: string): HealthProbe {
  const waits: number[] = [];
  let stopped = false;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      get(`${url}/healthz`, { agent: false }, (res) => {
        res.resume().once('end', () => {
          waits.push(performance.now() - started);
          resolve();
        });
      }).once('error', reject);
    });
  const probing = (async () => {
    while (!stopped) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  // A failed probe fails the run when it is stopped, not the process before then.
  probing.catch(() => {});
  return {
    stop: async () => {
      stopped = true;
      await probing;
      return waits;
    },
  };
}

const mb = (bytes: number) => fmtInt(bytes / 2 ** 20);

export function mixedTables(results: VariantResult[], o: MixedOptions, title: string): Table[] {
  const row = (what: string, r: VariantResult, ms: number[]) => {
    const s = summarize(ms);
    return [what, String(r.workers), fmtInt(s.n), fmtInt(perSecond(s.n, r.load.elapsedMs)), fmtMs(s.p50), fmtMs(s.p99), fmtMs(s.max)];
  };
  const rate = (r: VariantResult) => perSecond(r.load.retrieveMs.length + r.load.writeMs.length, r.load.elapsedMs);
  const [first, ...others] = results;
  return [
    {
      title: `${title}: ${o.clients} clients over HTTP for ${(o.durationMs / 1000).toFixed(0)} s per MNEMO_WORKERS value, ${Math.round(100 * (1 - o.writeShare))}% retrieve / ${Math.round(100 * o.writeShare)}% createMemory`,
      columns: [
        { header: 'calls' },
        { header: 'MNEMO_WORKERS' },
        { header: 'count' },
        { header: 'per second' },
        { header: 'p50 ms' },
        { header: 'p99 ms' },
        { header: 'max ms' },
      ],
      rows: results.flatMap((r) => [
        row('retrieve (keyword)', r, r.load.retrieveMs),
        row('createMemory', r, r.load.writeMs),
        row('all', r, [...r.load.retrieveMs, ...r.load.writeMs]),
      ]),
      notes: [
        `${fmtInt(o.memories)} memories seeded over ${o.apiKeys} key${o.apiKeys === 1 ? '' : 's'}${o.apiKeys > 1 ? ' (a few big tenants, a long tail), each call to a key drawn the same way' : ''};`,
        `  each value is a real \`mnemo serve\` on its own copy of the database; the values take turns, ${o.slices} slices each;`,
        `  every client sends its next call when the last one is answered (a closed loop), on its own keep-alive connection,`,
        `  from a child process; latency counts the wait behind the other clients' calls. ${(o.warmupMs / 1000).toFixed(1)} s of warm-up first.`,
        ...others.map((r) => `  throughput, MNEMO_WORKERS=${r.workers} against ${first!.workers}: ${(rate(r) / rate(first!)).toFixed(2)}×`),
        `  load average at the end: ${loadLine()}`,
      ],
    },
    {
      title: `${title}: the server's memory and stalls`,
      columns: [
        { header: 'MNEMO_WORKERS' },
        { header: 'RSS idle MB' },
        { header: 'RSS peak MB' },
        { header: 'peak / idle' },
        { header: 'PSS idle MB' },
        { header: 'PSS peak MB' },
        { header: 'event loop worst ms' },
        { header: 'in warm-up ms' },
        { header: 'GC pauses > 100 ms' },
        { header: '/healthz p99 ms' },
        { header: '/healthz max ms' },
      ],
      rows: results.map((r) => [
        String(r.workers),
        mb(r.idle.rss),
        mb(r.peak.rss),
        (r.peak.rss / r.idle.rss).toFixed(2),
        mb(r.idle.pss),
        mb(r.peak.pss),
        fmtMs(r.eventLoopMaxMs),
        fmtMs(r.warmupEventLoopMaxMs),
        fmtInt(r.gcPausesOver100Ms),
        fmtMs(summarize(r.healthzMs).p99),
        fmtMs(summarize(r.healthzMs).max),
      ]),
      notes: [
        'the primary and its workers together (/proc/<pid>/smaps_rollup), idle once started and before the load, peak sampled every',
        '  200 ms; RSS counts the pages they share (the database file each maps) once per process, PSS splits them among them;',
        '  event loop: the worst delay of any of its processes (perf_hooks.monitorEventLoopDelay through /metrics, 10 ms resolution)',
        '  in the timed part of the slices, and in their warm-ups (each slice warms up anew); GC pauses: in the timed part;',
        '  /healthz: a probe every 100 ms of the timed part, each on a new connection, from the bench process.',
      ],
    },
  ];
}

export const sections: BenchSection[] = [
  {
    name: 'mixed',
    group: 'load',
    description: '16 clients over HTTP for 30 s per MNEMO_WORKERS value: retrieve-heavy with 10% writes, throughput and p50/p99',
    run: async ({ quick, workers }) => {
      const o = MIXED_SIZES[quick ? 'quick' : 'default'];
      for (const table of mixedTables(await benchMixed(o, workers), o, 'mixed load')) printTable(table);
    },
  },
  {
    name: 'mixed-bounded',
    group: 'load',
    description:
      "the issue's bounded mix: one key of 10k memories, 16 clients, 9 retrieve : 1 create, 60 s per MNEMO_WORKERS value; RSS and stalls",
    run: async ({ quick, workers }) => {
      const o = BOUNDED_SIZES[quick ? 'quick' : 'default'];
      for (const table of mixedTables(await benchMixed(o, workers), o, 'bounded mixed load')) printTable(table);
    },
  },
];
