/**
 * The vector tier: SEMANTIC (vector only) and HYBRID (keyword + vector, RRF) retrieve latency on sqlite-vec at
 * dimension 384, float32 and int8, against the floor of the raw KNN statement alone; what the index costs in
 * pages and memory; and how fast a reindex job embeds and stores memories.
 *
 * No model hub is reachable, so the embedding model is generated (bench/lib/generatedModel.ts): a model2vec-layout
 * static model over the seeder's vocabulary with pseudo-random 384-d rows. It runs the real static embedder, so
 * query embedding and reindex costs are those of a static model of that size and vocabulary, not of a real one
 * (potion-base-8M has a 30k-token vocabulary; the tokenizer and the mean over rows cost about the same).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type { Embedder } from '../server/embedding/embedder.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import type { Strategy } from '../server/retrieval/retrieval.ts';
import { type BenchDb, openBenchDb } from './lib/benchDb.ts';
import { type GeneratedModel, generatedVectorConfig, vocabularyOf, writeGeneratedModel } from './lib/generatedModel.ts';
import { questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, sampleInterleaved, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';
import { rng, sentence, WORD_LISTS } from './lib/text.ts';

export type Quantization = 'none' | 'int8';
const qLabel = (q: Quantization) => (q === 'none' ? 'float32' : 'int8');
/** retrieve's default limit (50) × its candidate factor (4): the k every tier asks for. */
const RETRIEVE_K = 200;
const MiB = 2 ** 20;

/** A model over every word the seeder and the question generator write, so no query word is unknown. */
function benchModel(cacheDir: string, dim: number): GeneratedModel {
  const random = rng(9);
  const texts = [...Object.values(WORD_LISTS).flat(), ...Array.from({ length: 2000 }, () => sentence(random))];
  const ask = questionStream(9);
  for (let i = 0; i < 2000; i++) texts.push(ask());
  return writeGeneratedModel(cacheDir, { vocab: vocabularyOf(texts), dim });
}

async function loadEmbedder(db: BenchDb): Promise<Embedder> {
  const ready = await db.services.vectors.loadForJob();
  if (!ready.ready) throw new Error(`the generated model did not load: ${ready.reason}`);
  return ready.embedder;
}

/** A random direction: Gaussian components (Box–Muller), normalised. */
export function randomUnitVector(random: () => number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    const g = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    v[i] = g;
    norm += g * g;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i]! /= norm;
  return v;
}

/**
 * Gives every memory above `afterPk` a random unit vector straight into vec0 (the filter columns read from
 * memories, as SqliteVecIndex.upsert does), then clears the reindex flags so no retrieve backfills. Returns the
 * vectors written and the milliseconds it took.
 */
export function insertRandomVectors(
  sqlite: SQLite.Database,
  o: { dim: number; quantization: Quantization; afterPk: number; seed: number },
) {
  const random = rng(o.seed);
  const embedding = o.quantization === 'int8' ? `vec_quantize_int8(?, 'unit')` : '?';
  const insert =
    sqlite.prepare(`insert into memory_vec (memory_pk, api_key_id, type, session_id, expires_at, updated_at, archived, embedding)
    select pk, api_key_id, type, coalesce(session_id, ''), coalesce(expires_at, ${Number.MAX_SAFE_INTEGER}), updated_at, archived_by is not null, ${embedding}
    from memories where pk = ?`);
  const pks = sqlite.prepare('select pk from memories where pk > ? order by pk').pluck().all(o.afterPk) as number[];
  const t0 = performance.now();
  const batch = sqlite.transaction((chunk: number[]) => {
    for (const pk of chunk) insert.run(Buffer.from(randomUnitVector(random, o.dim).buffer), BigInt(pk));
  });
  for (let i = 0; i < pks.length; i += 5000) batch(pks.slice(i, i + 5000));
  const ms = performance.now() - t0;
  sqlite.prepare('update memories set needs_reindex = 0 where needs_reindex = 1').run();
  return { written: pks.length, ms, lastPk: pks.at(-1) ?? o.afterPk };
}

/** Pages of vec0's shadow tables (dbstat), in bytes. */
function vecBytes(sqlite: SQLite.Database): number {
  const tables = sqlite
    .prepare(
      `select name from sqlite_master where type = 'table' and name like 'memory\\_vec\\_%' escape '\\' and name <> 'memory_vec_meta'`,
    )
    .pluck()
    .all() as string[];
  const size = sqlite.prepare('select coalesce(sum(pgsize), 0) from dbstat where name = ?').pluck();
  return tables.reduce((sum, name) => sum + (size.get(name) as number), 0);
}

