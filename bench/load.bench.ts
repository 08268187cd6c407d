/**
 * Mixed load: many gateways at once against one server over HTTP, mostly reading (retrieve) with some writing
 * (createMemory), for a fixed time. What a deployment sees at its busiest: throughput and the latency each call had,
 * queueing included.
 */

import { BENCH_ADMIN_TOKEN, openBenchDb, startHttp } from './lib/benchDb.ts';
import { runLoadClients } from './lib/httpLane.ts';
import type { LoadReply } from './lib/loadClient.ts';
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
  durationMs: number;
}

const MIXED_SIZES: Record<'quick' | 'default', MixedOptions> = {
  quick: { memories: 2_000, apiKeys: 5, clients: 16, writeShare: 0.1, warmupMs: 500, durationMs: 2_000 },
  default: { memories: 50_000, apiKeys: 20, clients: 16, writeShare: 0.1, warmupMs: 3_000, durationMs: 30_000 },
};

export async function benchMixed(o: MixedOptions): Promise<LoadReply> {
  const db = await openBenchDb();
  try {
    await seedMemories(db.database, { count: o.memories, apiKeys: o.apiKeys, seed: 301 });
    await analyzeLikeAServer(db.database);
    await db.services.settings.update({ enabled: true });
    const server = await startHttp(db.services);
    try {
      return await runLoadClients({
        url: `${server.url}/graphql`,
        token: BENCH_ADMIN_TOKEN,
        clients: o.clients,
        apiKeys: Array.from({ length: o.apiKeys }, (_, i) => apiKeyName(i)),
        writeShare: o.writeShare,
        warmupMs: o.warmupMs,
        durationMs: o.durationMs,
      });
    } finally {
      await server.close();
    }
  } finally {
    await db.close();
  }
}

export function mixedTable(r: LoadReply, o: MixedOptions): Table {
  const row = (what: string, ms: number[]) => {
    const s = summarize(ms);
    return [what, fmtInt(s.n), fmtInt(perSecond(s.n, r.elapsedMs)), fmtMs(s.p50), fmtMs(s.p99)];
  };
  return {
    title: `mixed load: ${o.clients} clients over HTTP for ${(o.durationMs / 1000).toFixed(0)} s, ${Math.round(100 * (1 - o.writeShare))}% retrieve / ${Math.round(100 * o.writeShare)}% createMemory`,
    columns: [{ header: 'calls' }, { header: 'count' }, { header: 'per second' }, { header: 'p50 ms' }, { header: 'p99 ms' }],
    rows: [row('retrieve (keyword)', r.retrieveMs), row('createMemory', r.writeMs), row('all', [...r.retrieveMs, ...r.writeMs])],
    notes: [
      `${fmtInt(o.memories)} memories seeded over ${o.apiKeys} keys (a few big tenants, a long tail), each call to a key drawn the same way;`,
      `  every client sends its next call when the last one is answered (a closed loop), on its own keep-alive connection,`,
      `  from a child process; latency counts the wait behind the other clients' calls. ${(o.warmupMs / 1000).toFixed(1)} s of warm-up first.`,
    ],
  };
}

export const sections: BenchSection[] = [
  {
    name: 'mixed',
    group: 'load',
    description: '16 clients over HTTP for 30 s: retrieve-heavy with 10% writes, throughput and p50/p99',
    run: async ({ quick }) => {
      const o = MIXED_SIZES[quick ? 'quick' : 'default'];
      printTable(mixedTable(await benchMixed(o), o));
    },
  },
];
