import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as retrievalRepository from '../../server/retrieval/retrieval.repository.ts';
import {
  CREATE_MEMORY,
  DELETE_MEMORY,
  GET_MEMORY,
  IMPORT_MEMORIES,
  type MemoryInput,
  RESTORE_SUMMARY,
  RETRIEVE,
  RETRIEVE_PREVIEW,
  type RetrieveInput,
  START_REINDEX,
  SUMMARIZE,
  type TestRetrievalFragment,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import type { TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { pkOf, startVectorApp, storedVectors, VECTOR_BACKEND, type VectorApp } from '../helpers/vectorStore.ts';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const models = topicModelDir();
let app: VectorApp;

/** An app that embeds with the generated topic model (see helpers/topicModel.ts). */
async function startSemanticApp(env: Record<string, string> = {}, modelsDir = models) {
  const started = await startVectorApp({ engine: topicEngine(modelsDir, env) });
  // Retention of 90 days leaves room for memories imported as written 60 days ago (summaries) and 120 (out).
  await started.ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 90 } });
  // The request path never waits for a model to load (it answers from keyword search meanwhile); tests of
  // the vector tier start once it is loaded, as a running server soon is.
  await started.services.vectors.loadForJob();
  return started;
}

beforeAll(async () => {
  app = await startSemanticApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const key = () => `k-${randomUUID().slice(0, 8)}`;
const on = (target: TestApp) => ({
  create: (input: MemoryInput) => target.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory),
  retrieve: (input: RetrieveInput) => target.ok(RETRIEVE, { input }).then((d) => d.retrieve),
  preview: (input: RetrieveInput) => target.ok(RETRIEVE_PREVIEW, { input }).then((d) => d.retrievePreview),
});
const contents = (r: TestRetrievalFragment) => r.items.map((i) => i.memory.content);
const importMemories = async (memories: MemoryInput[]) => {
  const report = (await app.ok(IMPORT_MEMORIES, { memories })).importMemories;
  expect(report.rejected).toEqual([]);
};

describe('SEMANTIC retrieval', () => {
  it('finds a memory that shares no word with the query but is close in meaning', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat banana' });
    await on(app).create({ apiKeyId, content: 'I write rust' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r)).toEqual(['I eat banana']);
  });

  it('marks its results as VECTOR with the cosine similarity and rank', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'banana' });
    await on(app).create({ apiKeyId, content: 'I eat banana and papaya on my day of notes' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r)).toEqual(['banana', 'I eat banana and papaya on my day of notes']);
    expect(r.items.map((i) => i.tier)).toEqual(['VECTOR', 'VECTOR']);
    expect(r.items.map((i) => i.vectorRank)).toEqual([1, 2]);
    expect(r.items[0]!.vectorScore).toBeCloseTo(1, 5);
    expect(r.items[1]!.vectorScore).toBeLessThan(r.items[0]!.vectorScore!);
    expect(r.items[1]!.vectorScore).toBeGreaterThan(0.5);
    expect(r.items.map((i) => i.score)).toEqual(r.items.map((i) => i.vectorScore));
    expect(r.items.map((i) => [i.keywordScore, i.keywordRank])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('names the embedding source, model and vector store that answered', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat banana' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(r.resolution).toMatchObject({
      requestedStrategy: 'SEMANTIC',
      tiers: ['VECTOR'],
      fallback: false,
      fallbackReason: null,
      embeddingSource: 'static',
      embeddingModel: 'test/topics',
      vectorStore: VECTOR_BACKEND,
    });
    expect(r.resolution.embeddingReason).toMatch(/static model test\/topics/);
  });

  it('does not return memories of another topic, however many there are', async () => {
    const apiKeyId = key();
    await importMemories(['python', 'rust compiler', 'my cat', 'a trip to paris', 'jazz piano'].map((content) => ({ apiKeyId, content })));
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(r.items).toEqual([]);
    expect(r.resolution.fallback).toBe(false);
  });
});

