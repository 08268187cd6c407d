import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClearMemoriesMutationVariables,
  type ExportMemoriesQuery,
  type ListMemoriesQuery,
  MemoryLifecycleImportRowLimitDocument,
} from '../generated/graphql.ts';
import { indexedMatches } from '../helpers/keywordIndex.ts';
import {
  CLEAR_MEMORIES,
  CREATE_MEMORY,
  EXPORT_MEMORIES,
  GET_MEMORY,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  type MemoryInput,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const importRows = (memories: MemoryInput[], token?: string) => app.ok(IMPORT_MEMORIES, { memories }, token).then((d) => d.importMemories);
const list = (vars: Record<string, unknown>) => app.ok(LIST_MEMORIES, { limit: 500, ...vars }).then((d) => d.memories);
type Page = ListMemoriesQuery['memories'];
type Exported = ExportMemoriesQuery['exportMemories'][number];
const keysOf = (page: Page) => page.items.map((m) => m.key).sort();
const byKey = (page: Page, key: string) => page.items.find((m) => m.key === key);
const clear = (vars: ClearMemoriesMutationVariables) => app.ok(CLEAR_MEMORIES, vars).then((d) => d.clearMemories);
const countOf = async (apiKeyId: string) =>
  (
    await app.database.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('api_key_id', '=', apiKeyId)
      .executeTakeFirstOrThrow()
  ).n;
const indexed = (word: string) => indexedMatches(app.database, word);
const setRetention = (retentionDays: number) => app.ok(UPDATE_SETTINGS, { input: { retentionDays } });

describe('expiry', () => {
  it('hides a memory whose expiresAt has passed, and lists it as EXPIRED when asked', async () => {
    await create({ apiKeyId: 'life-exp-1', key: 'gone', content: 'Offer valid until yesterday', expiresAt: ago(60_000) });
    await create({ apiKeyId: 'life-exp-1', key: 'live', content: 'Offer valid next week', expiresAt: fromNow(7 * DAY) });
    expect(keysOf(await list({ apiKeyId: 'life-exp-1' }))).toEqual(['live']);
    const all = await list({ apiKeyId: 'life-exp-1', includeExpired: true });
    expect(keysOf(all)).toEqual(['gone', 'live']);
    expect(byKey(all, 'gone')!.status).toBe('EXPIRED');
    expect(byKey(all, 'live')!.status).toBe('ACTIVE');
  });

  it('still returns an expired memory by id, marked EXPIRED', async () => {
    const m = await create({ apiKeyId: 'life-exp-2', content: 'Temporary password hint', expiresAt: ago(1000) });
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory).toMatchObject({ id: m.id, status: 'EXPIRED' });
  });

  it('brings an expired memory back when its expiry is removed', async () => {
    const m = await create({ apiKeyId: 'life-exp-3', key: 'k', content: 'Was temporary', expiresAt: ago(1000) });
    const { updateMemory } = await app.ok(UPDATE_MEMORY, { id: m.id, input: { expiresAt: null } });
    expect(updateMemory).toMatchObject({ expiresAt: null, status: 'ACTIVE' });
    expect(keysOf(await list({ apiKeyId: 'life-exp-3' }))).toEqual(['k']);
  });

  it('leaves expired memories out of an export unless asked for', async () => {
    await create({ apiKeyId: 'life-exp-4', key: 'gone', content: 'expired', expiresAt: ago(1000) });
    await create({ apiKeyId: 'life-exp-4', key: 'live', content: 'current' });
    const plain = (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'life-exp-4' })).exportMemories;
    const all = (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'life-exp-4', includeExpired: true })).exportMemories;
    expect(plain.map((m: { key: string }) => m.key)).toEqual(['live']);
    expect(all).toHaveLength(2);
  });
});

