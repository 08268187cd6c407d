import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../server/memory/memory.service.ts';
import type { Memory } from '../../server/memory/memory.ts';
import { aboveRelevanceFloor } from '../../server/retrieval/relevanceFloor.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import type { RetrievedMemory } from '../../server/retrieval/retrieval.ts';
import { candidate } from '../../server/retrieval/tiers.ts';
import { loadVectorConfig } from '../../server/vectorConfig.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';
import { writeWordVectorPackage } from '../helpers/wordVectorPackage.ts';

// HYBRID's relevance floor: keyword matches count unless their match is no evidence (keywordEvidence.ts); vector hits
// no keyword evidence backs count only from the head of a vector list that is evidence for the query, and never from a
// weak model's list alone.

const memory = (pk: number) => ({ pk, id: `m${pk}`, content: `memory ${pk}` }) as Memory;
const keywordHit = (pk: number): RetrievedMemory => ({ ...candidate(memory(pk), 'keyword', 1), keywordScore: 1 });
const vectorHit = (pk: number, similarity: number, rank: number): RetrievedMemory => ({
  ...candidate(memory(pk), 'vector', similarity),
  vectorScore: similarity,
  vectorRank: rank,
});
/** A vector list best first, pks from `first`, similarities falling by `step`. */
const vectorList = (pks: number[], top: number, step: number) => pks.map((pk, i) => vectorHit(pk, top - i * step, i + 1));
/** The fused list as retrieval hands it over: each memory once, tier 'hybrid' where both tiers found it. */
const fuse = (keyword: RetrievedMemory[], vector: RetrievedMemory[]) => {
  const both = new Set(keyword.map((k) => k.memory.pk));
  return [
    ...keyword.map((k) => {
      const v = vector.find((v) => v.memory.pk === k.memory.pk);
      return v
        ? { ...k, tier: 'hybrid' as const, vectorScore: v.vectorScore, vectorRank: v.vectorRank }
        : { ...k, tier: 'keyword' as const };
    }),
    ...vector.filter((v) => !both.has(v.memory.pk)),
  ];
};
const floor = (keyword: RetrievedMemory[], vector: RetrievedMemory[], weakModel = false, weakMatches = new Set<number>()) => {
  const { kept, belowFloor } = aboveRelevanceFloor(fuse(keyword, vector), {
    keyword,
    weakMatches,
    vector,
    weakModel,
    similarityFloor: 0.2,
  });
  return { kept: kept.map((c) => c.memory.pk), belowFloor: belowFloor.map((c) => c.memory.pk) };
};
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('the relevance floor', () => {
  it('keeps every keyword match that is evidence, whatever the vector tier thinks of it', () => {
    const keyword = range(1, 8).map(keywordHit);
    expect(floor(keyword, []).kept).toEqual(range(1, 8));
  });

  it('leaves out a keyword match that is no evidence, and keeps the order of the rest', () => {
    const keyword = range(1, 8).map(keywordHit);
    expect(floor(keyword, [], false, new Set([2, 5]))).toEqual({ kept: [1, 3, 4, 6, 7, 8], belowFloor: [2, 5] });
  });

  it("judges a weak keyword match the vector tier also found by its vector rank alone, and a weak model's list as unbacked", () => {
    // "what is 2+2?": every keyword match is on a common word, and the weak model finds the same memories alike.
    const keyword = range(1, 5).map(keywordHit);
    const vector = vectorList(range(1, 10), 0.7, 0.03);
    expect(floor(keyword, vector, true, new Set(range(1, 5)))).toEqual({ kept: [], belowFloor: range(1, 10) });
    // One match is evidence: its neighbour at the head of an agreeing list may join it, a weak match the vector tier
    // ranks first as well.
    expect(floor(keyword, vectorList([1, 2, ...range(100, 8)], 0.7, 0.03), true, new Set(range(2, 4))).kept).toEqual([1, 2]);
  });

  it("takes nothing from a weak model's vector list when keyword search matched nothing", () => {
    // Averaged word vectors against "thanks!": every memory looks 0.4 to 0.7 alike.
    expect(floor([], vectorList(range(1, 10), 0.7, 0.03), true)).toEqual({ kept: [], belowFloor: range(1, 10) });
  });

  it("takes the best hit of a real model's vector list when keyword search matched nothing, if it stands out", () => {
    // "Where do I reside?" against "Lives in Berlin": no shared word, and a model that knows.
    expect(floor([], vectorList(range(1, 10), 0.9, 0.05))).toEqual({ kept: [1], belowFloor: range(2, 9) });
  });

  it("takes nothing from a real model's vector list that is flat, when keyword search matched nothing", () => {
    const flat = [...vectorList(range(1, 15), 0.5, 0.001)];
    expect(floor([], flat).kept).toEqual([]);
  });

  it('adds to a keyword match only the head of a vector list that agrees with it: one place past the keyword hits', () => {
    // "Which editor should I configure?" in a key of ten memories: one keyword match, the vector tier ranks it first.
    const vector = vectorList([1, ...range(2, 9)], 0.7, 0.03);
    expect(floor([keywordHit(1)], vector, true)).toEqual({ kept: [1, 2], belowFloor: range(3, 8) });
  });

  it('never takes a vector-only hit past the 6th of its list, however many keyword hits there are', () => {
    const keyword = range(1, 10).map(keywordHit);
    const vector = vectorList([...range(1, 5), ...range(100, 10)], 0.95, 0.02);
    expect(floor(keyword, vector)).toEqual({ kept: [...range(1, 10), 100], belowFloor: range(101, 9) });
  });

  it('takes no vector-only hit from a list that shares nothing with keyword search', () => {
    const keyword = range(1, 10).map(keywordHit);
    expect(floor(keyword, vectorList(range(100, 15), 0.9, 0.02)).belowFloor).toEqual(range(100, 15));
  });
});

