/**
 * Retrieval on the gateway path: `retrieve` latency by strategy and tenant size (in-process, and once over HTTP
 * from a client in another process to show what GraphQL adds), whether other tenants' data slows one key down,
 * `extractFacts` throughput and `injectMemory` latency. Keyword figures are the keyword tier alone: these
 * databases have no embedding model, so HYBRID falls back to keyword search (the vector tier is measured in
 * vector.bench.ts).
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { extractFacts } from '../server/gateway/extraction.ts';
import { injectMemory } from '../server/gateway/gateway.service.ts';
import type { MemoryDeps } from '../server/memory/memory.service.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import type { Strategy } from '../server/retrieval/retrieval.ts';
import type { StageClock } from '../server/retrieval/stageClock.ts';
import { type Answer, answerOfResponse, expectTier, RETRIEVE_QUERY } from './lib/answer.ts';
import { BENCH_ADMIN_TOKEN, type BenchDb, type BenchHttp, openBenchDb, startHttp } from './lib/benchDb.ts';
import { benchStoreKind } from './lib/benchStore.ts';
import { spawnHttpClient } from './lib/httpLane.ts';
import { keywordPostingsBuilt } from './lib/keywordPostings.ts';
import { type OtherCheckout, otherCheckout } from './lib/otherCheckout.ts';
import { chatRequest, chatText, questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedingMethod, seedMemories } from './lib/seed.ts';
import { measureStages, type StageReport, stageTable } from './lib/stages.ts';
import { inTurns, type LatencySummary, sampleInterleaved, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';

/** in-process: retrieve() itself; yoga.fetch: the GraphQL pipeline without a socket; http: from another process. */
export type Via = 'in-process' | 'yoga.fetch' | 'http';

const TIER_LABEL: Record<'EXACT' | 'HYBRID', string> = { EXACT: 'EXACT (newest first)', HYBRID: 'HYBRID → keyword tier' };
const STRATEGIES = ['EXACT', 'HYBRID'] as const;

const retrieveVariables = (apiKeyId: string, query: string, strategy: Strategy) => ({ input: { apiKeyId, query, strategy } });

/** Memory on, as on a gateway: retrieve with record: true is refused while memory is disabled. */
async function enableMemory(db: BenchDb) {
  await db.services.settings.update({ enabled: true });
}

function inProcess(deps: MemoryDeps, apiKeyId: () => string, strategy: Strategy, seed: number): () => Promise<Answer> {
  const next = questionStream(seed);
  return async () => {
    const r = await retrieve(deps, { apiKeyId: apiKeyId(), query: next(), strategy }, { record: true });
    return { items: r.items.length, tiers: r.resolution.tiers, fallbackReason: r.resolution.fallbackReason };
  };
}

/** Times the calls in turns (a, b, c, a, b, c, ...) and counts the items they returned. */
async function measure(calls: (() => Promise<Answer>)[], o: SampleSizes): Promise<{ latency: LatencySummary; meanItems: number }[]> {
  const items = calls.map(() => ({ n: 0, sum: 0 }));
  const counted = calls.map((call, k) => async () => {
    const a = await call();
    items[k]!.n++;
    items[k]!.sum += a.items;
  });
  const samples = await sampleInterleaved(counted, { iterations: o.iterations, warmup: o.warmup, maxMs: o.maxMsPerCase });
  return samples.map((s, k) => ({ latency: summarize(s), meanItems: items[k]!.sum / Math.max(1, items[k]!.n) }));
}

export interface SampleSizes {
  iterations: number;
  warmup: number;
  /** Time cap per measured case; n shows what ran. */
  maxMsPerCase: number;
}

export interface SeedTiming {
  rows: number;
  keys: number;
  ms: number;
  /** SQLite: how long the key's keyword postings took to build behind its first search after the seeding. */
  postingsMs?: number | null;
}

// ---------------------------------------------------------------------------------------------------
// 1. retrieve latency by tenant size

export interface RetrieveOptions extends SampleSizes {
  /** Memories of the one key, ascending; seeded incrementally into one database holding that key only. */
  sizes: number[];
  /** The size at which the keyword case also runs over HTTP (null: never). */
  httpAt: number | null;
  /** The size at which the stages of one keyword retrieve are timed, and how many calls. */
  stagesAt: number;
  stageCalls: number;
}

export interface RetrieveResult {
  memories: number;
  strategy: 'EXACT' | 'HYBRID';
  via: Via;
  /** `this` checkout, or the other one's name (BENCH_BASE_ROOT). */
  version: string;
  latency: LatencySummary;
  meanItems: number;
  /** yoga.fetch and http: what each call added to the in-process HYBRID call of the same question. */
  added?: LatencySummary;
}

