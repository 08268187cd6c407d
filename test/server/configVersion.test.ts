import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderService } from '../../server/embedding/provider.service.ts';
import { CONFIG_CHECK_MS, ConfigVersion } from '../../server/settings/configVersion.ts';
import { SettingsService } from '../../server/settings/settings.service.ts';
import { QdrantSettingsStore } from '../../server/vector/qdrantSettings.ts';
import { testClock } from '../helpers/clock.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// Two processes on one database (two replicas): each has its own caches and its own version check, and one clock that
// the tests move past the check interval instead of waiting for it.
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t.close());

function replica(clock: ReturnType<typeof testClock>) {
  const deps = { db: t.database.db, now: clock.now, configVersion: new ConfigVersion({ db: t.database.db, now: clock.now }) };
  return { settings: new SettingsService(deps), qdrant: new QdrantSettingsStore(deps), providers: new ProviderService(deps, null) };
}

describe('settings changed by another process on the same database', () => {
  it('are seen by this one within the check interval, without a restart', async () => {
    const clock = testClock();
    const [a, b] = [replica(clock), replica(clock)];
    const before = (await b.settings.get()).maxTokens;
    await a.settings.update({ maxTokens: before + 1 });
    clock.skip(CONFIG_CHECK_MS);
    expect((await b.settings.get()).maxTokens).toBe(before + 1);
  });

  it('are seen at once by the process that made them', async () => {
    const clock = testClock();
    const a = replica(clock);
    const before = (await a.settings.get()).maxTokens;
    expect((await a.settings.update({ maxTokens: before + 2 })).maxTokens).toBe(before + 2);
  });

  it('include the Qdrant settings', async () => {
    const clock = testClock();
    const [a, b] = [replica(clock), replica(clock)];
    await b.qdrant.view();
    await a.qdrant.update({ url: 'http://qdrant.example:6333', collection: 'replicated' });
    clock.skip(CONFIG_CHECK_MS);
    expect(await b.qdrant.view()).toMatchObject({ url: 'http://qdrant.example:6333', collection: 'replicated' });
  });

  it('include the model providers, whose change makes the engine resolve its models again', async () => {
    const clock = testClock();
    const [a, b] = [replica(clock), replica(clock)];
    const before = await b.providers.revision();
    await a.providers.upsert({ id: 'replicated', baseUrl: 'http://models.example/v1', keyless: true, models: [] });
    clock.skip(CONFIG_CHECK_MS);
    expect(await b.providers.revision()).not.toBe(before);
  });
});
