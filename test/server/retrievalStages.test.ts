import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../server/memory/memory.service.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { STAGES, StageClock } from '../../server/retrieval/stageClock.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  await t.services.settings.update({ enabled: true });
  await createMemory(t.services, { apiKeyId: 'stages', type: 'enforced', content: 'Answer in French' });
  for (const content of ['The deploy script lives in ops/deploy.sh', 'Deploys run on Fridays', 'Lunch is at noon'])
    await createMemory(t.services, { apiKeyId: 'stages', sessionId: 's1', content });
});
afterAll(() => t.close());

const ask = (clock?: StageClock) =>
  retrieve(t.services, { apiKeyId: 'stages', query: 'when do deploys run?', strategy: 'HYBRID' }, { record: true, clock });

describe('the time of each stage of a retrieval', () => {
  it('charges the stages a keyword retrieval ran, each with the items it touched, and retrieves the same as without a clock', async () => {
    const clock = new StageClock();
    const timed = await ask(clock);
    const plain = await ask();
    expect(timed.items.map((i) => [i.memory.id, i.tier])).toEqual(plain.items.map((i) => [i.memory.id, i.tier]));
    const items = Object.fromEntries(STAGES.map((s) => [s, clock.times[s].items]));
    expect(items).toEqual({
      settings: 1,
      exact: 0,
      keyword: 2,
      // No model here: the vector tier answers nothing.
      vector: 0,
      fusion: 2,
      // The lunch turn comes along as the session neighbour of a hit.
      adjacency: 3,
      rerank: 0,
      enforced: 1,
      budget: 4,
      nearDuplicates: 4,
      profile: 0,
      recording: 4,
    });
    expect(clock.times.exact.ms).toBe(0);
    for (const s of STAGES) expect(clock.times[s].ms).toBeGreaterThanOrEqual(0);
  });

  it('charges EXACT its read of the newest rows instead of the ranking stages', async () => {
    const clock = new StageClock();
    await retrieve(t.services, { apiKeyId: 'stages', strategy: 'EXACT' }, { record: false, clock });
    expect(clock.times.exact.items).toBe(4);
    expect([clock.times.keyword.items, clock.times.fusion.items, clock.times.adjacency.items]).toEqual([0, 0, 0]);
  });
});