const rss = () => process.memoryUsage.rss();

// ---------------------------------------------------------------------------------------------------
// 1. KNN and HYBRID latency against the raw sqlite-vec floor

export interface KnnOptions {
  sizes: number[];
  dim: number;
  iterations: number;
  warmup: number;
  maxMsPerCase: number;
}

export type KnnLane = 'SEMANTIC' | 'HYBRID' | 'floor';

export interface KnnResult {
  memories: number;
  quantization: Quantization;
  lane: KnnLane;
  latency: LatencySummary;
  meanItems: number;
}

export interface IndexSize {
  memories: number;
  quantization: Quantization;
  vectors: number;
  bytes: number;
  insertMs: number;
  inserted: number;
  /** Process RSS change over inserting this index's new vectors, and over its timed queries. */
  rssInsert: number;
  rssQueries: number;
}

interface Target {
  quantization: Quantization;
  db: BenchDb;
  embedder: Embedder;
  lastPk: number;
}

export async function benchKnn(
  o: KnnOptions,
): Promise<{ results: KnnResult[]; sizes: IndexSize[]; model: GeneratedModel; seedMs: number }> {
  const modelDir = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-models-'));
  const results: KnnResult[] = [];
  const sizes: IndexSize[] = [];
  const key = apiKeyName(0);
  let seedMs = 0;
  const model = benchModel(modelDir, o.dim);
  // minSimilarity -1: with random stored vectors nearly every hit is below the default 0.2 cosine, and the tier
  // would return nothing; a real model's neighbours are similar. So every one of the k hits becomes a candidate.
  const engine = (quantization: Quantization) => (dir: string) =>
    generatedVectorConfig(model, dir, { quantization, minSimilarity: -1, cacheMax: 0 });
  const base = await openBenchDb({ vectorConfig: engine('none') });
  let int8: BenchDb | null = null;
  try {
    await base.services.settings.update({ enabled: true });
    const float: Target = { quantization: 'none', db: base, embedder: await loadEmbedder(base), lastPk: 0 };
    await base.services.vectors.index.prepare(base.services.vectors.signatureOf(float.embedder)!);
    for (const [step, size] of o.sizes.entries()) {
      const have = await base.countMemories();
      const t0 = performance.now();
      if (size > have) await seedMemories(base.database, { count: size - have, apiKeys: 1, seed: 401 + step });
      seedMs += performance.now() - t0;
      await analyzeLikeAServer(base.database);
      // int8 gets its own copy of the same memories (a fresh copy at every size), so both indexes are measured in turns.
      await int8?.close();
      int8 = await openBenchDb({ vectorConfig: engine('int8'), copyOf: base.file });
      const quantized: Target = { quantization: 'int8', db: int8, embedder: await loadEmbedder(int8), lastPk: 0 };
      // A different signature: drops the copied float table and builds an int8 one.
      await int8.services.vectors.index.prepare(int8.services.vectors.signatureOf(quantized.embedder)!);

      const targets = [float, quantized];
      const rssBefore: number[] = [];
      for (const t of targets) {
        const r0 = rss();
        const ins = insertRandomVectors(t.db.database.sqlite, {
          dim: o.dim,
          quantization: t.quantization,
          afterPk: t.lastPk,
          seed: 500 + step,
        });
        t.lastPk = ins.lastPk;
        const count = t.db.database.sqlite.prepare('select count(*) from memory_vec').pluck().get() as number;
        if (count !== size) throw new Error(`${qLabel(t.quantization)} index holds ${count} vectors, expected ${size}`);
        sizes.push({
          memories: size,
          quantization: t.quantization,
          vectors: count,
          bytes: vecBytes(t.db.database.sqlite),
          insertMs: ins.ms,
          inserted: ins.written,
          rssInsert: rss() - r0,
          rssQueries: 0,
        });
        rssBefore.push(rss());
      }

      type Lane = { quantization: Quantization; lane: KnnLane; call: () => Promise<number> };
      const lanes: Lane[] = [];
      for (const t of targets) {
        for (const strategy of ['SEMANTIC', 'HYBRID'] as Strategy[]) {
          const next = questionStream(7);
          lanes.push({
            quantization: t.quantization,
            lane: strategy as KnnLane,
            call: async () => {
              const r = await retrieve(t.db.services, { apiKeyId: key, query: next(), strategy }, { record: true });
              const want = strategy === 'SEMANTIC' ? ['vector'] : ['keyword', 'vector'];
              if (r.resolution.fallbackReason || !want.every((w) => r.resolution.tiers.includes(w as never))) {
                throw new Error(
                  `${strategy} ${qLabel(t.quantization)}: expected tiers ${want.join('+')}, got ${JSON.stringify(r.resolution)}`,
                );
              }
              return r.items.length;
            },
          });
        }
        // The floor: the same KNN statement on the raw handle, with query vectors embedded beforehand.
        const ask = questionStream(7);
        const queries = await t.embedder.embed(Array.from({ length: 500 }, () => ask()));
        const match = t.quantization === 'int8' ? `vec_quantize_int8(?, 'unit')` : '?';
        const knn = t.db.database.sqlite.prepare(
          `select memory_pk, distance from memory_vec where embedding match ${match} and k = ? and api_key_id = ?`,
        );
        let i = 0;
        lanes.push({
          quantization: t.quantization,
          lane: 'floor',
          call: async () => knn.all(Buffer.from(queries[i++ % queries.length]!.buffer), RETRIEVE_K, key).length,
        });
      }
      const items = lanes.map(() => 0);
      const calls = lanes.map(() => 0);
      for (const lane of lanes) if ((await lane.call()) === 0) throw new Error(`${lane.lane} ${qLabel(lane.quantization)} found nothing`);
      const samples = await sampleInterleaved(
        lanes.map((lane, k) => async () => {
          items[k]! += await lane.call();
          calls[k]!++;
        }),
        { iterations: o.iterations, warmup: o.warmup, maxMs: o.maxMsPerCase },
      );
      results.push(
        ...lanes.map((lane, k) => ({
          memories: size,
          quantization: lane.quantization,
          lane: lane.lane,
          latency: summarize(samples[k]!),
          meanItems: items[k]! / Math.max(1, calls[k]!),
        })),
      );
      // Both indexes were queried in turns, so the growth is shared; it is reported once, on the float row.
      const grown = rss() - Math.min(...rssBefore);
      for (const [k, s] of sizes.filter((s) => s.memories === size).entries()) s.rssQueries = k === 0 ? grown : Number.NaN;
    }
  } finally {
    await int8?.close();
    await base.close();
    rmSync(modelDir, { recursive: true, force: true });
  }
  return { results, sizes, model, seedMs };
}

