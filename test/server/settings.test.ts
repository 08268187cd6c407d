import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsService } from '../../server/settings/settings.service.ts';
import { GET_SETTINGS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { openTestStore, testStoreKind } from '../helpers/testStore.ts';

/** The settings as the shared TestSettings fragment selects them (helpers/operations.graphql), on a fresh install. */
const DEFAULTS = {
  enabled: false,
  maxTokens: 2000,
  retentionDays: 30,
  strategy: 'HYBRID',
  embeddingSource: 'AUTO',
  embeddingProviderModel: null,
  transformersEnabled: false,
  staticEnabled: true,
  rerankEnabled: false,
  rerankProviderModel: null,
  vectorStore: 'AUTO',
  autoSummarize: false,
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Every test starts from an empty settings table, as on a fresh install. */
beforeEach(async () => {
  await app.database.db.deleteFrom('settings').execute();
  await app.services.settings.update({});
});

const read = () => app.ok(GET_SETTINGS).then((d) => d.memorySettings);
const update = (input: Record<string, unknown>) => app.gql(UPDATE_SETTINGS, { input });
const storedRows = async () =>
  Object.fromEntries(
    (await app.database.db.selectFrom('settings').select(['name', 'value']).execute()).map((r) => [r.name, JSON.parse(r.value)]),
  );
/** Writes a row behind the service's back, as an operator's hand edit would. */
const writeRow = (name: string, value: string) =>
  app.database.db
    .insertInto('settings')
    .values({ name, value, updated_at: 0 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();

describe('memory settings', () => {
  it('start with the documented defaults', async () => {
    expect(await read()).toEqual(DEFAULTS);
  });

  it('change only the fields a patch names', async () => {
    const res = await update({ enabled: true, strategy: 'EXACT' });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateMemorySettings).toEqual({ ...DEFAULTS, enabled: true, strategy: 'EXACT' });
    expect(await read()).toEqual({ ...DEFAULTS, enabled: true, strategy: 'EXACT' });
  });

  it('keep earlier changes when a later patch names other fields', async () => {
    await update({ maxTokens: 500 });
    await update({ retentionDays: 90, vectorStore: 'SQLITE_VEC' });
    expect(await read()).toEqual({ ...DEFAULTS, maxTokens: 500, retentionDays: 90, vectorStore: 'SQLITE_VEC' });
  });

  it('accept the edges of every range', async () => {
    for (const patch of [{ maxTokens: 0 }, { maxTokens: 16000 }, { retentionDays: 1 }, { retentionDays: 365 }]) {
      const res = await update(patch);
      expect(res.errors).toBeUndefined();
      expect(res.data.updateMemorySettings).toMatchObject(patch);
    }
  });

  it('treat null as "leave as is" for required settings and as "clear" for model names', async () => {
    await update({ autoSummarize: true, embeddingProviderModel: 'openai/text-embedding-3-small' });
    const res = await update({ autoSummarize: null, embeddingProviderModel: null });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateMemorySettings).toMatchObject({ autoSummarize: true, embeddingProviderModel: null });
  });

  it('are still there after a restart, read by a fresh store on a new connection', async () => {
    await update({ enabled: true, maxTokens: 1234, rerankProviderModel: 'cohere/rerank-3' });
    const reopened = await openTestStore(app.dir);
    try {
      expect(await new SettingsService({ db: reopened.db, now: Date.now }).get()).toEqual({
        ...DEFAULT_SETTINGS,
        enabled: true,
        maxTokens: 1234,
        rerankProviderModel: 'cohere/rerank-3',
      });
    } finally {
      await reopened.close();
    }
  });

  it('store only the settings that were changed', async () => {
    await update({ maxTokens: 100 });
    expect(await storedRows()).toEqual({ maxTokens: 100 });
  });
});

describe('out-of-range settings', () => {
  const rejected: [string, Record<string, unknown>][] = [
    ['maxTokens', { maxTokens: -1 }],
    ['maxTokens', { maxTokens: 16001 }],
    ['retentionDays', { retentionDays: 0 }],
    ['retentionDays', { retentionDays: 366 }],
    ['embeddingProviderModel', { embeddingProviderModel: 'x'.repeat(201) }],
  ];

  for (const [field, patch] of rejected) {
    it(`are rejected with BAD_USER_INPUT naming the field, not clamped: ${JSON.stringify(patch).slice(0, 40)}`, async () => {
      const err = onlyError(await update(patch));
      expect(err.extensions?.code).toBe('BAD_USER_INPUT');
      expect(err.message).toContain(field);
      expect(await read()).toEqual(DEFAULTS);
    });
  }

  it('reject a fractional maxTokens over GraphQL with BAD_USER_INPUT naming the field', async () => {
    const err = onlyError(await update({ maxTokens: 1.5 }));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(err.message).toContain('maxTokens');
    expect(await read()).toEqual(DEFAULTS);
  });

  it('reject an unknown strategy or setting name with BAD_USER_INPUT naming it', async () => {
    const badEnum = onlyError(await update({ strategy: 'FASTEST' }));
    expect(badEnum.extensions?.code).toBe('BAD_USER_INPUT');
    expect(badEnum.message).toContain('strategy');
    const unknown = onlyError(await update({ maxTokens: 10, turbo: true }));
    expect(unknown.extensions?.code).toBe('BAD_USER_INPUT');
    expect(unknown.message).toContain('turbo');
    expect(await read()).toEqual(DEFAULTS);
  });

  it('reject a fractional maxTokens in the store itself, naming the field', async () => {
    await expect(app.services.settings.update({ maxTokens: 1.5 })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringContaining('maxTokens'),
    });
  });

  it('write nothing at all when any field of a patch is rejected', async () => {
    const err = onlyError(await update({ enabled: true, strategy: 'SEMANTIC', maxTokens: 16001 }));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await read()).toEqual(DEFAULTS);
    expect(await storedRows()).toEqual({});
  });

  it('name every bad field of a patch in one message', async () => {
    const err = onlyError(await update({ maxTokens: -1, retentionDays: 0 }));
    expect(err.message).toContain('maxTokens');
    expect(err.message).toContain('retentionDays');
  });

  it('reject unknown setting names in the store instead of storing them', async () => {
    await expect(app.services.settings.update({ bogus: 1 } as never)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await storedRows()).toEqual({});
  });
});