describe('retention', () => {
  afterEach(() => setRetention(30));

  it('hides a memory last written before the retention window, and lists it as OUT_OF_RETENTION when asked', async () => {
    await setRetention(30);
    await importRows([
      { apiKeyId: 'life-ret-1', key: 'old', content: 'Used to live in Paris', createdAt: ago(40 * DAY) },
      { apiKeyId: 'life-ret-1', key: 'recent', content: 'Lives in Madrid', createdAt: ago(5 * DAY) },
    ]);
    expect(keysOf(await list({ apiKeyId: 'life-ret-1' }))).toEqual(['recent']);
    const all = await list({ apiKeyId: 'life-ret-1', includeExpired: true });
    expect(keysOf(all)).toEqual(['old', 'recent']);
    expect(byKey(all, 'old')!.status).toBe('OUT_OF_RETENTION');
    expect(byKey(all, 'recent')!.status).toBe('ACTIVE');
  });

  it('brings old memories back when the retention window is widened', async () => {
    await importRows([{ apiKeyId: 'life-ret-2', key: 'old', content: 'Old but wanted', createdAt: ago(40 * DAY) }]);
    expect(keysOf(await list({ apiKeyId: 'life-ret-2' }))).toEqual([]);
    await setRetention(60);
    const page = await list({ apiKeyId: 'life-ret-2' });
    expect(keysOf(page)).toEqual(['old']);
    expect(byKey(page, 'old')!.status).toBe('ACTIVE');
  });

  it('makes an old memory fresh again when the fact is restated', async () => {
    await importRows([{ apiKeyId: 'life-ret-3', key: 'city', content: 'Lives in Oslo', createdAt: ago(40 * DAY) }]);
    const restated = await create({ apiKeyId: 'life-ret-3', key: 'city', content: 'Lives in Oslo' });
    expect(restated.status).toBe('ACTIVE');
    expect(keysOf(await list({ apiKeyId: 'life-ret-3' }))).toEqual(['city']);
  });

  it('makes an old memory fresh again when it is edited', async () => {
    await importRows([{ apiKeyId: 'life-ret-4', key: 'k', content: 'An old note', createdAt: ago(40 * DAY) }]);
    const old = byKey(await list({ apiKeyId: 'life-ret-4', includeExpired: true }), 'k')!;
    const { updateMemory } = await app.ok(UPDATE_MEMORY, { id: old.id, input: { metadata: { reviewed: true } } });
    expect(updateMemory.status).toBe('ACTIVE');
    expect(updateMemory.createdAt).toBe(old.createdAt);
  });
});

describe('clearing memories', () => {
  it('deletes every memory of one API key, returns how many, and leaves other keys alone', async () => {
    await importRows([
      ...Array.from({ length: 7 }, (_, i) => ({ apiKeyId: 'life-clr-1', key: `k${i}`, content: `fact ${i}` })),
      { apiKeyId: 'life-clr-1-other', key: 'k0', content: 'belongs to someone else' },
    ]);
    expect(await clear({ apiKeyId: 'life-clr-1' })).toBe(7);
    expect(await countOf('life-clr-1')).toBe(0);
    expect(await countOf('life-clr-1-other')).toBe(1);
  });

  it('also deletes expired and out-of-retention memories of the key', async () => {
    await importRows([
      { apiKeyId: 'life-clr-2', key: 'old', content: 'old', createdAt: ago(400 * DAY) },
      { apiKeyId: 'life-clr-2', key: 'gone', content: 'gone', expiresAt: ago(1000) },
      { apiKeyId: 'life-clr-2', key: 'live', content: 'live' },
    ]);
    expect(await clear({ apiKeyId: 'life-clr-2' })).toBe(3);
  });

  it('deletes only memories of the given type', async () => {
    await importRows([
      { apiKeyId: 'life-clr-3', type: 'EPISODIC', key: 'e1', content: 'chatted about cats' },
      { apiKeyId: 'life-clr-3', type: 'EPISODIC', key: 'e2', content: 'chatted about dogs' },
      { apiKeyId: 'life-clr-3', type: 'FACTUAL', key: 'f1', content: 'owns a cat' },
    ]);
    expect(await clear({ apiKeyId: 'life-clr-3', type: 'EPISODIC' })).toBe(2);
    expect(keysOf(await list({ apiKeyId: 'life-clr-3' }))).toEqual(['f1']);
  });

  it('deletes only memories created before the given date', async () => {
    await importRows([
      { apiKeyId: 'life-clr-4', key: 'older', content: 'first', createdAt: ago(3 * DAY) },
      { apiKeyId: 'life-clr-4', key: 'boundary', content: 'second', createdAt: ago(2 * DAY) },
      { apiKeyId: 'life-clr-4', key: 'newer', content: 'third', createdAt: ago(1 * DAY) },
    ]);
    const boundary = byKey(await list({ apiKeyId: 'life-clr-4' }), 'boundary')!;
    expect(await clear({ apiKeyId: 'life-clr-4', createdBefore: boundary.createdAt })).toBe(1);
    expect(keysOf(await list({ apiKeyId: 'life-clr-4' }))).toEqual(['boundary', 'newer']);
  });

  it('returns 0 for a key without memories', async () => {
    expect(await clear({ apiKeyId: 'life-clr-nobody' })).toBe(0);
  });

  it('removes cleared memories from the keyword index', async () => {
    await importRows([
      { apiKeyId: 'life-clr-5', key: 'a', content: 'quokkaesque animals' },
      { apiKeyId: 'life-clr-5-other', key: 'a', content: 'wombatlike animals' },
    ]);
    expect(await indexed('quokkaesque')).toBe(1);
    await clear({ apiKeyId: 'life-clr-5' });
    expect(await indexed('quokkaesque')).toBe(0);
    expect(await indexed('wombatlike')).toBe(1);
    expect((await list({ apiKeyId: 'life-clr-5-other', search: 'wombatlike' })).totalCount).toBe(1);
  });

  it('clears 20,000 memories in one call', async () => {
    // Written straight to the table in one statement (the insert triggers index them): twice the largest import, which
    // through the API would take most of this test's time on PostgreSQL, one upsert per row.
    await sql`
      with recursive n(i) as (select 0 union all select i + 1 from n where i < 19999)
      insert into memories (id, api_key_id, type, key, content, metadata, tokens, created_at, updated_at, valid_from)
      select 'bulk-' || i, 'life-clr-big', 'factual', 'b-' || i, 'bulk memory ' || i, '{}', 3, ${Date.now()}, ${Date.now()}, ${Date.now()} from n`.execute(
      app.database.db,
    );
    expect(await countOf('life-clr-big')).toBe(20_000);
    expect(await clear({ apiKeyId: 'life-clr-big' })).toBe(20_000);
    expect(await countOf('life-clr-big')).toBe(0);
    expect(await indexed('bulk')).toBe(0);
  }, 120_000);
});