describe('HYBRID retrieval', () => {
  it('gives a memory both tiers rank first the tier HYBRID and the score 1', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    await on(app).create({ apiKeyId, content: 'I write rust' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'HYBRID' });
    expect(r.items[0]).toMatchObject({ tier: 'HYBRID', keywordRank: 1, vectorRank: 1, memory: { content: 'I eat mango' } });
    // The one vector hit is the keyword hit and stands far above the similarity floor: the guard opens fully.
    expect(r.resolution.fusion).toMatchObject({ keywordShare: 0.5, vectorShare: 0.5, agreement: 1 });
    expect(r.items[0]!.score).toBe(1);
    expect(r.resolution).toMatchObject({ requestedStrategy: 'HYBRID', tiers: ['KEYWORD', 'VECTOR'], fallback: false });
  });

  it('keeps what only one tier found, labelled with that tier and ranked below what both found', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    // Fruit too, among more filler words: the vector tier ranks it second.
    await on(app).create({ apiKeyId, content: 'I eat banana on my day of notes' });
    // Mentions mango once among code words: keyword search finds it, its meaning is code.
    await on(app).create({ apiKeyId, content: 'mango python rust compiler typescript debugger code' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'HYBRID' });
    const byContent = Object.fromEntries(r.items.map((i) => [i.memory.content, i]));
    expect(contents(r)[0]).toBe('I eat mango');
    expect(byContent['I eat banana on my day of notes']).toMatchObject({
      tier: 'VECTOR',
      keywordRank: null,
      keywordScore: null,
      vectorRank: 2,
    });
    expect(byContent['mango python rust compiler typescript debugger code']).toMatchObject({
      tier: 'KEYWORD',
      vectorRank: null,
      vectorScore: null,
      keywordRank: 2,
    });
    // Each found by one tier, last of its two hits there: normalised 0. The lists share one of their two hits, so
    // the guard opens half way.
    expect(r.resolution.fusion!.agreement).toBe(0.5);
    expect(r.resolution.fusion!.vectorShare).toBeCloseTo(0.3, 12);
    expect(byContent['I eat banana on my day of notes']!.score).toBe(0);
    expect(r.items).toHaveLength(3);
  });

  it('fuses with the vector share fixed in the settings (fusionVectorShare), and says so', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    await on(app).create({ apiKeyId, content: 'I eat banana on my day of notes' });
    await app.ok(UPDATE_SETTINGS, { input: { fusionVectorShare: 0.8 } });
    try {
      const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'HYBRID' });
      expect(r.resolution.fusion).toEqual({
        keywordShare: expect.closeTo(0.2, 12),
        vectorShare: 0.8,
        agreement: null,
        margin: null,
        reason: 'fusionVectorShare is set to 0.8 in the settings',
      });
      expect(r.items[0]).toMatchObject({ score: 1, memory: { content: 'I eat mango' } });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { fusionVectorShare: null } });
    }
  });

  it('shows no fusion weights when only one tier answered', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(r.resolution.fusion).toBeNull();
  });
});

