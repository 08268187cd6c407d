/**
 * The memory store: how fast memories go in (createMemory, importMemories) and how fast the admin list
 * comes back, both in-process through the service and over HTTP through the real yoga server.
 */
import type { MemoryInput, MemoryType } from '../server/memory/memory.ts';
import { contentKey } from '../server/memory/memory.ts';
import { createMemory, importMemories, listMemories, type MemoryQuery } from '../server/memory/memory.service.ts';
import { type BenchDb, type BenchHttp, openBenchDb, startHttp } from './lib/benchDb.ts';
import type { BenchSection } from './lib/section.ts';
import { apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, runPool, sampleInterleaved, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';
import { pick, rng, SEARCH_WORD, sentence } from './lib/text.ts';

export type Via = 'in-process' | 'http';
const VIAS: Via[] = ['in-process', 'http'];

// ---------------------------------------------------------------------------------------------------
// 1. create throughput

export interface CreateOptions {
  /** createMemory calls in-process. */
  single: number;
  /** createMemory mutations over HTTP at concurrency 1, and at `concurrency`. */
  httpSerial: number;
  httpConcurrent: number;
  concurrency: number;
  /** Rows imported in batches of `batchSize`, in-process and over HTTP. */
  importRows: number;
  httpImportRows: number;
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

/** A fresh database (and server) per measurement, so no figure depends on what ran before it. */
async function withFreshDb<T>(
  http: boolean,
  fn: (db: BenchDb, server: BenchHttp | null, inputs: (count: number) => MemoryInput[]) => Promise<T>,
): Promise<T> {
  const db = await openBenchDb();
  const server = http ? await startHttp(db.services) : null;
  try {
    return await fn(db, server, inputStream(1000));
  } finally {
    await server?.close();
    await db.close();
  }
}

async function measureThroughput(
  db: BenchDb,
  spec: { operation: string; via: Via; concurrency: number; memories: number; calls: number },
  call: (i: number) => Promise<void>,
): Promise<ThroughputResult> {
  const before = db.countMemories();
  const latencies = new Array<number>(spec.calls);
  const ms = await runPool(spec.calls, spec.concurrency, async (i) => {
    const t0 = performance.now();
    await call(i);
    latencies[i] = performance.now() - t0;
  });
  return {
    ...spec,
    ms,
    memoriesPerSecond: perSecond(spec.memories, ms),
    perCall: summarize(latencies),
    rowsAdded: db.countMemories() - before,
  };
}

function chunk<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function benchCreate(o: CreateOptions): Promise<ThroughputResult[]> {
  const results: ThroughputResult[] = [];
  await withFreshDb(false, async (db, _server, inputs) => {
    const deps = db.services.memory;
    for (const m of inputs(o.warmup)) await createMemory(deps, m);
    const rows = inputs(o.single);
    results.push(
      await measureThroughput(db, { operation: 'createMemory', via: 'in-process', concurrency: 1, memories: rows.length, calls: rows.length }, async (i) => {
        await createMemory(deps, rows[i]!);
      }),
    );
  });

  if (o.http) {
    for (const [concurrency, count] of [[1, o.httpSerial], [o.concurrency, o.httpConcurrent]] as const) {
      await withFreshDb(true, async (db, server, inputs) => {
        const send = (m: MemoryInput) => server!.gql(CREATE_MUTATION, { input: toGraphQLInput(m) });
        const warm = inputs(o.warmup);
        await runPool(warm.length, concurrency, (i) => send(warm[i]!));
        const rows = inputs(count);
        results.push(
          await measureThroughput(db, { operation: 'createMemory', via: 'http', concurrency, memories: rows.length, calls: rows.length }, async (i) => {
            await send(rows[i]!);
          }),
        );
      });
    }
  }

  await withFreshDb(false, async (db, _server, inputs) => {
    const deps = db.services.memory;
    await importMemories(deps, inputs(Math.min(o.warmup, o.batchSize)), admin);
    const batches = chunk(inputs(o.importRows), o.batchSize);
    results.push(
      await measureThroughput(
        db,
        { operation: `importMemories ×${o.batchSize}`, via: 'in-process', concurrency: 1, memories: o.importRows, calls: batches.length },
        async (i) => {
          const report = await importMemories(deps, batches[i]!, admin);
          if (report.rejected.length) throw new Error(`import rejected rows: ${JSON.stringify(report.rejected.slice(0, 3))}`);
        },
      ),
    );
  });

  if (o.http) {
    await withFreshDb(true, async (db, server, inputs) => {
      const send = async (rows: MemoryInput[]) => {
        const data = await server!.gql(IMPORT_MUTATION, { memories: rows.map(toGraphQLInput) });
        if (data.importMemories.rejected.length) throw new Error(`import rejected rows: ${JSON.stringify(data.importMemories.rejected.slice(0, 3))}`);
      };
      await send(inputs(Math.min(o.warmup, o.batchSize)));
      const batches = chunk(inputs(o.httpImportRows), o.batchSize);
      results.push(
        await measureThroughput(
          db,
          { operation: `importMemories ×${o.batchSize}`, via: 'http', concurrency: 1, memories: o.httpImportRows, calls: batches.length },
          (i) => send(batches[i]!),
        ),
      );
    });
  }
  return results;
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
      const have = db.countMemories();
      if (size > have) {
        const t0 = performance.now();
        seedMemories(db.database.sqlite, { count: size - have, apiKeys: o.apiKeys, seed: 7 + step });
        seeding.push({ rows: size - have, ms: performance.now() - t0 });
      }
      const rowsTotal = db.countMemories();
      // The server starts only after seeding, which blocks the event loop for seconds: a keep-alive
      // socket the server timed out meanwhile would reset the next request.
      const server = o.http ? await startHttp(db.services) : null;
      try {
        for (const c of cases) {
          const inProcess = () => listMemories(db.services.memory, c.query, { limit: 20 });
          const page = await inProcess();
          if (page.items.length !== Math.min(20, page.totalCount)) throw new Error(`${c.name}: got ${page.items.length} items of ${page.totalCount}`);
          const calls: { via: Via; call: () => Promise<unknown> }[] = [{ via: 'in-process', call: inProcess }];
          if (server) {
            const variables = { apiKeyId: c.query.apiKeyId, search: c.query.search ?? null, limit: 20 };
            const overHttp = () => server.gql<{ memories: { totalCount: number; items: unknown[] } }>(LIST_QUERY, variables);
            const viaHttp = (await overHttp()).memories;
            if (viaHttp.totalCount !== page.totalCount || viaHttp.items.length !== page.items.length) {
              throw new Error(`${c.name}: HTTP returned ${viaHttp.items.length} of ${viaHttp.totalCount}, in-process ${page.items.length} of ${page.totalCount}`);
            }
            calls.push({ via: 'http', call: overHttp });
          }
          // In-process and HTTP calls alternate, so both see the same machine load.
          const samples = await sampleInterleaved(calls.map((x) => x.call), sample);
          calls.forEach((x, k) => results.push({ rowsTotal, query: c.name, via: x.via, matched: page.totalCount, latency: summarize(samples[k]!) }));
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
  quick: { single: 300, httpSerial: 200, httpConcurrent: 400, concurrency: 8, importRows: 2000, httpImportRows: 2000, batchSize: 1000, warmup: 50 },
  full: { single: 5000, httpSerial: 2000, httpConcurrent: 4000, concurrency: 8, importRows: 20_000, httpImportRows: 20_000, batchSize: 1000, warmup: 200 },
};

const LIST_SIZES: Record<'quick' | 'full', Omit<ListOptions, 'http'>> = {
  quick: { sizes: [1000, 5000], apiKeys: 10, iterations: 50, warmup: 10, maxMsPerCase: 2000 },
  full: { sizes: [10_000, 100_000], apiKeys: 10, iterations: 300, warmup: 30, maxMsPerCase: 8000 },
};

export function createTable(results: ThroughputResult[], o: CreateOptions): Table {
  return {
    title: 'create throughput (fresh database per row; distinct memories, so every call inserts)',
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
      `warm-up: ${o.warmup} untimed calls (one batch for imports) before each row.`,
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
        ? [`* fewer calls: each case stops after ${((o.maxMsPerCase ?? 0) / 1000).toFixed(0)} s of timed calls per variant, so a slow query cannot stretch the run.`]
        : []),
      `seeding (raw prepared statements, 5,000 rows per transaction, FTS triggers on): ${seeding
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
    run: async ({ quick }) => {
      const o = { ...CREATE_SIZES[quick ? 'quick' : 'full'], http: true };
      printTable(createTable(await benchCreate(o), o));
    },
  },
  {
    name: 'list',
    group: 'store',
    description: 'memories list latency (first page of 20, newest first)',
    run: async ({ quick }) => {
      const o = { ...LIST_SIZES[quick ? 'quick' : 'full'], http: true };
      printTable(listTable(await benchList(o), o));
    },
  },
];
