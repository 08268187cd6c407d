import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l2normalize } from '../../server/embedding/embedder.ts';
import { createMemory } from '../../server/memory/memory.service.ts';
import { SqliteVecIndex } from '../../server/vector/sqliteVecIndex.ts';
import type { VectorFilter, VectorItem, VectorSignature } from '../../server/vector/vectorIndex.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

const SIG: VectorSignature = { source: 'static', model: 'test/model', dimension: 4, quantization: 'none' };
const vec = (...xs: number[]) => l2normalize(new Float32Array(xs));

let t: TestDb;
let index: SqliteVecIndex;
beforeEach(async () => {
  t = await openTestDb();
  index = new SqliteVecIndex(t.services);
});
afterEach(() => t.close());

async function memory(apiKeyId: string, content: string, extra: Record<string, unknown> = {}) {
  return createMemory(t.services, { apiKeyId, content, ...extra });
}

const item = (m: Awaited<ReturnType<typeof memory>>, vector: Float32Array): VectorItem => ({
  pk: m.pk,
  apiKeyId: m.apiKeyId,
  sessionId: m.sessionId,
  type: m.type,
  expiresAt: m.expiresAt?.getTime() ?? null,
  updatedAt: m.updatedAt.getTime(),
  archived: false,
  superseded: false,
  vector,
});

const filter = (apiKeyId: string, over: Partial<VectorFilter> = {}): VectorFilter => ({
  apiKeyId,
  sessionId: null,
  types: null,
  now: Date.now(),
  retentionCutoff: 0,
  ...over,
});

describe('the sqlite-vec index', () => {
  it('finds the nearest memories of one API key by cosine similarity', async () => {
    await index.prepare(SIG);
    const a = await memory('k', 'a');
    const b = await memory('k', 'b');
    await index.upsert([item(a, vec(1, 0, 0, 0)), item(b, vec(0, 1, 0, 0))]);
    const hits = await index.search(vec(0.9, 0.1, 0, 0), filter('k'), 10);
    expect(hits.map((h) => h.pk)).toEqual([a.pk, b.pk]);
    expect(hits[0]!.similarity).toBeGreaterThan(0.9);
  });

  it("never returns another tenant's vectors, however close", async () => {
    await index.prepare(SIG);
    const mine = await memory('mine', 'x');
    const theirs = await memory('theirs', 'x');
    await index.upsert([item(mine, vec(0, 0, 1, 0)), item(theirs, vec(1, 0, 0, 0))]);
    expect((await index.search(vec(1, 0, 0, 0), filter('mine'), 10)).map((h) => h.pk)).toEqual([mine.pk]);
  });

  it('filters by session, type, expiry and retention during the search', async () => {
    await index.prepare(SIG);
    const keyWide = await memory('k', 'key-wide');
    const s1 = await memory('k', 'session one', { sessionId: 's1' });
    const s2 = await memory('k', 'session two', { sessionId: 's2' });
    const proc = await memory('k', 'procedure', { type: 'procedural' });
    const expired = await memory('k', 'expired', { expiresAt: new Date(Date.now() - 1000) });
    const all = [keyWide, s1, s2, proc, expired];
    await index.upsert(all.map((m) => item(m, vec(1, 0, 0, 0))));
    const pks = async (f: Partial<VectorFilter>) => (await index.search(vec(1, 0, 0, 0), filter('k', f), 10)).map((h) => h.pk).sort();
    expect(await pks({ sessionId: 's1' })).toEqual([keyWide.pk, s1.pk, proc.pk].sort());
    expect(await pks({ types: ['procedural'] })).toEqual([proc.pk]);
    expect(await pks({ retentionCutoff: Date.now() + 60_000 })).toEqual([]);
    expect(await pks({})).not.toContain(expired.pk);
  });

  it('removes the vector in the same transaction when the memory is deleted', async () => {
    await index.prepare(SIG);
    const m = await memory('k', 'gone soon');
    await index.upsert([item(m, vec(1, 0, 0, 0))]);
    await t.services.db.deleteFrom('memories').where('pk', '=', m.pk).execute();
    expect(await index.count()).toBe(0);
  });

  it('drops a stale vector when the content changes, and follows expiry and archiving at once', async () => {
    await index.prepare(SIG);
    const m = await memory('k', 'first', { key: 'x' });
    const n = await memory('k', 'other', { key: 'y' });
    await index.upsert([item(m, vec(1, 0, 0, 0)), item(n, vec(1, 0, 0, 0))]);
    await memory('k', 'second', { key: 'x' });
    expect(await index.count()).toBe(1);
    await t.services.db
      .updateTable('memories')
      .set({ expires_at: Date.now() - 1 })
      .where('pk', '=', n.pk)
      .execute();
    expect(await index.search(vec(1, 0, 0, 0), filter('k'), 10)).toEqual([]);
  });

  it('rebuilds on a new signature and flags every memory for reindexing, losing no memory', async () => {
    await index.prepare(SIG);
    const m = await memory('k', 'kept');
    await index.upsert([item(m, vec(1, 0, 0, 0))]);
    await t.services.db.updateTable('memories').set({ needs_reindex: 0 }).execute();
    expect(await index.prepare(SIG)).toEqual({ reset: false });
    expect(await index.prepare({ ...SIG, dimension: 8 })).toEqual({ reset: true });
    expect(await index.count()).toBe(0);
    const rows = await t.services.db.selectFrom('memories').select(['content', 'needs_reindex']).execute();
    expect(rows).toEqual([{ content: 'kept', needs_reindex: 1 }]);
    expect(await index.signature()).toEqual({ ...SIG, dimension: 8 });
  });

  it('stores int8-quantized vectors and still ranks by similarity', async () => {
    await index.prepare({ ...SIG, quantization: 'int8' });
    const a = await memory('k', 'a');
    const b = await memory('k', 'b');
    await index.upsert([item(a, vec(1, 0.1, 0, 0)), item(b, vec(0, 1, 0.2, 0))]);
    const hits = await index.search(vec(1, 0, 0, 0), filter('k'), 2);
    expect(hits.map((h) => h.pk)).toEqual([a.pk, b.pk]);
    expect((await index.status()).quantization).toBe('int8');
  });

  it('searches nothing before it is prepared', async () => {
    expect(await index.search(vec(1, 0, 0, 0), filter('k'), 5)).toEqual([]);
    expect(await index.count()).toBe(0);
  });
});