describe('filters in the vector tier', () => {
  it('returns only the session asked for and the key-wide memories', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat banana', sessionId: 's1' });
    await on(app).create({ apiKeyId, content: 'I eat apple', sessionId: 's2' });
    await on(app).create({ apiKeyId, content: 'I eat cherry' });
    const r = await on(app).retrieve({ apiKeyId, sessionId: 's1', query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r).sort()).toEqual(['I eat banana', 'I eat cherry']);
    const all = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(all)).toHaveLength(3);
  });

  it('returns only the types asked for', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat banana', type: 'PROCEDURAL' });
    await on(app).create({ apiKeyId, content: 'I eat apple', type: 'EPISODIC' });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC', types: ['PROCEDURAL'] });
    expect(contents(r)).toEqual(['I eat banana']);
  });

  it('stops returning a memory once it expires, though its vector is still stored', async () => {
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    expect(contents(await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' }))).toEqual(['I eat banana']);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(r.items).toEqual([]);
    expect(await storedVectors(app, await pkOf(app, m.id))).toBe(1);
  });

  it('does not return a memory written before the retention window', async () => {
    const apiKeyId = key();
    await importMemories([
      { apiKeyId, content: 'I eat banana', key: 'old', createdAt: daysAgo(120) },
      { apiKeyId, content: 'I eat apple', key: 'recent', createdAt: daysAgo(1) },
    ]);
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r)).toEqual(['I eat apple']);
    // The old memory was embedded by the same retrieval: the search itself left it out.
    const old = await app.database.db
      .selectFrom('memories')
      .select('pk')
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', 'old')
      .executeTakeFirstOrThrow();
    expect(await storedVectors(app, old.pk)).toBe(1);
  });

  it('returns a memory of any age while retention is off', async () => {
    const apiKeyId = key();
    await importMemories([{ apiKeyId, content: 'I eat banana', key: 'old', createdAt: daysAgo(3650) }]);
    await app.ok(UPDATE_SETTINGS, { input: { retentionEnabled: false } });
    try {
      expect(contents(await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' }))).toEqual(['I eat banana']);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { retentionEnabled: true } });
    }
  });

  it('does not return memories archived by a summary, and returns them again once the summary is undone', async () => {
    const apiKeyId = key();
    // Short facts of one type: their summary is smaller than they are, so compaction goes ahead. Each says
    // something else: a repeat would be left out of the block as a near-duplicate.
    const facts = ['I eat apple', 'I eat banana', 'I eat cherry', 'I eat papaya', 'I drink a smoothie', 'I love fruit'];
    await importMemories(
      facts.map((content, i) => ({
        apiKeyId,
        content,
        key: `k${i}`,
        createdAt: daysAgo(60),
      })),
    );
    const before = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    const originals = before.items.map((i) => i.memory.id).sort();
    expect(originals).toHaveLength(facts.length);
    const { summaries, candidates } = (await app.ok(SUMMARIZE, { apiKeyId, olderThanDays: 30, dryRun: false })).summarize;
    expect(candidates.map((c) => c.id).sort()).toEqual(originals);
    const after = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    // The summary holds the facts and may be found; the archived originals may not.
    for (const id of originals) expect(after.items.map((i) => i.memory.id)).not.toContain(id);
    await app.ok(RESTORE_SUMMARY, { summaryId: summaries[0]!.id });
    const restored = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(restored.items.map((i) => i.memory.id).sort()).toEqual(originals);
  });

  it("never returns another tenant's memories", async () => {
    const mine = key();
    const theirs = key();
    await on(app).create({ apiKeyId: theirs, content: 'mango' });
    await on(app).create({ apiKeyId: mine, content: 'I write rust' });
    await on(app).retrieve({ apiKeyId: theirs, query: 'mango', strategy: 'SEMANTIC' });
    const r = await on(app).retrieve({ apiKeyId: mine, query: 'mango', strategy: 'SEMANTIC' });
    expect(r.items).toEqual([]);
  });

  it("never returns another tenant's memories to a token bound to one key", async () => {
    const mine = key();
    const token = await app.mintToken({ apiKeyId: mine });
    await on(app).create({ apiKeyId: `${mine}-other`, content: 'mango' });
    await on(app).retrieve({ apiKeyId: `${mine}-other`, query: 'mango', strategy: 'SEMANTIC' });
    const r = (await app.ok(RETRIEVE, { input: { query: 'mango', strategy: 'SEMANTIC' } }, token)).retrieve;
    expect(r.items).toEqual([]);
    expect(r.resolution.fallback).toBe(false);
  });
});

