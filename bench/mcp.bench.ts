/**
 * What MCP costs on top of GraphQL: memory_search over MCP's streamable HTTP (/mcp) against retrieve over GraphQL
 * (/graphql), both from a client in another process, on the same server, the same questions and one key's memories.
 */
import { BENCH_ADMIN_TOKEN, openBenchDb, startHttp } from './lib/benchDb.ts';
import { type ClientReply, type HttpClientProcess, spawnHttpClient } from './lib/httpLane.ts';
import { questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable, type Table } from './lib/table.ts';

/** retrieve asking for what memory_search answers with: the memories, the budget, the reason, and the block. */
const RETRIEVE_LIKE_SEARCH = `query Retrieve($input: RetrieveInput!) {
  retrieve(input: $input) { tokensUsed maxTokens skipped block
    items { memory { id key type } content truncated score tier tokens } resolution { requestedStrategy tiers fallbackReason } }
}`;

export interface McpBenchOptions {
  memories: number;
  /** Timed calls per protocol. */
  iterations: number;
  /** Untimed calls per protocol before the first timed block (HTTP parsers and both pipelines get optimised). */
  warmup: number;
  /** Blocks per protocol, alternating (GraphQL, MCP, MCP, GraphQL, ...), the same questions in each pair. */
  rounds: number;
}

export interface McpBenchResult {
  graphql: LatencySummary;
  mcp: LatencySummary;
  /** Per question, the MCP call's time minus the GraphQL call's. */
  added: LatencySummary;
  /** CPU time of the server's process per call (user + system, ms), over the timed blocks. */
  serverCpu: { graphql: number; mcp: number };
}

export async function benchMcp(o: McpBenchOptions): Promise<McpBenchResult> {
  const db = await openBenchDb();
  const clients: HttpClientProcess[] = [];
  try {
    await db.services.settings.update({ enabled: true });
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 301 });
    await analyzeLikeAServer(db.database);
    const server = await startHttp(db.services);
    try {
      const lane = (protocol: 'graphql' | 'mcp') => {
        const client = spawnHttpClient({
          url: `${server.url}/${protocol}`,
          token: BENCH_ADMIN_TOKEN,
          protocol,
          query: RETRIEVE_LIKE_SEARCH,
          strategy: 'HYBRID',
          label: `${fmtInt(o.memories)} memories, ${protocol}`,
        });
        clients.push(client);
        return client;
      };
      const graphql = lane('graphql');
      const mcp = lane('mcp');
      const next = questionStream(7);
      const apiKeyId = apiKeyName(0);
      // The same arguments both ways: memory_search's are retrieve's input.
      const calls = (n: number) => Array.from({ length: n }, () => ({ apiKeyId, query: next(), strategy: 'HYBRID' }));
      const warm = calls(o.warmup);
      const asGraphql = (args: Record<string, unknown>[]) => args.map((input) => ({ input }));
      await graphql.run({ variables: asGraphql(warm), warmup: warm.length, maxMs: null, minCalls: 0 });
      await mcp.run({ variables: warm, warmup: warm.length, maxMs: null, minCalls: 0 });

      const ms = { graphql: [] as number[], mcp: [] as number[], added: [] as number[] };
      const cpuMs = { graphql: 0, mcp: 0 };
      // While a block runs this process only serves it: its CPU time is what the block's calls cost the server.
      const serving = async (protocol: 'graphql' | 'mcp', block: Promise<ClientReply>) => {
        const before = process.cpuUsage();
        const reply = await block;
        const { user, system } = process.cpuUsage(before);
        cpuMs[protocol] += (user + system) / 1000;
        return reply;
      };
      const perBlock = Math.ceil(o.iterations / o.rounds);
      for (let r = 0; r < o.rounds; r++) {
        const block = calls(perBlock);
        const runGraphql = () => serving('graphql', graphql.run({ variables: asGraphql(block), warmup: 0, maxMs: null, minCalls: 0 }));
        const runMcp = () => serving('mcp', mcp.run({ variables: block, warmup: 0, maxMs: null, minCalls: 0 }));
        // Which goes first alternates, so neither always meets the pages the other just warmed.
        const viaMcpFirst = r % 2 === 1 ? await runMcp() : null;
        const viaGraphql = await runGraphql();
        const viaMcp = viaMcpFirst ?? (await runMcp());
        ms.graphql.push(...viaGraphql.ms);
        ms.mcp.push(...viaMcp.ms);
        ms.added.push(...viaMcp.ms.map((t, i) => t - viaGraphql.ms[i]!));
      }
      return {
        graphql: summarize(ms.graphql),
        mcp: summarize(ms.mcp),
        added: summarize(ms.added),
        serverCpu: { graphql: cpuMs.graphql / ms.graphql.length, mcp: cpuMs.mcp / ms.mcp.length },
      };
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    }
  } finally {
    await db.close();
  }
}

export function mcpTable(r: McpBenchResult, o: McpBenchOptions): Table {
  const met = r.added.p50 <= 1;
  const row = (via: string, l: LatencySummary, cpu: number) => [
    via,
    fmtMs(l.p50),
    fmtMs(l.p95),
    fmtMs(l.p99),
    fmtMs(l.mean),
    String(l.n),
    fmtMs(cpu),
  ];
  return {
    title: `memory_search over MCP vs retrieve over GraphQL, ms, HTTP from another process (${fmtInt(o.memories)} memories of one key)`,
    columns: [
      { header: 'via', align: 'left' },
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'mean' },
      { header: 'n' },
      { header: 'server CPU/call' },
    ],
    rows: [
      row('retrieve, POST /graphql', r.graphql, r.serverCpu.graphql),
      row('memory_search, POST /mcp (tools/call)', r.mcp, r.serverCpu.mcp),
      row('MCP minus GraphQL, per question', r.added, r.serverCpu.mcp - r.serverCpu.graphql),
    ],
    notes: [
      `target: MCP adds at most 1 ms at p50 over GraphQL: ${fmtMs(r.added.p50)} ms, ${met ? 'met' : 'MISSED'}.`,
      'both: HYBRID without an embedding model (the keyword tier), memory on, the same questions with the same arguments; the',
      'GraphQL query asks for what memory_search answers with (memories, budget, block). Each protocol has its own client',
      'process (node:http, one keep-alive connection, one request at a time, timed from writing the request to the last byte);',
      `they run in ${o.rounds} alternating blocks (which goes first alternates), after ${o.warmup} untimed calls each. MCP is stateless:`,
      "each POST authenticates, builds the caller's MCP server and transport, and is answered with JSON.",
      "server CPU/call: the server process's user + system time over each protocol's timed blocks, per call (the mean). On a",
      'machine shared with other work, latencies stretch with the wait for a core; CPU time much less so.',
    ],
  };
}

const SIZES: Record<'quick' | 'full', McpBenchOptions> = {
  quick: { memories: 2000, iterations: 60, warmup: 50, rounds: 4 },
  full: { memories: 10_000, iterations: 600, warmup: 300, rounds: 6 },
};

export const sections: BenchSection[] = [
  {
    name: 'mcp',
    group: 'mcp',
    description: 'memory_search over MCP (streamable HTTP) vs retrieve over GraphQL HTTP, 10k memories of one key',
    run: async ({ quick }) => {
      const o = SIZES[quick ? 'quick' : 'full'];
      printTable(mcpTable(await benchMcp(o), o));
    },
  },
];