describe('the relevance floor with the word-vector package', () => {
  let root: string;
  let t: TestDb;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'mnemo-floor-'));
    writeWordVectorPackage(path.join(root, 'tiny-vectors'));
    const engine = loadVectorConfig(
      {
        MEMORY_STATIC_MODEL: 'org/absent',
        MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
        MEMORY_STATIC_CACHE_DIR: path.join(root, 'cache'),
        MEMORY_STATIC_PACKAGE: path.join(root, 'tiny-vectors'),
        MEMORY_WORKER_INTERVAL_MS: '0',
      },
      root,
    );
    t = await openTestDb({ engine });
    await t.services.settings.update({ enabled: true, strategy: 'HYBRID' });
    for (const content of ['the cat', 'the kitten', 'the stock', 'the market']) await createMemory(t.services, { apiKeyId: 'k', content });
    // The model loads at first use, and a retrieve answers from keyword search until it has.
    expect((await t.services.vectors.loadForJob()).ready).toBe(true);
    await t.services.vectors.embedPending({ limit: 10 });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('adds to a keyword match the nearest memory, not every memory the weak model finds alike', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'k', query: 'the cat' }, { record: false });
    expect(result.resolution.embedding?.model).toContain('tiny-vectors');
    // The tiny model finds "the kitten" as near as "the cat" itself; "the stock" and "the market" stay out.
    expect(result.items.map((i) => [i.memory.content, i.tier]).sort()).toEqual([
      ['the cat', 'hybrid'],
      ['the kitten', 'vector'],
    ]);
    expect(result.resolution.belowFloor).toBe(2);
  });

  it('names what it left out in a receipt, as below the floor', async () => {
    const result = await retrieve(t.services, { apiKeyId: 'k', query: 'the cat' }, { record: false, receipt: true });
    const leftOut = result.receipt?.leftOut.map((c) => [c.memory?.content, c.reason]).sort();
    expect(leftOut).toEqual([
      ['the market', 'below_floor'],
      ['the stock', 'below_floor'],
    ]);
  });
});
