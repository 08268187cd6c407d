/**
 * Keeps the retrieval and vector sections of `npm run bench` from rotting: runs their core functions at toy
 * sizes (in-process and over HTTP, float32 and int8, a generated model) and checks that they produce figures
 * and that the tier they claim to measure really answered. Asserts nothing about how fast anything is.
 */
import { describe, expect, it } from 'vitest';
import { RETRIEVE_QUERY } from '../../bench/lib/answer.ts';
import { BENCH_ADMIN_TOKEN, openBenchDb, startHttp } from '../../bench/lib/benchDb.ts';
import { spawnHttpClient } from '../../bench/lib/httpLane.ts';
import { chatRequest, chatText, questionStream } from '../../bench/lib/queries.ts';
import { apiKeyName } from '../../bench/lib/seed.ts';
import { stageTable } from '../../bench/lib/stages.ts';
import { renderTable } from '../../bench/lib/table.ts';
import {
  benchExtract,
  benchInject,
  benchRetrieve,
  benchTenants,
  extractTable,
  injectTable,
  retrieveTable,
  tenantTable,
} from '../../bench/retrieve.bench.ts';
import { benchKnn, benchReindex, indexSizeTable, knnTable, reindexTable } from '../../bench/vector.bench.ts';
import { extractFacts } from '../../server/gateway/extraction.ts';

const positive = (n: number) => expect(Number.isFinite(n) && n > 0, `expected a positive figure, got ${n}`).toBe(true);
const sample = { iterations: 5, warmup: 1, maxMsPerCase: 5000 };

describe('bench retrieval sections (smoke, tiny sizes)', () => {
  it('questions vary per call and repeat per seed; chat text carries facts to extract', () => {
    const a = questionStream(1);
    const b = questionStream(1);
    const first = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(extractFacts(chatText(1, 4000), { role: 'user' }).length).toBeGreaterThan(0);
    expect(chatRequest(1, 10).messages).toHaveLength(10);
  });

  it('retrieve latency: both strategies per size, the keyword case through yoga.fetch and over HTTP (a client process) too, and the stages of one', async () => {
    const o = { sizes: [100, 300], httpAt: 300, stagesAt: 300, stageCalls: 3, ...sample };
    const report = await benchRetrieve(o);
    expect(report.results.map((r) => `${r.memories} ${r.strategy} ${r.via}`)).toEqual([
      '100 EXACT in-process',
      '100 HYBRID in-process',
      '300 EXACT in-process',
      '300 HYBRID in-process',
      '300 HYBRID yoga.fetch',
      '300 HYBRID http',
    ]);
    for (const r of report.results) {
      positive(r.latency.p50);
      positive(r.latency.p99);
      positive(r.meanItems);
    }
    for (const r of report.results) expect(r.latency.n).toBe(o.iterations);
    // What HTTP and yoga add, paired per question: as many differences as HTTP calls.
    for (const via of ['yoga.fetch', 'http']) expect(report.results.find((r) => r.via === via)?.added?.n).toBe(o.iterations);
    const text = renderTable(retrieveTable(report, o));
    expect(text).toContain('target: HTTP adds < 2 ms at p50');
    expect(text).toContain('GraphQL pipeline alone');
    expect(report.stages?.calls).toBe(3);
    expect(report.stages?.stages.find((s) => s.stage === 'keyword')?.items).toBeGreaterThan(0);
    expect(renderTable(stageTable(report.stages!, 'stages', []))).toContain('whole retrieve');
  });

  it('the HTTP client process fails the lane on a response with errors, or from the wrong tier', async () => {
    const db = await openBenchDb();
    const server = await startHttp(db.services);
    try {
      await db.services.settings.update({ enabled: true });
      const block = {
        variables: [{ input: { apiKeyId: apiKeyName(0), query: 'spicy ramen', strategy: 'HYBRID' } }],
        warmup: 0,
        maxMs: null,
        minCalls: 0,
      };
      const url = `${server.url}/graphql`;
      const unauthorized = spawnHttpClient({ url, token: 'not-a-token', query: RETRIEVE_QUERY, strategy: 'HYBRID', label: 'bad token' });
      await expect(unauthorized.run(block)).rejects.toThrow(/bad token, call 1: HTTP 401/);
      await unauthorized.close();
      const wrongTier = spawnHttpClient({ url, token: BENCH_ADMIN_TOKEN, query: RETRIEVE_QUERY, strategy: 'EXACT', label: 'wrong tier' });
      await expect(wrongTier.run(block)).rejects.toThrow(/wrong tier, call 1: expected the exact tier/);
      await wrongTier.close();
    } finally {
      await server.close();
      await db.close();
    }
  });

  it('tenants: the key alone vs the same key and rotating keys among many, with ratios', async () => {
    const o = { keys: 5, perKey: 50, ...sample };
    const report = await benchTenants(o);
    expect(report.rowsTotal).toBe(250);
    expect(report.results).toHaveLength(6);
    for (const r of report.results) positive(r.latency.p50);
    const text = renderTable(tenantTable(report, o, 'quick'));
    expect(text).toContain('p50 ratio');
    expect(text).toContain('1.5x');
  });

  it('extractFacts throughput and injectMemory latency', async () => {
    const extract = await benchExtract({ sizes: [{ chars: 2000, totalChars: 40_000 }] });
    positive(extract[0]!.bytes / extract[0]!.ms);
    positive(extract[0]!.facts);
    expect(renderTable(extractTable(extract))).toContain('MB/s');
    const o = { memories: 200, messages: 10, ...sample };
    const inject = await benchInject(o);
    expect(inject.map((r) => r.strategy)).toEqual(['EXACT', 'HYBRID']);
    for (const r of inject) positive(r.meanItems);
    expect(renderTable(injectTable(inject, o))).toContain('injectMemory');
  });

  it('vector: SEMANTIC, HYBRID and the raw KNN floor, float32 and int8, with index sizes', async () => {
    const o = { sizes: [150], dim: 32, ...sample };
    const report = await benchKnn(o);
    expect(report.results.map((r) => `${r.quantization} ${r.lane}`)).toEqual([
      'none SEMANTIC',
      'none HYBRID',
      'none floor',
      'int8 SEMANTIC',
      'int8 HYBRID',
      'int8 floor',
    ]);
    for (const r of report.results) positive(r.latency.p50);
    expect(report.sizes.map((s) => [s.quantization, s.vectors])).toEqual([
      ['none', 150],
      ['int8', 150],
    ]);
    for (const s of report.sizes) positive(s.bytes);
    expect(renderTable(knnTable(report, o))).toContain('GENERATED model');
    expect(renderTable(indexSizeTable(report, o))).toContain('MiB per 10k');
  });

  it('reindex: a job embeds every memory with a generated static model', async () => {
    const r = await benchReindex({ memories: 150, dim: 32 });
    expect(r.job).toMatchObject({ status: 'completed', processed: 150, failed: 0 });
    expect(r.vectors).toBe(150);
    expect(renderTable(reindexTable(r))).toContain('memories/s');
  });
});