/** One in-process call of a lane: it times what it measures, and builds its Answer after the timer stops. */
type TimedCall = (query: string) => Promise<{ ms: number; answer: Answer }>;

function direct(deps: MemoryDeps, apiKeyId: string, strategy: Strategy, run = retrieve): TimedCall {
  return async (query) => {
    const t0 = performance.now();
    const r = await run(deps, { apiKeyId, query, strategy }, { record: true });
    const ms = performance.now() - t0;
    return { ms, answer: { items: r.items.length, tiers: r.resolution.tiers, fallbackReason: r.resolution.fallbackReason } };
  };
}

/**
 * The whole GraphQL pipeline (CSRF check, context and auth, parse, armor limits, validation, execution, error
 * masking, JSON serialization) with no socket: yoga.fetch on a Request of yoga's own Fetch API, as its node
 * adapter builds one, timed to the response text. The server context carries a Node request with the same
 * Content-Length, as the adapter's does, so the body limit (server/graphql/bodyLimit.ts) takes the path it
 * takes for an HTTP request.
 */
function viaYoga(server: BenchHttp, apiKeyId: string, strategy: Strategy, label: string): TimedCall {
  const { yoga } = server.app;
  // createMnemoYoga declares no server context of its own; the node adapter's { req, res } is passed regardless.
  const fetchWith = yoga.fetch as unknown as (request: Request, serverContext: { req: IncomingMessage }) => Promise<Response>;
  return async (query) => {
    const body = JSON.stringify({ query: RETRIEVE_QUERY, variables: retrieveVariables(apiKeyId, query, strategy) });
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
    };
    const request = new yoga.fetchAPI.Request('http://127.0.0.1/graphql', { method: 'POST', headers, body });
    const req = new IncomingMessage(new Socket());
    req.headers = { 'content-length': headers['content-length'] };
    const t0 = performance.now();
    const response = await fetchWith(request, { req });
    const text = await response.text();
    const ms = performance.now() - t0;
    return { ms, answer: answerOfResponse(label, response.status, text) };
  };
}

interface Lane {
  strategy: 'EXACT' | 'HYBRID';
  via: Via;
  version: string;
  label: string;
}

/** Blocks per lane when the HTTP lane runs: in-process, HTTP, in-process, HTTP, ... */
const HTTP_ROUNDS = 5;
/**
 * Untimed HTTP calls before the first timed block, cycling the warm-up questions: Node's HTTP parser and yoga's
 * adapter take more calls than the in-process path to be optimised (a bare node:http round trip fell from
 * ~0.3 to ~0.15 ms between 30 and 200 calls), and a gateway's server is warm.
 */
const HTTP_WARMUP = 200;

export async function benchRetrieve(
  o: RetrieveOptions,
): Promise<{ results: RetrieveResult[]; seeding: SeedTiming[]; stages: StageReport | null; other: string | null }> {
  const results: RetrieveResult[] = [];
  const seeding: SeedTiming[] = [];
  const key = apiKeyName(0);
  const db = await openBenchDb();
  let stages: StageReport | null = null;
  const checkout = await otherCheckout();
  try {
    await enableMemory(db);
    const other = checkout && { checkout, services: checkout.servicesOn(db.database.db, db.database.kind) };
    for (const [step, size] of o.sizes.entries()) {
      const have = await db.countMemories();
      if (size > have) {
        const t0 = performance.now();
        await seedMemories(db.database, { count: size - have, apiKeys: 1, seed: 101 + step });
        const ms = performance.now() - t0;
        await analyzeLikeAServer(db.database);
        seeding.push({ rows: size - have, keys: 1, ms, postingsMs: await keywordPostingsBuilt(db, key) });
        await other?.checkout.keywordPostingsBuilt(db, key);
      }
      // Started after seeding, which blocks the event loop for seconds (a timed-out keep-alive socket would reset).
      const server = o.httpAt === size ? await startHttp(db.services) : null;
      // The other version's own app over its services, served from this process as this one's is.
      const otherServer = server && other ? await startHttp(other.services, other.checkout.createApp) : null;
      try {
        results.push(...(await measureSize(db, server, other && { ...other, server: otherServer }, key, size, o)));
      } finally {
        await server?.close();
        await otherServer?.close();
      }
      if (size === o.stagesAt) {
        const next = questionStream(7);
        const ask = (clock?: StageClock) =>
          retrieve(db.services, { apiKeyId: key, query: next(), strategy: 'HYBRID' }, { record: true, clock });
        for (let i = 0; i < o.warmup; i++) await ask();
        stages = await measureStages(ask, o.stageCalls);
      }
    }
  } finally {
    await db.close();
  }
  return { results, seeding, stages, other: checkout?.name ?? null };
}