describe('importing memories', () => {
  it('counts new keys as imported and existing keys as updated', async () => {
    expect(
      await importRows([
        { apiKeyId: 'life-imp-1', key: 'a', content: 'one' },
        { apiKeyId: 'life-imp-1', key: 'b', content: 'two' },
        { apiKeyId: 'life-imp-1', key: 'c', content: 'three' },
      ]),
    ).toEqual({ imported: 3, updated: 0, rejected: [] });
    expect(
      await importRows([
        { apiKeyId: 'life-imp-1', key: 'a', content: 'one, revised' },
        { apiKeyId: 'life-imp-1', key: 'c', content: 'three' },
        { apiKeyId: 'life-imp-1', key: 'd', content: 'four' },
      ]),
    ).toEqual({ imported: 1, updated: 2, rejected: [] });
    expect(await countOf('life-imp-1')).toBe(4);
    expect(byKey(await list({ apiKeyId: 'life-imp-1' }), 'a')!.content).toBe('one, revised');
  });

  it('counts a key repeated within one import once as imported, then as updated, and keeps the last', async () => {
    expect(
      await importRows([
        { apiKeyId: 'life-imp-2', key: 'k', content: 'first' },
        { apiKeyId: 'life-imp-2', key: 'k', content: 'second' },
      ]),
    ).toEqual({ imported: 1, updated: 1, rejected: [] });
    expect(byKey(await list({ apiKeyId: 'life-imp-2' }), 'k')!.content).toBe('second');
  });

  it('rejects bad rows with their position, key and reason, and still stores the good ones', async () => {
    const report = await importRows([
      { apiKeyId: 'life-imp-3', key: 'good-0', content: 'fine' },
      { apiKeyId: 'life-imp-3', key: 'empty', content: '' },
      { apiKeyId: 'life-imp-3', key: 'blank', content: ' \n\t ' },
      { apiKeyId: 'life-imp-3', key: 'k'.repeat(513), content: 'key too long' },
      { apiKeyId: 'life-imp-3', key: 'huge', content: 'x'.repeat(65_537) },
      { apiKeyId: 'life-imp-3', key: 'fat-metadata', content: 'ok', metadata: { blob: 'y'.repeat(17_000) } },
      { apiKeyId: 'life-imp-3', key: 'no-session', content: 'ok', sessionId: '  ' },
      { key: 'no-api-key', content: 'an admin must name the API key' },
      { apiKeyId: 'life-imp-3', key: 'good-8', content: 'also fine' },
    ]);
    expect(report.imported).toBe(2);
    expect(report.updated).toBe(0);
    expect(report.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const reason = (i: number) => report.rejected.find((r) => r.index === i)?.reason;
    expect(reason(1)).toBe('content must not be empty');
    expect(reason(2)).toBe('content must not be empty');
    expect(reason(3)).toContain('key is longer than 512 characters');
    expect(reason(4)).toContain('content is longer than 65536 characters');
    expect(reason(5)).toContain('metadata is larger than 16384 bytes');
    expect(reason(6)).toContain('sessionId must not be empty');
    expect(reason(7)).toContain('apiKeyId must not be empty');
    expect(report.rejected.find((r) => r.index === 1)?.key).toBe('empty');
    expect(keysOf(await list({ apiKeyId: 'life-imp-3' }))).toEqual(['good-0', 'good-8']);
  });

  it('says how many rows one call takes, and refuses a call of one more', async () => {
    const { importRowLimit } = await app.ok(MemoryLifecycleImportRowLimitDocument);
    const rows = Array.from({ length: importRowLimit + 1 }, (_, i) => ({ apiKeyId: 'life-imp-limit', key: `k${i}`, content: 'row' }));
    const res = await app.gql(IMPORT_MEMORIES, { memories: rows });
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: `import at most ${importRowLimit} rows per call; split the file`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(await countOf('life-imp-limit')).toBe(0);
  });

  it('lets a token bound to one API key import only into that key', async () => {
    const token = await app.mintToken({ apiKeyId: 'life-imp-4' });
    const report = await importRows(
      [
        { key: 'implicit', content: 'goes to the token key' },
        { apiKeyId: 'life-imp-4', key: 'explicit', content: 'names the token key' },
        { apiKeyId: 'life-imp-4-other', key: 'foreign', content: 'names another key' },
      ],
      token,
    );
    expect(report.imported).toBe(2);
    expect(report.rejected).toEqual([{ index: 2, key: 'foreign', reason: expect.stringContaining('may not write') }]);
    expect(keysOf(await list({ apiKeyId: 'life-imp-4' }))).toEqual(['explicit', 'implicit']);
    expect(await countOf('life-imp-4-other')).toBe(0);
  });

  it('keeps the creation date of imported memories', async () => {
    const createdAt = new Date(Date.now() - 3 * DAY).toISOString();
    await importRows([{ apiKeyId: 'life-imp-5', key: 'k', content: 'restored', createdAt }]);
    expect(byKey(await list({ apiKeyId: 'life-imp-5' }), 'k')).toMatchObject({ createdAt, updatedAt: createdAt });
  });

  it('restores an export into an emptied key as it was', async () => {
    await importRows([
      {
        apiKeyId: 'life-imp-6',
        sessionId: 's',
        type: 'PROCEDURAL',
        key: 'deploy',
        content: 'make release',
        metadata: { source: 'chat' },
        createdAt: ago(2 * DAY),
      },
      { apiKeyId: 'life-imp-6', type: 'SEMANTIC', key: 'likes', content: 'likes jazz', expiresAt: fromNow(DAY) },
    ]);
    const exported = (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'life-imp-6' })).exportMemories;
    await clear({ apiKeyId: 'life-imp-6' });
    const pick = ({ apiKeyId, sessionId, type, key, content, metadata, createdAt, expiresAt }: Exported): MemoryInput => ({
      apiKeyId,
      sessionId,
      type,
      key,
      content,
      metadata,
      createdAt,
      expiresAt,
    });
    expect(await importRows(exported.map(pick))).toEqual({ imported: 2, updated: 0, rejected: [] });
    const restored = (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'life-imp-6' })).exportMemories;
    const byKeyOrder = (ms: Exported[]) => ms.map(pick).sort((a, b) => String(a.key).localeCompare(String(b.key)));
    expect(byKeyOrder(restored)).toEqual(byKeyOrder(exported));
  });
});
