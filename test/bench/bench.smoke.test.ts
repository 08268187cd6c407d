/**
 * Keeps `npm run bench` from rotting: runs the store sections' core functions at toy sizes, in-process
 * and over HTTP, and checks that they produce figures. Asserts nothing about how fast anything is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchCapture, captureTables } from '../../bench/capture.bench.ts';
import { benchClient } from '../../bench/client.bench.ts';
import { benchImportFormats, importFormatsTable } from '../../bench/import.bench.ts';
import { percentile, sampleInterleaved, summarize } from '../../bench/lib/stats.ts';
import { renderTable } from '../../bench/lib/table.ts';
import { benchPurge, purgeTables } from '../../bench/lifecycle.bench.ts';
import { benchMixed, mixedTables } from '../../bench/load.bench.ts';
import { benchCreate, benchList, createTable, listTable } from '../../bench/store.bench.ts';
import { benchTruth, truthTable } from '../../bench/truth.bench.ts';
import { benchWordVectorLoad, wordVectorLoadTable } from '../../bench/wordVectors.bench.ts';
import { writeWordVectorPackage } from '../helpers/wordVectorPackage.ts';

const positive = (n: number) => expect(Number.isFinite(n) && n > 0, `expected a positive figure, got ${n}`).toBe(true);

describe('bench (smoke, tiny sizes)', () => {
  it('percentiles use the nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(xs, 50), percentile(xs, 95), percentile(xs, 99), percentile(xs, 100)]).toEqual([50, 95, 99, 100]);
    expect(summarize([3, 1, 2])).toMatchObject({ n: 3, p50: 2, p99: 3, max: 3, mean: 2 });
  });

  it('variants compared in turns each go second as often as they go first', async () => {
    const calls: string[] = [];
    const variant = (name: string) => async () => void calls.push(name);
    const samples = await sampleInterleaved([variant('a'), variant('b'), variant('c')], { iterations: 4, warmup: 0 });
    expect(calls.join('')).toBe('abccbaabccba');
    expect(samples.map((s) => s.length)).toEqual([4, 4, 4]);
  });

  it('create throughput returns figures for every operation, and every memory became a row', async () => {
    const o = { creates: 20, httpConcurrent: 16, concurrency: 4, importRows: 200, batchSize: 100, warmup: 5, http: true };
    const results = await benchCreate(o);
    expect(results.map((r) => `${r.operation} ${r.via} ${r.concurrency}`)).toEqual([
      'createMemory in-process 1',
      'createMemory http 1',
      'createMemory http 4',
      'importMemories ×100 in-process 1',
      'importMemories ×100 http 1',
    ]);
    for (const r of results) {
      positive(r.memoriesPerSecond);
      positive(r.perCall.p50);
      positive(r.perCall.p99);
      expect(r.rowsAdded).toBe(r.memories);
    }
    expect(renderTable(createTable(results, o))).toContain('memories/s');
  });

  it('list latency returns percentiles and matches for each query and size, in-process and over HTTP', async () => {
    const o = { sizes: [100, 200], apiKeys: 3, iterations: 5, warmup: 1, http: true };
    const report = await benchList(o);
    expect(report.results).toHaveLength(12);
    expect(report.results.map((r) => r.rowsTotal)).toEqual([...Array(6).fill(100), ...Array(6).fill(200)]);
    for (const r of report.results) {
      positive(r.matched);
      positive(r.latency.p50);
      positive(r.latency.p95);
      positive(r.latency.p99);
      expect(r.latency.n).toBe(5);
    }
    expect(report.seeding.map((s) => s.rows)).toEqual([100, 100]);
    expect(renderTable(listTable(report, o))).toContain('p99');
  });

  it('the client bench compares the client with a raw fetch for each operation, and no call fails open', async () => {
    const { rows, failedOpen } = await benchClient({ memories: 50, iterations: 5, warmup: 1 });
    expect(rows.map((r) => r[0])).toEqual(['retrieve (EXACT)', 'injectMemory (EXACT)', 'injectMemory, fetch answering at once']);
    expect(failedOpen).toBe(0);
  });

  it('the capture bench times both operations with capture off and on, and the store grows as turns are captured', async () => {
    // 40 turns, not 4: the file grows by whole pages, and a few short turns can fit in the pages it has.
    const o = { memories: 50, messages: 10, messageChars: 300, iterations: 4, block: 2, warmup: 1, growthTurns: 40 };
    const r = await benchCapture(o);
    for (const op of ['extractAndStore', 'injectMemory'] as const) {
      for (const mode of ['OFF', 'USER'] as const) {
        expect(r.latency[op][mode].n).toBe(4);
        positive(r.latency[op][mode].p50);
        positive(r.latency[op][mode].p95);
      }
    }
    expect(r.growth.OFF).toMatchObject({ messages: 40, captured: 0 });
    expect(r.growth.USER).toMatchObject({ messages: 40, captured: 40 });
    positive(r.growth.USER.bytes);
    const tables = captureTables(r, o).map(renderTable).join('');
    expect(tables).toMatch(/USER\/OFF p50/);
    expect(tables).toMatch(/per 1,000 captured turns/);
  });

  it('the truth bench times both writes with the checks off and on, and the checks merge and supersede', async () => {
    const o = { memories: 200, statements: 3, iterations: 20, block: 10, warmup: 1, retrievals: 5 };
    const r = await benchTruth(o);
    for (const op of ['createMemory', 'extractAndStore'] as const) {
      for (const arm of ['OFF', 'ON'] as const) {
        expect(r.latency[op][arm].n).toBe(20);
        positive(r.latency[op][arm].p50);
      }
    }
    positive(r.retrieve.before.p50);
    positive(r.retrieve.after.p50);
    positive(r.superseded);
    expect(renderTable(truthTable(r, o))).toMatch(/ON\/OFF p50/);
  });

  it('mixed load times reads and writes from 16 clients against a server of 1 and one of 2 workers, side by side', async () => {
    const o = { memories: 300, apiKeys: 3, clients: 16, writeShare: 0.2, warmupMs: 200, durationMs: 1_000, slices: 2 };
    const results = await benchMixed(o, [1, 2]);
    expect(results.map((r) => r.workers)).toEqual([1, 2]);
    for (const r of results) {
      positive(r.load.retrieveMs.length);
      positive(r.load.writeMs.length);
      positive(r.load.elapsedMs);
      positive(r.idle.rss);
      positive(r.idle.pss);
      expect(r.peak.rss).toBeGreaterThanOrEqual(r.idle.rss);
      expect(Number.isFinite(r.eventLoopMaxMs)).toBe(true);
    }
    const [load, memory] = mixedTables(results, o, 'mixed load').map(renderTable);
    expect(load).toContain('16 clients over HTTP');
    expect(load).toMatch(/retrieve \(keyword\)\s+1\s+[\d,]+\s+[\d,]+\s+[\d.]+\s+[\d.]+/);
    expect(load).toMatch(/retrieve \(keyword\)\s+2\s+[\d,]+\s+[\d,]+\s+[\d.]+\s+[\d.]+/);
    expect(load).toMatch(/MNEMO_WORKERS=2 against 1: [\d.]+×/);
    expect(memory).toMatch(/^\s+2\s+[\d,]+\s+[\d,]+/m);
  }, 120_000);

  it('purge throughput deletes every due memory, alone and while a client retrieves, and times the retrievals', async () => {
    const r = await benchPurge({ memories: 400, due: 200, apiKeys: 2, dim: 8, baseline: 5 });
    for (const run of [r.alone, r.alongside]) {
      expect(run.deleted).toBeGreaterThanOrEqual(180);
      expect(run.batches.length).toBeGreaterThan(1);
    }
    expect(r.retrieveBefore.n).toBe(5);
    positive(r.retrieveDuring.n);
    expect(purgeTables(r).map(renderTable).join('')).toContain('memories/s');
  });

  it('the import bench imports every row of the same memories from each format, with a progress line per batch', async () => {
    const o = { rows: 300, apiKeys: 3, rounds: 2 };
    const results = await benchImportFormats(o);
    expect(results.map((r) => [r.format, r.imported, r.skipped, r.progressLines])).toEqual(
      ['jsonl', 'csv', 'mem0', 'letta', 'omniroute'].map((format) => [format, 300, 0, 1]),
    );
    for (const r of results) {
      positive(r.ms);
      positive(r.readMs);
    }
    expect(renderTable(importFormatsTable(results, o))).toContain('time ÷ jsonl');
  });

  it("the word-vector bench times a package's conversion and a later start's load, with retrieves answered meanwhile", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-wordvec-'));
    try {
      writeWordVectorPackage(path.join(dir, 'tiny-vectors'));
      const o = { package: path.join(dir, 'tiny-vectors'), memories: 3, gapMs: 1 };
      const r = await benchWordVectorLoad(o);
      expect(r.model).toMatch(/^tiny-vectors@1\.2\.3\+/);
      expect(r.phases.map((p) => p.phase)).toEqual(['convert', 'reload']);
      for (const p of r.phases) {
        positive(p.ms);
        positive(p.retrieves.n);
        expect(Number.isFinite(p.eventLoopMaxMs)).toBe(true);
      }
      expect(renderTable(wordVectorLoadTable(r, o))).toContain('event loop worst ms');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
