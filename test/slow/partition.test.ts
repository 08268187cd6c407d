import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_MEMORY, RETRIEVE, START_REINDEX, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir, topicVector } from '../helpers/topicModel.ts';

const CROWD = 100_000;
const CROWD_KEYS = 50;
const DIM = 8;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ engine: topicEngine(topicModelDir()) });
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

/** xorshift32: the same crowd on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** A unit vector within a few degrees of `target`: closer to a "mango" query than any real fruit memory. */
function nearby(target: Float32Array, next: () => number): Float32Array {
  const v = Float32Array.from(target, (x) => x + (next() - 0.5) * 0.04);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

interface CrowdMember {
  apiKeyId: string;
  sessionId?: string | null;
  type?: string;
  expiresAt?: number | null;
  archivedBy?: string | null;
}

/**
 * `count` memories written straight into SQLite (memories, and their vectors into memory_vec, keyed by
 * BigInt primary keys as sqlite-vec wants them, with the same filter columns as the index writes), all
 * pointing almost exactly where the query will.
 */
function seedCrowd(query: Float32Array, count: number, member: (i: number) => CrowdMember) {
  const sqlite = app.database.sqlite;
  const insertMemory = sqlite.prepare(
    `insert into memories (id, api_key_id, session_id, type, key, content, metadata, tokens, created_at, updated_at, expires_at, archived_by, needs_reindex)
     values (?, ?, ?, ?, ?, 'crowd', '{}', 1, ?, ?, ?, ?, 0)`,
  );
  const insertVector = sqlite.prepare(
    `insert into memory_vec (memory_pk, api_key_id, type, session_id, expires_at, updated_at, archived, embedding)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const next = random(0x5eed);
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const { apiKeyId, sessionId = null, type = 'factual', expiresAt = null, archivedBy = null } = member(i);
      const { lastInsertRowid } = insertMemory.run(randomUUID(), apiKeyId, sessionId, type, `crowd-${i}`, now, now, expiresAt, archivedBy);
      const vector = nearby(query, next);
      insertVector.run(
        BigInt(lastInsertRowid),
        apiKeyId,
        type,
        sessionId ?? '',
        BigInt(expiresAt ?? Number.MAX_SAFE_INTEGER),
        BigInt(now),
        BigInt(archivedBy === null ? 0 : 1),
        Buffer.from(vector.buffer),
      );
    }
  })();
}

/** The 200 vectors nearest to `query`, of every key or only of `apiKeyId`, with no other filter. */
function nearestUnfiltered(query: Float32Array, apiKeyId?: string) {
  const partition = apiKeyId === undefined ? '' : 'and v.api_key_id = ?';
  return app.database.sqlite
    .prepare(
      `select m.api_key_id as apiKeyId, m.content from memory_vec v join memories m on m.pk = v.memory_pk
       where v.embedding match ? and k = 200 ${partition}`,
    )
    .all(Buffer.from(query.buffer), ...(apiKeyId === undefined ? [] : [apiKeyId])) as { apiKeyId: string; content: string }[];
}

async function embedAll(apiKeyId: string, memories: { content: string; sessionId?: string }[]) {
  for (const m of memories) await app.ok(CREATE_MEMORY, { input: { apiKeyId, ...m } });
  await app.ok(START_REINDEX);
  await app.services.reindex.idle();
}

const contents = (r: { items: { memory: { content: string } }[] }) => r.items.map((i) => i.memory.content);

describe('partitioned vector search', () => {
  it('finds the top hits of a key with 5 memories among 100,000 closer memories of other keys', async () => {
    const apiKeyId = `small-${randomUUID().slice(0, 8)}`;
    // Fruit at decreasing similarity (more filler words), then two other topics.
    const mine = ['I eat mango', 'I eat banana on my day', 'I eat cherry on my day of notes', 'I write rust', 'my cat'];
    await embedAll(
      apiKeyId,
      mine.map((content) => ({ content })),
    );

    const query = topicVector('fruit', DIM);
    const before = (app.database.sqlite.prepare('select count(*) as n from memory_vec').get() as { n: number }).n;
    seedCrowd(query, CROWD, (i) => ({ apiKeyId: `crowd-${i % CROWD_KEYS}` }));
    expect(app.database.sqlite.prepare('select count(*) as n from memory_vec').get()).toEqual({ n: before + CROWD });
    // Without the partition, the 200 nearest vectors are all the crowd's: a search that filtered by key
    // after the nearest-neighbour step would find nothing of this key.
    expect(nearestUnfiltered(query).every((r) => r.apiKeyId.startsWith('crowd-'))).toBe(true);

    const r = (await app.ok(RETRIEVE, { input: { apiKeyId, query: 'mango', strategy: 'SEMANTIC' } })).retrieve;
    expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: false });
    expect(contents(r)).toEqual(['I eat mango', 'I eat banana on my day', 'I eat cherry on my day of notes']);
    expect(r.items.map((i) => i.vectorRank)).toEqual([1, 2, 3]);
  }, 120_000);

  it("finds a session's memories among 40,000 closer memories of the same key that the filters exclude", async () => {
    const apiKeyId = `busy-${randomUUID().slice(0, 8)}`;
    await embedAll(apiKeyId, [
      { content: 'I eat mango', sessionId: 's1' },
      { content: 'I eat banana on my day' },
      { content: 'I eat cherry on my day of notes', sessionId: 's2' },
    ]);
    const query = topicVector('fruit', DIM);
    // Other sessions, another type, expired, or archived by a summary: each a quarter of the crowd.
    const past = Date.now() - 60_000;
    seedCrowd(
      query,
      40_000,
      (i) =>
        [
          { apiKeyId, sessionId: `other-${i % 100}` },
          { apiKeyId, type: 'episodic' },
          { apiKeyId, expiresAt: past },
          { apiKeyId, archivedBy: 'some-summary' },
        ][i % 4]!,
    );
    // Filtering after the nearest-neighbour step would find nothing: the 200 nearest of the key are all crowd.
    const nearest = nearestUnfiltered(query, apiKeyId);
    expect(nearest).toHaveLength(200);
    expect(nearest.every((r) => r.content === 'crowd')).toBe(true);

    const r = (await app.ok(RETRIEVE, { input: { apiKeyId, sessionId: 's1', query: 'mango', strategy: 'SEMANTIC', types: ['FACTUAL'] } }))
      .retrieve;
    expect(r.resolution).toMatchObject({ tiers: ['VECTOR'], fallback: false });
    expect(contents(r)).toEqual(['I eat mango', 'I eat banana on my day']);
  }, 120_000);
});