describe('the settings cache', () => {
  it('serves repeated reads without going back to the database', async () => {
    const first = await app.services.settings.get();
    await writeRow('maxTokens', '777');
    expect(await app.services.settings.get()).toBe(first);
  });

  it('is invalidated on write, so the next read sees the new value', async () => {
    expect((await app.services.settings.get()).enabled).toBe(false);
    await update({ enabled: true });
    expect((await app.services.settings.get()).enabled).toBe(true);
    expect((await read()).enabled).toBe(true);
  });

  it('is invalidated on write even when the patch changes nothing', async () => {
    await app.services.settings.get();
    await writeRow('retentionDays', '45');
    await app.services.settings.update({});
    expect((await app.services.settings.get()).retentionDays).toBe(45);
  });
});

describe('a hand-corrupted settings row', () => {
  let warnings: string[];
  let store: SettingsService;
  beforeEach(() => {
    warnings = [];
    store = new SettingsService(app.services, (name) => warnings.push(name));
  });
  afterEach(() => {
    if (testStoreKind() === 'sqlite') app.database.sqlite.pragma('ignore_check_constraints = OFF');
  });

  const corrupt = writeRow;

  it('of the wrong type falls back to the default and is reported', async () => {
    await corrupt('maxTokens', '"lots"');
    await corrupt('retentionDays', '30');
    await corrupt('strategy', '"FASTEST"');
    const settings = await store.get();
    expect(settings.maxTokens).toBe(2000);
    expect(settings.strategy).toBe('HYBRID');
    expect(warnings.sort()).toEqual(['maxTokens', 'strategy']);
  });

  it('out of range falls back to the default, keeping the valid rows', async () => {
    await corrupt('retentionDays', '9999');
    await corrupt('enabled', 'true');
    expect(await store.get()).toMatchObject({ retentionDays: 30, enabled: true });
  });

  // PostgreSQL's check constraint on settings.value cannot be switched off for a connection, as SQLite's can: such a row
  // cannot be written there without changing the schema.
  it.skipIf(testStoreKind() !== 'sqlite')('that is not JSON at all falls back to the default instead of breaking every read', async () => {
    app.database.sqlite.pragma('ignore_check_constraints = ON');
    await corrupt('maxTokens', 'lots');
    await corrupt('enabled', 'true');
    expect(await store.get()).toMatchObject({ maxTokens: 2000, enabled: true });
    expect(warnings).toEqual(['maxTokens']);
  });

  it('still lets the API read the settings', async () => {
    await corrupt('maxTokens', '"lots"');
    await app.services.settings.update({});
    expect(await read()).toEqual(DEFAULTS);
  });

  it('is repaired by the next valid write', async () => {
    await corrupt('maxTokens', '"lots"');
    await update({ maxTokens: 300 });
    expect((await storedRows()).maxTokens).toBe(300);
    expect((await read()).maxTokens).toBe(300);
  });

  it('with an unknown name is ignored', async () => {
    await corrupt('retiredSetting', '{"x":1}');
    expect(await store.get()).toEqual(DEFAULT_SETTINGS);
    expect(warnings).toEqual([]);
  });
});
