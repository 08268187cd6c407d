import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../server/logger.ts';
import { AccessRecorder } from '../../server/memory/accessRecorder.ts';
import { createMemory } from '../../server/memory/memory.service.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

let t: TestDb;
beforeEach(async () => {
  t = await openTestDb();
});
afterEach(() => t.close());

async function memoryPk(apiKeyId: string, content: string) {
  const m = await createMemory(t.services, { apiKeyId, content });
  return (await t.database.db.selectFrom('memories').select('pk').where('id', '=', m.id).executeTakeFirstOrThrow()).pk;
}
const counters = (pk: number) =>
  t.database.db.selectFrom('memories').select(['access_count', 'last_accessed_at']).where('pk', '=', pk).executeTakeFirst();
const stats = (apiKeyId: string) =>
  t.database.db.selectFrom('retrieval_stats').select(['retrievals', 'hits']).where('api_key_id', '=', apiKeyId).executeTakeFirst();

describe('access counts written behind', () => {
  it('adds up many retrievals of the same memory in one write, keeping the latest access', async () => {
    const pk = await memoryPk('acc-a', 'Likes green tea');
    const recorder = new AccessRecorder(t.services.db);
    recorder.record('acc-a', [pk], 1_000);
    recorder.record('acc-a', [pk], 3_000);
    recorder.record('acc-a', [pk], 2_000);
    recorder.record('acc-a', [], 4_000);
    expect(await counters(pk)).toEqual({ access_count: 0, last_accessed_at: null });
    await recorder.flush();
    expect(await counters(pk)).toEqual({ access_count: 3, last_accessed_at: 3_000 });
    expect(await stats('acc-a')).toEqual({ retrievals: 4, hits: 3 });
  });

  it('adds to what earlier writes stored', async () => {
    const pk = await memoryPk('acc-b', 'Cycles to work');
    const recorder = new AccessRecorder(t.services.db);
    for (const at of [1_000, 2_000]) {
      recorder.record('acc-b', [pk], at);
      await recorder.flush();
    }
    expect(await counters(pk)).toEqual({ access_count: 2, last_accessed_at: 2_000 });
    expect(await stats('acc-b')).toEqual({ retrievals: 2, hits: 2 });
  });

  it('writes on its own once the interval has passed, with nobody reading', async () => {
    const pk = await memoryPk('acc-c', 'Plays chess on Fridays');
    // The interval is a timer, which the test runs out itself; the write it starts runs on real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      new AccessRecorder(t.services.db, { intervalMs: 60_000 }).record('acc-c', [pk], 5_000);
      vi.advanceTimersByTime(60_000);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(async () => expect(await counters(pk)).toEqual({ access_count: 1, last_accessed_at: 5_000 }), { timeout: 5_000 });
  });

  it('writes at once when many memories are pending, bounding the size of one write', async () => {
    const pks = [await memoryPk('acc-d', 'Owns a kayak'), await memoryPk('acc-d', 'Reads sci-fi')];
    new AccessRecorder(t.services.db, { intervalMs: 3_600_000, maxPending: 2 }).record('acc-d', pks, 6_000);
    await vi.waitFor(async () => expect(await counters(pks[1]!)).toMatchObject({ access_count: 1 }), { timeout: 5_000 });
  });

  it('writes thousands of counts in parts, letting other work run between them', async () => {
    const pks = await t.database.db
      .insertInto('memories')
      .values(
        Array.from({ length: 2_500 }, (_, i) => ({
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          api_key_id: 'acc-parts',
          type: 'factual' as const,
          key: `note:${i}`,
          content: `note ${i}`,
          metadata: '{}',
          tokens: 2,
          created_at: i,
          updated_at: i,
          valid_from: i,
        })),
      )
      .returning('pk')
      .execute();
    const recorder = new AccessRecorder(t.services.db);
    recorder.record(
      'acc-parts',
      pks.map((r) => r.pk),
      5_000,
    );
    let servedMeanwhile = false;
    setImmediate(() => {
      servedMeanwhile = true;
    });
    await recorder.flush();
    expect(servedMeanwhile).toBe(true);
    const written = await t.database.db
      .selectFrom('memories')
      .select((eb) => eb.fn.sum<number>('access_count').as('n'))
      .where('api_key_id', '=', 'acc-parts')
      .executeTakeFirst();
    expect(Number(written?.n)).toBe(2_500);
    expect(await stats('acc-parts')).toEqual({ retrievals: 1, hits: 1 });
  });

  it('logs a write that fails and keeps going, never throwing at the caller', async () => {
    const pk = await memoryPk('acc-e', 'Speaks Portuguese');
    const error = vi.fn();
    const recorder = new AccessRecorder(t.services.db, { logger: { error } as unknown as Logger });
    await t.database.db.schema.dropTable('retrieval_stats').execute();
    recorder.record('acc-e', [pk], 7_000);
    await expect(recorder.flush()).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ memories: 1, keys: 1 }), expect.stringMatching(/lost/));
    // The transaction rolled back: no half-written batch.
    expect(await counters(pk)).toEqual({ access_count: 0, last_accessed_at: null });
  });
});