describe('keeping vectors current', () => {
  it('embeds memories written after a reindex on the next retrieve, and not on a preview', async () => {
    await app.ok(START_REINDEX);
    await app.services.reindex.idle();
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    expect(m.pendingReindex).toBe(true);
    const rows = await storedVectors(app);

    const dry = await on(app).preview({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(dry.items).toEqual([]);
    expect(dry.resolution.fallback).toBe(false);
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory!.pendingReindex).toBe(true);
    expect(await storedVectors(app)).toBe(rows);

    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory!.pendingReindex).toBe(false);
    expect(await storedVectors(app)).toBe(rows + 1);
  });

  it('embeds only the retrieving key’s memories in the backfill', async () => {
    const apiKeyId = key();
    const other = await on(app).create({ apiKeyId: key(), content: 'I eat apple' });
    await on(app).create({ apiKeyId, content: 'I eat banana' });
    await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect((await app.ok(GET_MEMORY, { id: other.id })).memory!.pendingReindex).toBe(true);
  });

  it('no longer finds a memory by its old meaning once its content changes', async () => {
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    expect(contents(await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' }))).toEqual(['I eat banana']);
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    // Not even before the new text is embedded: the stale vector went with the old text.
    expect((await on(app).preview({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' })).items).toEqual([]);
    expect((await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' })).items).toEqual([]);
    expect(contents(await on(app).retrieve({ apiKeyId, query: 'python', strategy: 'SEMANTIC' }))).toEqual(['I write rust']);
  });

  it('no longer finds a memory by its old meaning when the same key is written with new content', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, key: 'food', content: 'I eat banana' });
    await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    await on(app).create({ apiKeyId, key: 'food', content: 'I write rust' });
    expect((await on(app).preview({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' })).items).toEqual([]);
    expect(contents(await on(app).retrieve({ apiKeyId, query: 'python', strategy: 'SEMANTIC' }))).toEqual(['I write rust']);
  });

  it('no longer finds a memory changed while its old text was being embedded', async () => {
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    // Hold the embedding of the old text until the content has changed.
    const { embedder } = await app.services.vectors.embedding();
    const embed = embedder!.embed.bind(embedder);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const embedding = new Promise<void>((resolve) => (started = resolve));
    vi.spyOn(embedder!, 'embed').mockImplementationOnce(async (texts) => {
      started();
      await released;
      return embed(texts);
    });
    const retrieval = on(app).retrieve({ apiKeyId, query: 'python', strategy: 'SEMANTIC' });
    await embedding;
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'I write rust' } });
    release();
    await retrieval;
    expect((await on(app).preview({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' })).items).toEqual([]);
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory!.pendingReindex).toBe(true);
    expect(contents(await on(app).retrieve({ apiKeyId, query: 'python', strategy: 'SEMANTIC' }))).toEqual(['I write rust']);
  });

  it('follows a change of type or session of an embedded memory without embedding it again', async () => {
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { type: 'PROCEDURAL', sessionId: 's9' } });
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory!.pendingReindex).toBe(false);
    const moved = await on(app).preview({ apiKeyId, sessionId: 's9', query: 'mango', strategy: 'SEMANTIC', types: ['PROCEDURAL'] });
    expect(contents(moved)).toEqual(['I eat banana']);
    expect((await on(app).preview({ apiKeyId, sessionId: 's1', query: 'mango', strategy: 'SEMANTIC' })).items).toEqual([]);
    expect((await on(app).preview({ apiKeyId, query: 'mango', strategy: 'SEMANTIC', types: ['FACTUAL'] })).items).toEqual([]);
  });

  it('drops the vector of a deleted memory', async () => {
    const apiKeyId = key();
    const m = await on(app).create({ apiKeyId, content: 'I eat banana' });
    await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    const pk = await pkOf(app, m.id);
    expect(await storedVectors(app, pk)).toBe(1);
    await app.ok(DELETE_MEMORY, { id: m.id });
    expect(await storedVectors(app, pk)).toBe(0);
  });
});

describe('fallbacks', () => {
  it('answers SEMANTIC from keyword search and says why when no model is configured', async () => {
    const bare = await startVectorApp();
    try {
      await bare.ok(UPDATE_SETTINGS, { input: { enabled: true, staticEnabled: false } });
      const apiKeyId = key();
      await on(bare).create({ apiKeyId, content: 'I eat mango' });
      const r = await on(bare).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
      expect(contents(r)).toEqual(['I eat mango']);
      expect(r.items[0]!.tier).toBe('KEYWORD');
      expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true, embeddingSource: null, embeddingModel: null });
      expect(r.resolution.fallbackReason).toMatch(/vector search unavailable/);
      expect(r.resolution.fallbackReason).toMatch(/no embeddingProviderModel is set/);
      expect(r.resolution.fallbackReason).toMatch(/staticEnabled is off/);
      expect(r.resolution.fallbackReason).toMatch(/keyword search only/);
    } finally {
      await bare.close();
    }
  });

  it('answers SEMANTIC from keyword search and says why when the model files are missing', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'mnemo-no-models-'));
    const missing = await startVectorApp({ engine: topicEngine(empty) });
    try {
      await missing.ok(UPDATE_SETTINGS, { input: { enabled: true } });
      const apiKeyId = key();
      await on(missing).create({ apiKeyId, content: 'I eat mango' });
      const r = await on(missing).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
      expect(contents(r)).toEqual(['I eat mango']);
      expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
      expect(r.resolution.fallbackReason).toMatch(/static model test\/topics cannot be had \(its files are missing/);
      expect(r.resolution.fallbackReason).toContain(path.join(empty, 'test/topics'));
    } finally {
      await missing.close();
    }
  });

  it('answers SEMANTIC from keyword search and says why when the chosen remote model has no provider', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    await app.ok(UPDATE_SETTINGS, { input: { embeddingSource: 'REMOTE', embeddingProviderModel: 'nowhere/model' } });
    try {
      const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
      expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
      expect(r.resolution.fallbackReason).toMatch(/embeddingSource is REMOTE/);
      expect(r.resolution.fallbackReason).toMatch(/"nowhere\/model" is not configured/);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { embeddingSource: 'AUTO', embeddingProviderModel: null } });
      // Choosing the static model again builds a new embedder, which loads in the background.
      await app.services.vectors.loadForJob();
    }
  });

  it('keeps the keyword results of HYBRID when the vector tier fails, and says why', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    vi.spyOn(app.services.vectors, 'search').mockRejectedValue(new Error('the embedder exploded'));
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'HYBRID' });
    expect(contents(r)).toEqual(['I eat mango']);
    expect(r.items[0]).toMatchObject({ tier: 'KEYWORD', keywordRank: 1, vectorRank: null });
    expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/vector search unavailable \(the embedder exploded\)/);
    expect(r.resolution.fallbackReason).toMatch(/keyword answered/);
  });

  it('answers SEMANTIC from keyword search when the vector tier fails', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat mango' });
    vi.spyOn(app.services.vectors, 'search').mockRejectedValue(new Error('the embedder exploded'));
    const r = await on(app).retrieve({ apiKeyId, query: 'mango', strategy: 'SEMANTIC' });
    expect(contents(r)).toEqual(['I eat mango']);
    expect(r.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/the embedder exploded/);
  });

  it('keeps the vector results of HYBRID when the keyword tier fails, and says why', async () => {
    const apiKeyId = key();
    await on(app).create({ apiKeyId, content: 'I eat banana' });
    vi.spyOn(retrievalRepository, 'keywordCandidates').mockRejectedValue(new Error('fts5: corrupt index'));
    const r = await on(app).retrieve({ apiKeyId, query: 'mango banana', strategy: 'HYBRID' });
    expect(contents(r)).toEqual(['I eat banana']);
    expect(r.items[0]).toMatchObject({ tier: 'VECTOR', keywordRank: null, vectorRank: 1 });
    expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: true });
    expect(r.resolution.fallbackReason).toMatch(/keyword search failed/);
    expect(r.resolution.fallbackReason).toMatch(/vector answered/);
    // The database's own message stays in the server log.
    expect(r.resolution.fallbackReason).not.toMatch(/fts5/);
  });
});
