/**
 * The data lifecycle: how fast the purge deletes expired and out-of-retention memories (with their keyword entries,
 * erased from the index's segments, and their vectors), and what it does to retrieval running at the same time: a
 * retrieval waits for the batch in progress, never for the whole pass.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DELETE_BATCH_SIZE } from '../server/memory/batchedDelete.ts';
import { countPurgeable } from '../server/memory/purge.repository.ts';
import { purgeMemories } from '../server/memory/purge.service.ts';
import { purgeCutoffs } from '../server/memory/purgeRules.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import { type BenchDb, openBenchDb } from './lib/benchDb.ts';
import { questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';
import { insertRandomVectors } from './vector.bench.ts';

const DAY = 86_400_000;

export interface PurgeOptions {
  /** Memories in the database, of which `due` were last written 60 to 80 days ago (30 days of retention, 7 of grace). */
  memories: number;
  due: number;
  apiKeys: number;
  /** Every memory has a vector of this dimension in sqlite-vec (random unit vectors: the purge deletes them too). */
  dim: number;
  /** Retrievals timed before the purge, for the baseline. */
  baseline: number;
}

const SIZES: Record<'quick' | 'default' | 'full', PurgeOptions> = {
  quick: { memories: 6_000, due: 3_000, apiKeys: 10, dim: 64, baseline: 200 },
  default: { memories: 40_000, due: 20_000, apiKeys: 20, dim: 384, baseline: 500 },
  full: { memories: 100_000, due: 50_000, apiKeys: 20, dim: 384, baseline: 1_000 },
};

export interface PurgeRun {
  label: string;
  deleted: number;
  ms: number;
  /** Each batch's milliseconds. */
  batches: number[];
  /** When each batch committed (performance.now()). */
  batchEnds: number[];
}

export interface PurgeResult {
  o: PurgeOptions;
  alone: PurgeRun;
  alongside: PurgeRun;
  retrieveBefore: LatencySummary;
  retrieveDuring: LatencySummary;
  /** The most batches that committed while one retrieval was waiting or running. */
  mostBatchesWaited: number;
}