const LANE_LABEL: Record<KnnLane, string> = {
  SEMANTIC: 'retrieve SEMANTIC → vector',
  HYBRID: 'retrieve HYBRID → keyword+vector',
  floor: 'raw KNN statement (floor)',
};

export function knnTable(report: Awaited<ReturnType<typeof benchKnn>>, o: KnnOptions): Table {
  const { results, model, seedMs } = report;
  const floor = (r: KnnResult) =>
    results.find((f) => f.memories === r.memories && f.quantization === r.quantization && f.lane === 'floor')!;
  return {
    title: `vector retrieve latency, ms: one key, dimension ${o.dim}, sqlite-vec (${o.iterations} timed calls after up to ${o.warmup} warm-up, all lanes in turns)`,
    columns: [
      { header: 'memories' },
      { header: 'vectors', align: 'left' },
      { header: 'what', align: 'left' },
      { header: 'p50' },
      { header: 'p95' },
      { header: 'p99' },
      { header: 'n' },
      { header: 'items' },
      { header: 'p50 / floor' },
    ],
    rows: results.map((r) => [
      fmtInt(r.memories),
      qLabel(r.quantization),
      LANE_LABEL[r.lane],
      fmtMs(r.latency.p50),
      fmtMs(r.latency.p95),
      fmtMs(r.latency.p99),
      `${r.latency.n}${r.latency.n < o.iterations ? '*' : ''}`,
      r.meanItems.toFixed(1),
      r.lane === 'floor' ? '1.00x' : `${(r.latency.p50 / floor(r).latency.p50).toFixed(2)}x`,
    ]),
    notes: [
      `GENERATED model, not a real one (no model hub here): model2vec layout, ${fmtInt(model.vocabSize)}-word vocabulary of the seeded text,`,
      `pseudo-random ${model.dim}-d rows; every query is embedded by the real static embedder (embedding cache off, so each call embeds).`,
      `stored vectors: random unit vectors inserted straight into vec0 (not the model's), reindex flags cleared, so no retrieve backfills.`,
      `MEMORY_VECTOR_MIN_SIMILARITY=-1: random vectors are nearly orthogonal to any query, and the default 0.2 cutoff would drop`,
      `every hit; with -1 all k=${RETRIEVE_K} neighbours become candidates (the most work the tier does: rows, fusion, budget walk).`,
      `floor: "select memory_pk, distance from memory_vec where embedding match ? and k = ${RETRIEVE_K} and api_key_id = ?" prepared on the`,
      `better-sqlite3 handle, query vectors embedded beforehand (int8: vec_quantize_int8(?, 'unit')). retrieve adds: embedding the query,`,
      `its own KNN (with the expiry, retention and archived filters), fetching the rows, HYBRID's keyword query and RRF, the budget walk, the write.`,
      ...(results.some((r) => r.latency.n < o.iterations)
        ? [`* fewer calls: each case stops after ${(o.maxMsPerCase / 1000).toFixed(0)} s of timed calls.`]
        : []),
      `after seeding, PRAGMA optimize (ANALYZE) as a server runs at start and hourly. Without statistics (a database filled since`,
      `the server opened it) the backfill check (pendingMemories) and memoriesInScope choose the (api_key_id, updated_at) index and`,
      `scan the whole tenant on every SEMANTIC/HYBRID retrieve: about +25 ms per call at 30k memories of one key, measured aside.`,
      `p99 of fewer than 100 calls is simply the slowest call.`,
      `seeding ${fmtInt(Math.max(...o.sizes))} memories took ${(seedMs / 1000).toFixed(1)} s; the int8 database is a file copy of the float one.`,
    ],
  };
}