/**
 * Every lane asks the same questions, in the same order. The in-process lanes (retrieve() per strategy and,
 * with a server, yoga.fetch) run in turns; the HTTP lane's client runs in a child process, in blocks that
 * alternate with the in-process ones, and while it runs this process only serves. Every answer is checked
 * (expectTier), in-process outside the timer, over HTTP by the client.
 */
async function measureSize(
  db: BenchDb,
  server: BenchHttp | null,
  other: { checkout: OtherCheckout; services: MemoryDeps; server: BenchHttp | null } | null,
  key: string,
  size: number,
  o: RetrieveOptions,
): Promise<RetrieveResult[]> {
  const lanes: (Lane & { call: TimedCall })[] = STRATEGIES.flatMap((strategy) => [
    {
      strategy,
      via: 'in-process' as const,
      version: 'this',
      label: `${size} memories, ${strategy} in-process`,
      call: direct(db.services, key, strategy),
    },
    // The other version's calls take turns with this one's, the same questions in the same order.
    ...(other
      ? [
          {
            strategy,
            via: 'in-process' as const,
            version: other.checkout.name,
            label: `${size} memories, ${strategy} in-process (${other.checkout.name})`,
            call: direct(other.services, key, strategy, other.checkout.retrieve),
          },
        ]
      : []),
  ]);
  const label = `${size} memories, HYBRID`;
  if (server)
    lanes.push({
      strategy: 'HYBRID',
      via: 'yoga.fetch',
      version: 'this',
      label: `${label} yoga.fetch`,
      call: viaYoga(server, key, 'HYBRID', `${label} yoga.fetch`),
    });
  const next = questionStream(1);
  // Call 0 is the first check, then the warm-up, then the timed calls.
  const questions = Array.from({ length: 1 + o.warmup + o.iterations }, () => next());
  const samples = lanes.map(() => [] as number[]);
  const items = lanes.map(() => [] as number[]);

  const inProcessBlock = async (from: number, to: number, timed: { maxMs: number; minCalls: number } | null) => {
    const until = performance.now() + (timed?.maxMs ?? 2000) * lanes.length;
    for (let i = from; i < to; i++) {
      if (i > from && (timed === null || i - from >= timed.minCalls) && performance.now() >= until) break;
      for (const [k, lane] of inTurns(lanes, i)) {
        const { ms, answer } = await lane.call(questions[i]!);
        expectTier(lane.label, lane.strategy, answer);
        if (timed) {
          samples[k]!.push(ms);
          items[k]!.push(answer.items);
        }
      }
    }
  };

  const timedFrom = 1 + o.warmup;
  const rounds = server ? Math.min(HTTP_ROUNDS, o.iterations) : 1;
  const bounds = Array.from({ length: rounds + 1 }, (_, r) => timedFrom + Math.round((r * o.iterations) / rounds));
  const perBlock = { maxMs: o.maxMsPerCase / rounds, minCalls: Math.ceil(10 / rounds) };
  // Untimed: the first check on every lane, then up to `warmup` calls each (at most ~2 s per lane).
  await inProcessBlock(0, timedFrom, null);
  // The same question in-process and over HTTP: their difference is what HTTP added to that call, free of how hard
  // the question is (the spread between questions is wider than the overhead itself). Each version's HTTP calls are
  // paired with its own in-process calls.
  const keywordOf = (version: string) => lanes.findIndex((l) => l.strategy === 'HYBRID' && l.via === 'in-process' && l.version === version);
  const httpLanes = [
    ...(server ? [{ version: 'this', server }] : []),
    ...(other?.server ? [{ version: other.checkout.name, server: other.server }] : []),
  ].map(({ version, server: target }) => {
    const laneLabel = `${label} http${version === 'this' ? '' : ` (${version})`}`;
    return {
      version,
      keyword: keywordOf(version),
      label: laneLabel,
      client: spawnHttpClient({
        url: `${target.url}/graphql`,
        token: BENCH_ADMIN_TOKEN,
        query: RETRIEVE_QUERY,
        strategy: 'HYBRID',
        label: laneLabel,
      }),
      ms: [] as number[],
      items: [] as number[],
      connections: 0,
      added: [] as number[],
    };
  });
  try {
    const variables = (from: number, to: number) => questions.slice(from, to).map((q) => retrieveVariables(key, q, 'HYBRID'));
    const warm = variables(0, timedFrom);
    const warmup = Array.from({ length: Math.max(timedFrom, HTTP_WARMUP) }, (_, i) => warm[i % warm.length]!);
    for (const lane of httpLanes)
      lane.connections += (await lane.client.run({ variables: warmup, warmup: warmup.length, maxMs: null, minCalls: 0 })).connections;
    for (let r = 0; r < rounds; r++) {
      const blockStart = httpLanes.map((lane) => samples[lane.keyword]!.length);
      await inProcessBlock(bounds[r]!, bounds[r + 1]!, perBlock);
      // Versions take turns going first, so neither always follows the in-process block.
      for (const [i, lane] of inTurns(httpLanes, r)) {
        const reply = await lane.client.run({ variables: variables(bounds[r]!, bounds[r + 1]!), warmup: 0, ...perBlock });
        const inProcess = samples[lane.keyword]!.slice(blockStart[i]);
        lane.added.push(...reply.ms.slice(0, inProcess.length).map((ms, j) => ms - inProcess[j]!));
        lane.ms.push(...reply.ms);
        lane.items.push(...reply.items);
        lane.connections += reply.connections;
      }
    }
  } finally {
    for (const lane of httpLanes) await lane.client.close();
  }
  // One keep-alive connection throughout, or the figure includes connection setup.
  for (const lane of httpLanes)
    if (lane.connections !== 1)
      throw new Error(`${lane.label}: the client opened ${lane.connections} connections, expected 1 (keep-alive)`);

  const keyword = keywordOf('this');
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const out: RetrieveResult[] = lanes.map((lane, k) => ({
    memories: size,
    strategy: lane.strategy,
    via: lane.via,
    version: lane.version,
    latency: summarize(samples[k]!),
    meanItems: mean(items[k]!),
    ...(lane.via === 'yoga.fetch' ? { added: summarize(samples[k]!.map((ms, i) => ms - samples[keyword]![i]!)) } : {}),
  }));
  for (const lane of httpLanes)
    out.push({
      memories: size,
      strategy: 'HYBRID',
      via: 'http',
      version: lane.version,
      latency: summarize(lane.ms),
      meanItems: mean(lane.items),
      added: summarize(lane.added),
    });
  return out;
}

