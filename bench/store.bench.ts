/**
 * The memory store: how fast memories go in (createMemory, importMemories) and how fast the admin list
 * comes back, both in-process through the service and over HTTP through the real yoga server.
 */

import { type ImportReport, importMemories } from '../server/memory/import.service.ts';
import { createMemory, listMemories, type MemoryQuery } from '../server/memory/memory.service.ts';
import type { MemoryInput, MemoryType } from '../server/memory/memory.ts';
import { contentKey } from '../server/memory/memory.ts';
import { type BenchDb, type BenchHttp, openBenchDb, startHttp } from './lib/benchDb.ts';
import type { BenchSection } from './lib/section.ts';
import { apiKeyName, seedingMethod, seedMemories } from './lib/seed.ts';
import { type LatencySummary, runPool, sampleInterleaved, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';
import { pick, rng, SEARCH_WORD, sentence } from './lib/text.ts';

export type Via = 'in-process' | 'http';
const VIAS: Via[] = ['in-process', 'http'];

// ---------------------------------------------------------------------------------------------------
// 1. create throughput

export interface CreateOptions {
  /** createMemory calls in-process, and the same number over HTTP at concurrency 1 (alternating). */
  creates: number;
  /** createMemory mutations over HTTP at `concurrency`. */
  httpConcurrent: number;
  concurrency: number;
  /** Rows imported in batches of `batchSize`, in-process and over HTTP (alternating batches). */
  importRows: number;
  batchSize: number;
  /** Untimed calls before each timed run (JIT, tokenizer tables, prepared statements, sockets). */
  warmup: number;
  /** Also measure over HTTP. */
  http: boolean;
}

export interface ThroughputResult {
  operation: string;
  via: Via;
  concurrency: number;
  memories: number;
  calls: number;
  /** Concurrency 1: the sum of the call times; otherwise wall-clock time for all calls. */
  ms: number;
  memoriesPerSecond: number;
  /** Per-call latency; with concurrency > 1 it includes queueing behind the other calls. */
  perCall: LatencySummary;
  /** Rows the database gained: equals `memories` unless some inputs upserted instead of inserting. */
  rowsAdded: number;
}

const TYPES: MemoryType[] = ['factual', 'factual', 'episodic', 'semantic', 'procedural'];

/**
 * Distinct memories (no two share a content key, so each create inserts rather than upserts), like a
 * gateway storing what it extracted from chats. One stream per database, so warm-up and measured rows
 * never collide either.
 */
function inputStream(seed: number, apiKeys = 10) {
  const random = rng(seed);
  const seen = new Set<string>();
  return (count: number): MemoryInput[] => {
    const out: MemoryInput[] = [];
    while (out.length < count) {
      const apiKeyId = apiKeyName(Math.floor(random() * apiKeys));
      const content = sentence(random);
      const id = `${apiKeyId}\0${contentKey(content)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({
        apiKeyId,
        sessionId: random() < 0.6 ? `session-${Math.floor(random() * 500)}` : null,
        type: pick(random, TYPES),
        content,
        metadata: { source: 'bench', turn: Math.floor(random() * 40) },
      });
    }
    return out;
  };
}

const toGraphQLInput = (m: MemoryInput) => ({ ...m, type: m.type ? m.type.toUpperCase() : undefined });

const CREATE_MUTATION = `mutation Create($input: MemoryInput!) { createMemory(input: $input) { id key tokens } }`;
const IMPORT_MUTATION = `mutation Import($memories: [MemoryInput!]!) { importMemories(memories: $memories) { imported updated rejected { index reason } } }`;

const admin = () => true;

/** A fresh database per measured variant (and a server for the HTTP ones), so no figure depends on what ran before it. */
interface Target {
  via: Via;
  db: BenchDb;
  server: BenchHttp | null;
  inputs: (count: number) => MemoryInput[];
  create(m: MemoryInput): Promise<void>;
  import(rows: MemoryInput[]): Promise<void>;
}

async function openTarget(via: Via): Promise<Target> {
  const db = await openBenchDb();
  const server = via === 'http' ? await startHttp(db.services) : null;
  const rejected = (r: ImportReport['rejected']) => {
    if (r.length) throw new Error(`import rejected rows: ${JSON.stringify(r.slice(0, 3))}`);
  };
  return {
    via,
    db,
    server,
    inputs: inputStream(1000),
    create: server
      ? async (m) => void (await server.gql(CREATE_MUTATION, { input: toGraphQLInput(m) }))
      : async (m) => void (await createMemory(db.services, m)),
    import: server
      ? async (rows) => {
          const data = await server.gql<{ importMemories: ImportReport }>(IMPORT_MUTATION, { memories: rows.map(toGraphQLInput) });
          rejected(data.importMemories.rejected);
        }
      : async (rows) => rejected((await importMemories(db.services, rows, admin)).rejected),
  };
}

async function withTargets<T>(vias: Via[], fn: (targets: Target[]) => Promise<T>): Promise<T> {
  const targets: Target[] = [];
  try {
    for (const via of vias) targets.push(await openTarget(via));
    return await fn(targets);
  } finally {
    for (const t of targets) {
      await t.server?.close();
      await t.db.close();
    }
  }
}

interface Lane {
  target: Target;
  operation: string;
  /** Each call's work, prepared before timing; its length is the memories it stores. */
  batches: MemoryInput[][];
  call(target: Target, batch: MemoryInput[]): Promise<void>;
}

/**
 * Serial throughput of several variants measured in turns (call 1 of each, call 2 of each, ...), so a
 * slow spell on a busy machine hits every variant alike; each variant's rate is its memories over the
 * sum of its own call times.
 */
async function alternateLanes(lanes: Lane[]): Promise<ThroughputResult[]> {
  const before = await Promise.all(lanes.map((l) => l.target.db.countMemories()));
  const latencies = lanes.map(() => [] as number[]);
  const turns = Math.max(...lanes.map((l) => l.batches.length));
  for (let i = 0; i < turns; i++) {
    for (const [k, lane] of lanes.entries()) {
      const batch = lane.batches[i];
      if (!batch) continue;
      const t0 = performance.now();
      await lane.call(lane.target, batch);
      latencies[k]!.push(performance.now() - t0);
    }
  }
  const after = await Promise.all(lanes.map((l) => l.target.db.countMemories()));
  return lanes.map((lane, k) => {
    const memories = lane.batches.reduce((n, b) => n + b.length, 0);
    const ms = latencies[k]!.reduce((sum, x) => sum + x, 0);
    return {
      operation: lane.operation,
      via: lane.target.via,
      concurrency: 1,
      memories,
      calls: lane.batches.length,
      ms,
      memoriesPerSecond: perSecond(memories, ms),
      perCall: summarize(latencies[k]!),
      rowsAdded: after[k]! - before[k]!,
    };
  });
}

function chunk<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function benchCreate(o: CreateOptions): Promise<ThroughputResult[]> {
  const results: ThroughputResult[] = [];
  const vias: Via[] = o.http ? ['in-process', 'http'] : ['in-process'];

  // Single creates, in-process and over HTTP one at a time, alternating.
  await withTargets(vias, async (targets) => {
    for (const t of targets) for (const m of t.inputs(o.warmup)) await t.create(m);
    const lanes = targets.map((target) => ({
      target,
      operation: 'createMemory',
      batches: chunk(target.inputs(o.creates), 1),
      call: (t: Target, [m]: MemoryInput[]) => t.create(m!),
    }));
    results.push(...(await alternateLanes(lanes)));
  });

  // Many clients at once over HTTP: wall-clock throughput of a pool of `concurrency` in-flight requests.
  if (o.http) {
    await withTargets(['http'], async ([target]) => {
      const t = target!;
      const warm = t.inputs(o.warmup);
      await runPool(warm.length, o.concurrency, (i) => t.create(warm[i]!));
      const rows = t.inputs(o.httpConcurrent);
      const before = await t.db.countMemories();
      const latencies = new Array<number>(rows.length);
      const ms = await runPool(rows.length, o.concurrency, async (i) => {
        const t0 = performance.now();
        await t.create(rows[i]!);
        latencies[i] = performance.now() - t0;
      });
      results.push({
        operation: 'createMemory',
        via: 'http',
        concurrency: o.concurrency,
        memories: rows.length,
        calls: rows.length,
        ms,
        memoriesPerSecond: perSecond(rows.length, ms),
        perCall: summarize(latencies),
        rowsAdded: (await t.db.countMemories()) - before,
      });
    });
  }

  // Batched imports, in-process and over HTTP, alternating batches.
  await withTargets(vias, async (targets) => {
    for (const t of targets) await t.import(t.inputs(Math.min(o.warmup, o.batchSize)));
    const lanes = targets.map((target) => ({
      target,
      operation: `importMemories ×${o.batchSize}`,
      batches: chunk(target.inputs(o.importRows), o.batchSize),
      call: (t: Target, rows: MemoryInput[]) => t.import(rows),
    }));
    results.push(...(await alternateLanes(lanes)));
  });

  // In-process rows first, then HTTP, for each operation.
  const group = (r: ThroughputResult) => (r.operation.startsWith('import') ? 1 : 0);
  return results.sort((a, b) => group(a) - group(b) || VIAS.indexOf(a.via) - VIAS.indexOf(b.via) || a.concurrency - b.concurrency);
}

// ---------------------------------------------------------------------------------------------------
// 2. list latency

export interface ListOptions {
  /** Total rows in the database for each measurement, ascending; seeded incrementally into one file. */
  sizes: number[];
  apiKeys: number;
  iterations: number;
  warmup: number;
  /** Time cap per measured case, so a slow query cannot stretch the run without bound; n shows what ran. */
  maxMsPerCase?: number;
  http: boolean;
}

export interface LatencyResult {
  rowsTotal: number;
  query: string;
  via: Via;
  /** totalCount of the page: how many rows the filter matched. */
  matched: number;
  latency: LatencySummary;
}

const LIST_QUERY = `query List($apiKeyId: String, $search: String, $limit: Int) {
  memories(apiKeyId: $apiKeyId, search: $search, limit: $limit) { totalCount items { id key content } }
}`;

interface ListCase {
  name: string;
  query: MemoryQuery;
}

export async function benchList(o: ListOptions): Promise<ListReport> {
  const results: LatencyResult[] = [];
  const seeding: SeedTiming[] = [];
  const sample = { iterations: o.iterations, warmup: o.warmup, maxMs: o.maxMsPerCase };
  // The largest tenant: the worst case for a per-key page and its totalCount.
  const key = apiKeyName(0);
  const cases: ListCase[] = [
    { name: 'newest 20 of one key', query: { apiKeyId: key } },
    { name: `one key, search "${SEARCH_WORD}"`, query: { apiKeyId: key, search: SEARCH_WORD } },
    { name: 'admin: newest 20 of all keys', query: { apiKeyId: null } },
  ];
  const db = await openBenchDb();
  try {
    for (const [step, size] of o.sizes.entries()) {
      const have = await db.countMemories();
      if (size > have) {
        const t0 = performance.now();
        await seedMemories(db.database, { count: size - have, apiKeys: o.apiKeys, seed: 7 + step });
        seeding.push({ rows: size - have, ms: performance.now() - t0 });
      }
      const rowsTotal = await db.countMemories();
      // The server starts only after seeding, which blocks the event loop for seconds: a keep-alive
      // socket the server timed out meanwhile would reset the next request.
      const server = o.http ? await startHttp(db.services) : null;
      try {
        for (const c of cases) {
          const inProcess = () => listMemories(db.services, c.query, { limit: 20 });
          const page = await inProcess();
          if (page.items.length !== Math.min(20, page.totalCount))
            throw new Error(`${c.name}: got ${page.items.length} items of ${page.totalCount}`);
          const calls: { via: Via; call: () => Promise<unknown> }[] = [{ via: 'in-process', call: inProcess }];
          if (server) {
            const variables = { apiKeyId: c.query.apiKeyId, search: c.query.search ?? null, limit: 20 };
            const overHttp = () => server.gql<{ memories: { totalCount: number; items: unknown[] } }>(LIST_QUERY, variables);
            const viaHttp = (await overHttp()).memories;
            if (viaHttp.totalCount !== page.totalCount || viaHttp.items.length !== page.items.length) {
              throw new Error(
                `${c.name}: HTTP returned ${viaHttp.items.length} of ${viaHttp.totalCount}, in-process ${page.items.length} of ${page.totalCount}`,
              );
            }
            calls.push({ via: 'http', call: overHttp });
          }
          // In-process and HTTP calls alternate, so both see the same machine load.
          const samples = await sampleInterleaved(
            calls.map((x) => x.call),
            sample,
          );
          results.push(
            ...calls.map((x, k) => ({ rowsTotal, query: c.name, via: x.via, matched: page.totalCount, latency: summarize(samples[k]!) })),
          );
        }
      } finally {
        await server?.close();
      }
    }
  } finally {
    await db.close();
  }
  return { results, seeding };
}

export interface SeedTiming {
  rows: number;
  ms: number;
}

export interface ListReport {
  results: LatencyResult[];
  /** How long seeding each increment took (setup, not part of the latencies). */
  seeding: SeedTiming[];
}

// ---------------------------------------------------------------------------------------------------
// sections

const CREATE_SIZES: Record<'quick' | 'full', Omit<CreateOptions, 'http'>> = {
  quick: { creates: 300, httpConcurrent: 400, concurrency: 8, importRows: 2000, batchSize: 1000, warmup: 50 },
  full: { creates: 3000, httpConcurrent: 4000, concurrency: 8, importRows: 20_000, batchSize: 1000, warmup: 200 },
};

const LIST_SIZES: Record<'quick' | 'full', Omit<ListOptions, 'http'>> = {
  quick: { sizes: [1000, 5000], apiKeys: 10, iterations: 50, warmup: 10, maxMsPerCase: 2000 },
  full: { sizes: [10_000, 100_000], apiKeys: 10, iterations: 300, warmup: 30, maxMsPerCase: 8000 },
};

export function createTable(results: ThroughputResult[], o: CreateOptions): Table {
  return {
    title: 'create throughput (fresh database per variant; distinct memories, so every call inserts)',
    columns: [
      { header: 'operation' },
      { header: 'via', align: 'left' },
      { header: 'conc' },
      { header: 'memories' },
      { header: 'seconds' },
      { header: 'memories/s' },
      { header: 'call p50 ms' },
      { header: 'call p99 ms' },
      { header: 'rows added' },
    ],
    rows: results.map((r) => [
      r.operation,
      r.via,
      String(r.concurrency),
      fmtInt(r.memories),
      (r.ms / 1000).toFixed(2),
      fmtInt(r.memoriesPerSecond),
      fmtMs(r.perCall.p50),
      fmtMs(r.perCall.p99),
      fmtInt(r.rowsAdded),
    ]),
    notes: [
      `warm-up: ${o.warmup} untimed calls (one batch for imports) per variant. Concurrency-1 variants run in turns`,
      '(in-process call, HTTP call, ...) so both see the same machine load; their seconds are the sum of call times.',
      'http: the real yoga server and the fetch client share this one Node process, so client cost is included.',
    ],
  };
}

export function listTable({ results, seeding }: ListReport, o: ListOptions): Table {
  // In-process and HTTP of the same query side by side.
  const order = [...new Set(results.map((r) => r.query))];
  const sorted = [...results].sort(
    (a, b) => a.rowsTotal - b.rowsTotal || order.indexOf(a.query) - order.indexOf(b.query) || VIAS.indexOf(a.via) - VIAS.indexOf(b.via),
  );
  return {
    title: `memories list latency, ms (first page of 20, newest first; ${o.iterations} timed calls after up to ${o.warmup} warm-up; in-process and http alternate)`,
    columns: [
      { header: 'rows total' },
      { header: 'query', align: 'left' },
      { header: 'via', align: 'left' },
      { header: 'matched' },
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'mean' },
      { header: 'n' },
    ],
    rows: sorted.map((r) => [
      fmtInt(r.rowsTotal),
      r.query,
      r.via,
      fmtInt(r.matched),
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p95),
      fmtMs(r.latency.p99),
      fmtMs(r.latency.mean),
      `${r.latency.n}${r.latency.n < o.iterations ? '*' : ''}`,
    ]),
    notes: [
      `${o.apiKeys} API keys, Zipf-like sizes; "one key" is ${apiKeyName(0)}, the largest. created_at spread over 25 days.`,
      'matched = totalCount (active rows only: ~1% of seeded rows are expired). Each call also counts them.',
      ...(results.some((r) => r.latency.n < o.iterations)
        ? [
            `* fewer calls: each case stops after ${((o.maxMsPerCase ?? 0) / 1000).toFixed(0)} s of timed calls per variant, so a slow query cannot stretch the run.`,
          ]
        : []),
      `seeding (${seedingMethod()}, 5,000 rows per transaction): ${seeding
        .map((s) => `${fmtInt(s.rows)} rows in ${(s.ms / 1000).toFixed(1)} s (${fmtInt(perSecond(s.rows, s.ms))}/s)`)
        .join(', ')}.`,
    ],
  };
}

export const sections: BenchSection[] = [
  {
    name: 'create',
    group: 'store',
    description: 'createMemory and importMemories throughput',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick }) => {
      const o = { ...CREATE_SIZES[quick ? 'quick' : 'full'], http: true };
      printTable(createTable(await benchCreate(o), o));
    },
  },
  {
    name: 'list',
    group: 'store',
    description: 'memories list latency (first page of 20, newest first)',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick }) => {
      const o = { ...LIST_SIZES[quick ? 'quick' : 'full'], http: true };
      printTable(listTable(await benchList(o), o));
    },
  },
];