export function indexSizeTable(report: Awaited<ReturnType<typeof benchKnn>>, o: KnnOptions): Table {
  const mib = (b: number) => (Number.isNaN(b) ? '-' : `${b < 0 ? '' : '+'}${(b / MiB).toFixed(1)}`);
  return {
    title: `vector index size: vec0 shadow tables (dbstat pgsize), dimension ${o.dim}`,
    columns: [
      { header: 'memories' },
      { header: 'vectors', align: 'left' },
      { header: 'index MiB' },
      { header: 'MiB per 10k' },
      { header: 'raw MiB per 10k' },
      { header: 'inserted' },
      { header: 'insert/s' },
      { header: 'RSS insert MiB' },
      { header: 'RSS queries MiB' },
    ],
    rows: report.sizes.map((s) => [
      fmtInt(s.memories),
      qLabel(s.quantization),
      (s.bytes / MiB).toFixed(1),
      (((s.bytes / s.vectors) * 10_000) / MiB).toFixed(2),
      ((o.dim * (s.quantization === 'int8' ? 1 : 4) * 10_000) / MiB).toFixed(2),
      fmtInt(s.inserted),
      fmtInt(perSecond(s.inserted, s.insertMs)),
      mib(s.rssInsert),
      mib(s.rssQueries),
    ]),
    notes: [
      'index MiB: every memory_vec_* shadow table (chunks, rowids, vector and metadata chunks, partition info). raw: dim × bytes per value.',
      'inserted / insert/s: raw vec0 inserts of the vectors new at that size, 5,000 per transaction.',
      'RSS: process resident set change over the inserts, and over the timed queries of both indexes together (reported',
      'once, on the float row). SQLite reads vectors through its page cache (2 MB per connection by default) and the OS file',
      'cache, which RSS does not count; GC timing makes these figures rough.',
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// 2. reindex throughput

export interface ReindexOptions {
  memories: number;
  dim: number;
}

export interface ReindexResult {
  memories: number;
  dim: number;
  batchSize: number;
  loadMs: number;
  embedOnly: { texts: number; ms: number };
  job: { processed: number; failed: number; ms: number; status: string; batches: number };
  vectors: number;
  model: GeneratedModel;
}

export async function benchReindex(o: ReindexOptions): Promise<ReindexResult> {
  const modelDir = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-models-'));
  const model = benchModel(modelDir, o.dim);
  const db = await openBenchDb({ vectorConfig: (dir) => generatedVectorConfig(model, dir, { cacheMax: 0 }) });
  try {
    await seedMemories(db.database, { count: o.memories, apiKeys: 10, seed: 601 });
    const t0 = performance.now();
    const embedder = await loadEmbedder(db);
    const loadMs = performance.now() - t0;
    // The embedding alone, without the database, for the split of the job's time.
    const texts = db.database.sqlite.prepare('select content from memories order by pk limit 5000').pluck().all() as string[];
    const e0 = performance.now();
    for (let i = 0; i < texts.length; i += 64) await embedder.embed(texts.slice(i, i + 64));
    const embedOnly = { texts: texts.length, ms: performance.now() - e0 };

    const j0 = performance.now();
    const started = await db.services.reindex.start(true);
    let last = started;
    let batches = 0;
    for await (const job of db.services.reindex.watch(started.id)) {
      last = job;
      batches++;
    }
    const ms = performance.now() - j0;
    await db.services.reindex.idle();
    const vectors = db.database.sqlite.prepare('select count(*) from memory_vec').pluck().get() as number;
    return {
      memories: o.memories,
      dim: o.dim,
      batchSize: generatedVectorConfig(model, db.dir).batchSize,
      loadMs,
      embedOnly,
      job: { processed: last.processed, failed: last.failed, ms, status: last.status, batches: Math.max(0, batches - 2) },
      vectors,
      model,
    };
  } finally {
    await db.close();
    rmSync(modelDir, { recursive: true, force: true });
  }
}

export function reindexTable(r: ReindexResult): Table {
  return {
    title: `reindex throughput: services.reindex.start(true) over ${fmtInt(r.memories)} memories, generated static model, dimension ${r.dim}, float32`,
    columns: [{ header: 'what', align: 'left' }, { header: 'memories' }, { header: 'seconds' }, { header: 'memories/s' }],
    rows: [
      [
        'reindex job (embed + vec0 upsert + flags)',
        fmtInt(r.job.processed),
        (r.job.ms / 1000).toFixed(2),
        fmtInt(perSecond(r.job.processed, r.job.ms)),
      ],
      [
        'embedding only (embedder.embed, 64 per call)',
        fmtInt(r.embedOnly.texts),
        (r.embedOnly.ms / 1000).toFixed(2),
        fmtInt(perSecond(r.embedOnly.texts, r.embedOnly.ms)),
      ],
    ],
    notes: [
      `job: ${r.job.status}, ${fmtInt(r.job.processed)} processed, ${fmtInt(r.job.failed)} failed, ${fmtInt(r.vectors)} vectors stored, batches of ${r.batchSize} (MEMORY_EMBEDDING_BATCH_SIZE);`,
      `timed from start(true) (which flags every memory) until watch() reported the end. Model loaded beforehand in ${fmtMs(r.loadMs)} ms.`,
      `GENERATED model (no model hub here): ${fmtInt(r.model.vocabSize)}-word vocabulary, pseudo-random rows; a real potion model embeds at a`,
      'similar rate (same tokenizer and mean-of-rows work), a transformers model far slower.',
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// sections

const KNN_SIZES: Record<'quick' | 'full', KnnOptions> = {
  quick: { sizes: [2000, 5000], dim: 384, iterations: 30, warmup: 5, maxMsPerCase: 1500 },
  full: { sizes: [10_000, 100_000], dim: 384, iterations: 200, warmup: 20, maxMsPerCase: 8000 },
};

const REINDEX_SIZES: Record<'quick' | 'full', ReindexOptions> = {
  quick: { memories: 2000, dim: 384 },
  full: { memories: 20_000, dim: 384 },
};

export const sections: BenchSection[] = [
  {
    name: 'knn',
    group: 'vector',
    description: 'SEMANTIC and HYBRID retrieve vs the raw sqlite-vec KNN, float32 and int8, dim 384; index size',
    run: async ({ quick }) => {
      const o = KNN_SIZES[quick ? 'quick' : 'full'];
      const report = await benchKnn(o);
      printTable(knnTable(report, o));
      printTable(indexSizeTable(report, o));
    },
  },
  {
    name: 'reindex',
    group: 'vector',
    description: 'reindex job throughput with a generated static model',
    run: async ({ quick }) => {
      printTable(reindexTable(await benchReindex(REINDEX_SIZES[quick ? 'quick' : 'full'])));
    },
  },
];