export function retrieveTable({ results, seeding, other }: Awaited<ReturnType<typeof benchRetrieve>>, o: RetrieveOptions): Table {
  const targetSize = 10_000;
  const kw = (memories: number, via: Via) =>
    results.find((r) => r.memories === memories && r.strategy === 'HYBRID' && r.via === via && r.version === 'this');
  const notes = [
    `one API key holding every memory; retrieve(..., { record: true }) with memory enabled, the gateway path: settings, enforced`,
    `memories, ranking, the token budget walk (default maxTokens 2000, limit 50) and recording the access counts (written behind:`,
    `merged and committed once a second, outside the call).`,
    ...(benchStoreKind() === 'postgres'
      ? [
          `HYBRID has no embedding model here and falls back to the keyword tier (PostgreSQL: the key's own postings, BM25 with the`,
          `key's own statistics), as a server without one (or, on PostgreSQL, without Qdrant) does.`,
          `after seeding, ANALYZE, as autovacuum runs on a server that has been up a while.`,
        ]
      : [
          `HYBRID has no embedding model here and falls back to the keyword tier (the key's FTS5 postings held in memory, BM25 with the`,
          `key's own statistics), as a server without one does.`,
          `after seeding, PRAGMA optimize (ANALYZE) and a merge of the keyword index's segments, as a server runs at start and hourly,`,
          `and once the key's postings are in memory: the plans, the index and the postings are those of a server up a while.`,
        ]),
    `queries: varied chat questions from the seeded vocabulary, a new one each call; calls of the in-process variants run in turns.`,
  ];
  const inKw = kw(targetSize, 'in-process');
  if (inKw)
    notes.push(
      `target: keyword p50 < 5 ms in-process at 10k per key: ${fmtMs(inKw.latency.p50)} ms, ${inKw.latency.p50 < 5 ? 'met' : 'MISSED'}.`,
    );
  const httpKw = o.httpAt === null ? undefined : kw(o.httpAt, 'http');
  const yogaKw = o.httpAt === null ? undefined : kw(o.httpAt, 'yoga.fetch');
  const baseKw = o.httpAt === null ? undefined : kw(o.httpAt, 'in-process');
  if (httpKw?.added && baseKw) {
    const added = httpKw.added.p50;
    notes.push(
      `target: HTTP adds < 2 ms at p50 (${fmtInt(o.httpAt!)} memories, keyword): ${fmtMs(added)} ms, ${added < 2 ? 'met' : 'MISSED'} (p95 ${fmtMs(httpKw.added.p95)} ms).`,
      `  added: per question, the HTTP call's time minus the in-process call's for the same question, then the percentiles`,
      `  of those differences; the questions differ more in cost than HTTP adds, so the difference of the two p50s above`,
      `  (${fmtMs(httpKw.latency.p50 - baseKw.latency.p50)} ms) is a noisier reading of the same thing.`,
      `  http: the client runs in a separate process (node:http, one keep-alive connection, requests one at a time) and times`,
      `  from writing a request to the last byte of its response: the overhead is loopback HTTP, yoga's parsing, validation and`,
      `  execution and the JSON serialization, and nothing of the client (it serializes requests before, parses answers after).`,
      `  In-process and HTTP calls run in ${HTTP_ROUNDS} alternating blocks each, the same questions in the same order; during an`,
      `  HTTP block the server's process does nothing but serve. The in-process figure comes from the in-process blocks only.`,
      `  Before the first block the HTTP path is warmed with ${HTTP_WARMUP} untimed calls (the in-process lanes with ${o.warmup} each).`,
    );
    if (yogaKw?.added) {
      notes.push(
        `  of which the GraphQL pipeline alone (yoga.fetch(Request) in-process, to the response text, vs retrieve()): ${fmtMs(yogaKw.added.p50)} ms;` +
          ` socket + HTTP: ${fmtMs(added - yogaKw.added.p50)} ms (p50s of the paired differences).`,
      );
    }
  }
  const otherHttp = other ? results.find((r) => r.memories === o.httpAt && r.via === 'http' && r.version === other) : undefined;
  if (otherHttp?.added && httpKw?.added)
    notes.push(
      `  version ${other} over HTTP: its own app on its own port, its calls paired with its own in-process calls; its HTTP`,
      `  blocks take turns with this checkout's after each in-process block. HTTP adds ${fmtMs(otherHttp.added.p50)} ms at p50 there`,
      `  (p95 ${fmtMs(otherHttp.added.p95)} ms) against ${fmtMs(httpKw.added.p50)} ms here.`,
    );
  if (results.some((r) => r.latency.n < o.iterations))
    notes.push(`* fewer calls: each case stops after ${(o.maxMsPerCase / 1000).toFixed(0)} s of timed calls.`);
  notes.push(`seeding (one key, ${seedingMethod()}): ${seedingText(seeding)}.`);
  if (other)
    notes.push(
      `version ${other}: the checkout at BENCH_BASE_ROOT, its retrieve() and services over the same database; its calls take turns`,
      `with this checkout's, the same questions in the same order.`,
    );
  return {
    title: `retrieve latency, ms, by memories of one key (${o.iterations} timed calls after up to ${o.warmup} warm-up)`,
    columns: [
      { header: 'memories' },
      { header: 'strategy → tier', align: 'left' },
      { header: 'via', align: 'left' },
      ...(other ? [{ header: 'version', align: 'left' as const }] : []),
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'mean' },
      { header: 'n' },
      { header: 'items' },
    ],
    rows: results.map((r) => [
      fmtInt(r.memories),
      TIER_LABEL[r.strategy],
      r.via,
      ...(other ? [r.version] : []),
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p95),
      fmtMs(r.latency.p99),
      fmtMs(r.latency.mean),
      `${r.latency.n}${r.latency.n < o.iterations ? '*' : ''}`,
      r.meanItems.toFixed(1),
    ]),
    notes,
  };
}