/** One seeded database (kept and due memories, vectors, statistics as a running server has them), copied per run. */
async function seeded(o: PurgeOptions): Promise<BenchDb> {
  const db = await openBenchDb();
  const { sqlite } = db.database;
  await seedMemories(db.database, { count: o.memories - o.due, apiKeys: o.apiKeys, seed: 701, days: 25 });
  await seedMemories(db.database, { count: o.due, apiKeys: o.apiKeys, seed: 702, days: 20, now: Date.now() - 60 * DAY });
  await db.services.vectors.index.prepare({ source: 'static', model: 'bench/random', dimension: o.dim, quantization: 'none' });
  insertRandomVectors(sqlite, { dim: o.dim, quantization: 'none', afterPk: 0, seed: 703 });
  await analyzeLikeAServer(db.database);
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

async function purgeRun(db: BenchDb, label: string): Promise<PurgeRun> {
  const batches: number[] = [];
  const batchEnds: number[] = [];
  const t0 = performance.now();
  const outcome = await purgeMemories(db.services, {
    onProgress: (p) => {
      batches.push(p.batchMs);
      batchEnds.push(performance.now());
    },
  });
  return { label, deleted: outcome.expired + outcome.outOfRetention, ms: performance.now() - t0, batches, batchEnds };
}

/**
 * A gateway's retrievals, one at a time: each is sent as the previous one is answered and reaches the server a turn of
 * the event loop later (a timer, as a request comes from a socket), and is timed from when it was sent. So a batch that
 * starts in between, and holds the event loop and the connection until it commits, counts in its latency, as it would
 * for a request. (A client asking again within the same turn would never let the purge have the connection: Kysely's
 * lock is not first come, first served. Requests from a socket never do that.)
 */
async function client(ask: () => Promise<unknown>, more: () => boolean): Promise<{ sent: number; done: number }[]> {
  const calls: { sent: number; done: number }[] = [];
  while (more()) {
    const sent = performance.now();
    await sleep(0);
    await ask();
    calls.push({ sent, done: performance.now() });
  }
  return calls;
}

const latencies = (calls: { sent: number; done: number }[]) => calls.map((c) => c.done - c.sent);

export async function benchPurge(o: PurgeOptions): Promise<PurgeResult> {
  const base = await seeded(o);
  try {
    const due = await countPurgeable(base.database.db, purgeCutoffs(Date.now(), await base.services.settings.get()));
    if (due < o.due * 0.9) throw new Error(`only ${due} memories are due, expected about ${o.due}`);
    const alone = await openBenchDb({ copyOf: base.file });
    const shared = await openBenchDb({ copyOf: base.file });
    try {
      const aloneRun = await purgeRun(alone, 'purge alone');

      await shared.services.settings.update({ enabled: true });
      const next = questionStream(704);
      let k = 0;
      const ask = () =>
        retrieve(shared.services, { apiKeyId: apiKeyName(k++ % o.apiKeys), query: next(), strategy: 'HYBRID' }, { record: true });
      for (let i = 0; i < 50; i++) await ask();
      let calls = 0;
      const before = await client(ask, () => ++calls <= o.baseline);
      let purging = true;
      const run = purgeRun(shared, 'purge while a client retrieves').finally(() => {
        purging = false;
      });
      const during = await client(ask, () => purging);
      const alongside = await run;
      const waited = during.map((c) => alongside.batchEnds.filter((end) => end > c.sent && end < c.done).length);
      return {
        o,
        alone: aloneRun,
        alongside,
        retrieveBefore: summarize(latencies(before)),
        retrieveDuring: summarize(latencies(during)),
        mostBatchesWaited: Math.max(0, ...waited),
      };
    } finally {
      await alone.close();
      await shared.close();
    }
  } finally {
    await base.close();
  }
}

export function purgeTables(r: PurgeResult): Table[] {
  const batch = (run: PurgeRun) => summarize(run.batches);
  const latency = (label: string, l: LatencySummary) => [label, fmtInt(l.n), fmtMs(l.p50), fmtMs(l.p95), fmtMs(l.max)];
  return [
    {
      title: `purge: ${fmtInt(r.alone.deleted)} due of ${fmtInt(r.o.memories)} memories (${r.o.apiKeys} keys, a ${r.o.dim}-d vector each in sqlite-vec), batches of ${DELETE_BATCH_SIZE}`,
      columns: [
        { header: 'run' },
        { header: 'deleted' },
        { header: 'memories/s' },
        { header: 'batches' },
        { header: 'batch p50 ms' },
        { header: 'batch max ms' },
      ],
      rows: [r.alone, r.alongside].map((run) => [
        run.label,
        fmtInt(run.deleted),
        fmtInt(perSecond(run.deleted, run.ms)),
        fmtInt(run.batches.length),
        fmtMs(batch(run).p50),
        fmtMs(batch(run).max),
      ]),
      notes: [
        'each batch is one transaction: the rows with their keyword entries (erased from the segments: FTS5 secure-delete), vectors and counts; then the WAL is emptied.',
      ],
    },
    {
      title: 'retrieve (HYBRID → keyword tier, in-process) before and during the purge: one client, each call timed from when it was sent',
      columns: [{ header: 'when' }, { header: 'calls' }, { header: 'p50 ms' }, { header: 'p95 ms' }, { header: 'max ms' }],
      rows: [latency('before', r.retrieveBefore), latency('during the purge', r.retrieveDuring)],
      notes: [
        `batches that committed while one retrieval waited or ran: at most ${r.mostBatchesWaited} (the longest batch: ${fmtMs(batch(r.alongside).max)} ms).`,
      ],
    },
  ];
}

export const sections: BenchSection[] = [
  {
    name: 'purge',
    group: 'lifecycle',
    description: 'purge throughput, and retrieval latency while a purge runs',
    run: async ({ quick, full }) => {
      for (const table of purgeTables(await benchPurge(SIZES[quick ? 'quick' : full ? 'full' : 'default']))) printTable(table);
    },
  },
];