const seedingText = (seeding: SeedTiming[]) =>
  seeding
    .map(
      (s) =>
        `${fmtInt(s.rows)} rows${s.keys > 1 ? ` over ${fmtInt(s.keys)} keys` : ''} in ${(s.ms / 1000).toFixed(1)} s (${fmtInt(perSecond(s.rows, s.ms))}/s)` +
        (s.postingsMs == null ? '' : `, its keyword postings built in ${(s.postingsMs / 1000).toFixed(1)} s`),
    )
    .join(', ');

// ---------------------------------------------------------------------------------------------------
// 2. many tenants: does everyone else's data slow one key down?

export interface TenantOptions extends SampleSizes {
  keys: number;
  perKey: number;
}

export interface TenantResult {
  strategy: 'EXACT' | 'HYBRID';
  variant: 'alone' | 'same key' | 'rotating keys';
  latency: LatencySummary;
  meanItems: number;
}

export async function benchTenants(o: TenantOptions): Promise<{ results: TenantResult[]; seeding: SeedTiming[]; rowsTotal: number }> {
  const seeding: SeedTiming[] = [];
  const alone = await openBenchDb();
  const crowded = await openBenchDb();
  try {
    await enableMemory(alone);
    await enableMemory(crowded);
    let t0 = performance.now();
    await seedMemories(alone.database, { count: o.perKey, apiKeys: 1, seed: 201, progress: false });
    seeding.push({ rows: o.perKey, keys: 1, ms: performance.now() - t0 });
    t0 = performance.now();
    const perKey = await seedMemories(crowded.database, {
      count: o.keys * o.perKey,
      apiKeys: o.keys,
      distribution: 'round-robin',
      seed: 202,
      batchSize: 10_000,
    });
    seeding.push({ rows: o.keys * o.perKey, keys: o.keys, ms: performance.now() - t0 });
    await analyzeLikeAServer(alone.database);
    await analyzeLikeAServer(crowded.database);
    const middle = apiKeyName(Math.floor(o.keys / 2));
    if (perKey.get(middle) !== o.perKey) throw new Error(`${middle} got ${perKey.get(middle)} memories, expected ${o.perKey}`);

    let turn = 0;
    const rotating = () => apiKeyName(turn++ % o.keys);
    const lanes = STRATEGIES.flatMap((strategy) => [
      { strategy, variant: 'alone' as const, call: inProcess(alone.services, () => apiKeyName(0), strategy, 3) },
      { strategy, variant: 'same key' as const, call: inProcess(crowded.services, () => middle, strategy, 3) },
      { strategy, variant: 'rotating keys' as const, call: inProcess(crowded.services, rotating, strategy, 3) },
    ]);
    for (const lane of lanes) expectTier(`tenants ${lane.variant} ${lane.strategy}`, lane.strategy, await lane.call());
    const measured = await measure(
      lanes.map((l) => l.call),
      o,
    );
    return {
      results: lanes.map((l, k) => ({ strategy: l.strategy, variant: l.variant, ...measured[k]! })),
      seeding,
      rowsTotal: await crowded.countMemories(),
    };
  } finally {
    await alone.close();
    await crowded.close();
  }
}

export function tenantTable(report: Awaited<ReturnType<typeof benchTenants>>, o: TenantOptions, run: 'quick' | 'default' | 'full'): Table {
  const { results, seeding, rowsTotal } = report;
  const base = (strategy: string) => results.find((r) => r.strategy === strategy && r.variant === 'alone')!;
  const describe = (r: TenantResult) =>
    r.variant === 'alone' ? `${fmtInt(o.perKey)} memories, the only key` : `${fmtInt(o.perKey)} of ${fmtInt(rowsTotal)}, ${r.variant}`;
  const ratios = results.filter((r) => r.variant !== 'alone').map((r) => ({ r, ratio: r.latency.p50 / base(r.strategy).latency.p50 }));
  const worst = ratios.filter((x) => x.r.strategy === 'HYBRID').reduce((m, x) => Math.max(m, x.ratio), 0);
  return {
    title: `retrieve latency, ms: one key of ${fmtInt(o.perKey)} memories alone vs among ${fmtInt(o.keys)} keys × ${fmtInt(o.perKey)} (${fmtInt(rowsTotal)} rows)`,
    columns: [
      { header: 'strategy → tier', align: 'left' },
      { header: 'database', align: 'left' },
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'n' },
      { header: 'items' },
      { header: 'p50 ratio' },
    ],
    rows: results.map((r) => [
      TIER_LABEL[r.strategy],
      describe(r),
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p95),
      fmtMs(r.latency.p99),
      `${r.latency.n}${r.latency.n < o.iterations ? '*' : ''}`,
      r.meanItems.toFixed(1),
      r.variant === 'alone' ? '1.00x' : `${(r.latency.p50 / base(r.strategy).latency.p50).toFixed(2)}x`,
    ]),
    notes: [
      run === 'full'
        ? `--full: ${fmtInt(o.keys)} keys × ${fmtInt(o.perKey)} = ${fmtInt(rowsTotal)} memories.`
        : `${run === 'quick' ? '--quick' : 'default run'}: ${fmtInt(o.keys)} keys × ${fmtInt(o.perKey)} = ${fmtInt(rowsTotal)} memories (1,000 keys × 1,000 = 1M only with --full: seeding alone takes minutes).`,
      `same key: ${apiKeyName(Math.floor(o.keys / 2))} every call; rotating keys: a different key each call (its rows are cold and, seeded`,
      `round-robin, spread over the whole file).`,
      `target: the many-key case within 1.5x of the key alone (keyword p50): worst ${worst.toFixed(2)}x, ${worst <= 1.5 ? 'met' : 'MISSED'}.`,
      ...(results.some((r) => r.latency.n < o.iterations)
        ? [`* fewer calls: each case stops after ${(o.maxMsPerCase / 1000).toFixed(0)} s of timed calls.`]
        : []),
      `seeding: ${seedingText(seeding)}.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// 3. extractFacts throughput

export interface ExtractOptions {
  /** Message sizes in characters, and how many characters of each to push through in total. */
  sizes: { chars: number; totalChars: number }[];
}

export interface ExtractResult {
  chars: number;
  calls: number;
  bytes: number;
  ms: number;
  facts: number;
  latency: LatencySummary;
}

export async function benchExtract(o: ExtractOptions): Promise<ExtractResult[]> {
  const results: ExtractResult[] = [];
  for (const { chars, totalChars } of o.sizes) {
    const calls = Math.max(10, Math.round(totalChars / chars));
    // 50 distinct texts, cycled: varied input without generating megabytes up front.
    const texts = Array.from({ length: Math.min(calls, 50) }, (_, i) => chatText(1000 + i, chars));
    for (const t of texts) extractFacts(t, { role: 'user' });
    const latencies: number[] = [];
    let bytes = 0;
    let facts = 0;
    for (let i = 0; i < calls; i++) {
      const text = texts[i % texts.length]!;
      const t0 = performance.now();
      facts += extractFacts(text, { role: 'user' }).length;
      latencies.push(performance.now() - t0);
      bytes += Buffer.byteLength(text);
    }
    const ms = latencies.reduce((s, x) => s + x, 0);
    results.push({ chars, calls, bytes, ms, facts, latency: summarize(latencies) });
  }
  return results;
}

export function extractTable(results: ExtractResult[]): Table {
  return {
    title: 'extractFacts throughput (rule-based fact extraction from a user message; pure CPU, no database)',
    columns: [
      { header: 'message' },
      { header: 'calls' },
      { header: 'MB' },
      { header: 'MB/s' },
      { header: 'call p50 ms' },
      { header: 'call p99 ms' },
      { header: 'facts/call' },
    ],
    rows: results.map((r) => [
      `${fmtInt(r.chars)} chars`,
      fmtInt(r.calls),
      (r.bytes / 1e6).toFixed(2),
      (r.bytes / 1e6 / (r.ms / 1000)).toFixed(2),
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p99),
      (r.facts / r.calls).toFixed(1),
    ]),
    notes: [
      'text: generated chat prose (third-person sentences, chatter, line breaks) with a first-person fact ("I prefer ...",',
      `"I work at ...", "We'll use ...") every ~6 sentences; MB = 10^6 bytes of UTF-8. 64 KB is the extraction input cap.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// 4. injectMemory latency

export interface InjectOptions extends SampleSizes {
  memories: number;
  messages: number;
}

export interface InjectResult {
  strategy: 'EXACT' | 'HYBRID';
  latency: LatencySummary;
  meanItems: number;
  requestBytes: number;
}

export async function benchInject(o: InjectOptions): Promise<InjectResult[]> {
  const db = await openBenchDb();
  try {
    await enableMemory(db);
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 301 });
    await analyzeLikeAServer(db.database);
    const requests = Array.from({ length: 200 }, (_, i) => chatRequest(5000 + i, o.messages));
    const requestBytes = requests.reduce((s, r) => s + Buffer.byteLength(JSON.stringify(r)), 0) / requests.length;
    const lanes = STRATEGIES.map((strategy) => {
      let i = 0;
      return {
        strategy,
        call: async (): Promise<Answer> => {
          const request = requests[i++ % requests.length]!;
          const out = await injectMemory(db.services, {
            apiKeyId: apiKeyName(0),
            request,
            provider: 'openai/gpt-4o-mini',
            strategy,
          });
          if (!out.injected || !out.retrieval) throw new Error(`injectMemory did not inject (${strategy})`);
          return {
            items: out.retrieval.items.length,
            tiers: out.retrieval.resolution.tiers,
            fallbackReason: out.retrieval.resolution.fallbackReason,
          };
        },
      };
    });
    for (const lane of lanes) expectTier(`injectMemory ${lane.strategy}`, lane.strategy, await lane.call());
    const measured = await measure(
      lanes.map((l) => l.call),
      o,
    );
    return lanes.map((l, k) => ({ strategy: l.strategy, requestBytes, ...measured[k]! }));
  } finally {
    await db.close();
  }
}

export function injectTable(results: InjectResult[], o: InjectOptions): Table {
  return {
    title: `injectMemory latency, ms (OpenAI chat request of ${o.messages} messages, ~${fmtInt(results[0]?.requestBytes ?? 0)} bytes; one key of ${fmtInt(o.memories)} memories)`,
    columns: [
      { header: 'strategy → tier', align: 'left' },
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'mean' },
      { header: 'n' },
      { header: 'injected' },
    ],
    rows: results.map((r) => [
      TIER_LABEL[r.strategy],
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p95),
      fmtMs(r.latency.p99),
      fmtMs(r.latency.mean),
      `${r.latency.n}${r.latency.n < o.iterations ? '*' : ''}`,
      r.meanItems.toFixed(1),
    ]),
    notes: [
      'in-process: the query is the last user message; retrieve with record: true, then the memory block goes into the system',
      'message of a copy of the request. "injected" = memories in the block (budget 2000 tokens, limit 50).',
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// sections

const RETRIEVE_SIZES: Record<'quick' | 'full', RetrieveOptions> = {
  quick: { sizes: [1000, 5000], httpAt: 5000, stagesAt: 5000, stageCalls: 50, iterations: 50, warmup: 10, maxMsPerCase: 2000 },
  full: {
    sizes: [1000, 10_000, 100_000],
    httpAt: 10_000,
    stagesAt: 10_000,
    stageCalls: 300,
    iterations: 300,
    warmup: 30,
    maxMsPerCase: 8000,
  },
};

/** The default run uses 200 keys; 1,000 keys (1M rows) only with --full, see tenantTable's note. */
const TENANT_SIZES: Record<'quick' | 'default' | 'full', TenantOptions> = {
  quick: { keys: 20, perKey: 200, iterations: 50, warmup: 10, maxMsPerCase: 2000 },
  default: { keys: 200, perKey: 1000, iterations: 300, warmup: 30, maxMsPerCase: 6000 },
  full: { keys: 1000, perKey: 1000, iterations: 300, warmup: 30, maxMsPerCase: 6000 },
};

const EXTRACT_SIZES: Record<'quick' | 'full', ExtractOptions> = {
  quick: {
    sizes: [
      { chars: 2000, totalChars: 500_000 },
      { chars: 65_536, totalChars: 1_000_000 },
    ],
  },
  full: {
    sizes: [
      { chars: 2000, totalChars: 8_000_000 },
      { chars: 65_536, totalChars: 16_000_000 },
    ],
  },
};

const INJECT_SIZES: Record<'quick' | 'full', InjectOptions> = {
  quick: { memories: 2000, messages: 10, iterations: 50, warmup: 10, maxMsPerCase: 2000 },
  full: { memories: 10_000, messages: 10, iterations: 300, warmup: 30, maxMsPerCase: 6000 },
};

export const sections: BenchSection[] = [
  {
    name: 'latency',
    group: 'retrieve',
    description: 'retrieve p50/p95/p99 by strategy at 1k, 10k, 100k memories of one key; HTTP overhead',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick }) => {
      const o = RETRIEVE_SIZES[quick ? 'quick' : 'full'];
      const report = await benchRetrieve(o);
      printTable(retrieveTable(report, o));
      if (report.stages)
        printTable(
          stageTable(
            report.stages,
            `where one keyword retrieve's time goes, ${fmtInt(o.stagesAt)} memories of one key (HYBRID → keyword tier)`,
            [`the same retrieve(..., { record: true }) as above, after the timed calls; questions from another stream.`],
          ),
        );
    },
  },
  {
    name: 'tenants',
    group: 'retrieve',
    description: 'one key of 1,000 alone vs among 200 keys (1,000 with --full)',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick, full }) => {
      const run = quick ? 'quick' : full ? 'full' : 'default';
      const o = TENANT_SIZES[run];
      printTable(tenantTable(await benchTenants(o), o, run));
    },
  },
  {
    name: 'extract',
    group: 'retrieve',
    description: 'extractFacts throughput, MB/s',
    run: async ({ quick }) => {
      printTable(extractTable(await benchExtract(EXTRACT_SIZES[quick ? 'quick' : 'full'])));
    },
  },
  {
    name: 'inject',
    group: 'retrieve',
    description: 'injectMemory latency on a 10-message chat request',
    run: async ({ quick }) => {
      const o = INJECT_SIZES[quick ? 'quick' : 'full'];
      printTable(injectTable(await benchInject(o), o));
    },
  },
];
