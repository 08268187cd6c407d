import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryListApiKeysDocument as API_KEYS,
  MemoryListHiddenByRetentionDocument as HIDDEN,
  type ListMemoriesQueryVariables,
  MemoryListExportDocument,
  type MemoryListExportQueryVariables,
  MemoryListSearchWordsDocument,
  MemoryListStatsDocument,
  type MemoryListStatsQueryVariables,
} from '../generated/graphql.ts';
import {
  CLEAR_MEMORIES,
  CREATE_MEMORY,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  MEMORY_STATS,
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

const MINUTE = 60_000;
const minutesAgo = (n: number) => new Date(Date.now() - n * MINUTE).toISOString();

const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const importRows = (memories: MemoryInput[]) => app.ok(IMPORT_MEMORIES, { memories }).then((d) => d.importMemories);
const list = (vars: ListMemoriesQueryVariables) => app.ok(LIST_MEMORIES, vars).then((d) => d.memories);
const keysOf = (page: { items: { key: string }[] }) => page.items.map((m) => m.key);
const search = (apiKeyId: string, text: string) => list({ apiKeyId, search: text, limit: 500 }).then(keysOf);

const stats = (vars: MemoryListStatsQueryVariables) => app.ok(MemoryListStatsDocument, vars).then((d) => d.memories.stats);
const exportKeys = (vars: MemoryListExportQueryVariables) =>
  app.ok(MemoryListExportDocument, vars).then((d) => d.exportMemories.map((m) => m.key));

describe('paging through memories', () => {
  const key = 'list-page';
  beforeAll(async () => {
    // 25 memories, one minute apart: k00 is the oldest, k24 the newest.
    await importRows(
      Array.from({ length: 25 }, (_, i) => ({
        apiKeyId: key,
        key: `k${String(i).padStart(2, '0')}`,
        content: `fact ${i}`,
        createdAt: minutesAgo(100 - i),
      })),
    );
  });

  it('returns pages of the requested size with totalCount and hasMore', async () => {
    const first = await list({ apiKeyId: key, limit: 10, offset: 0 });
    expect(first).toMatchObject({ totalCount: 25, limit: 10, offset: 0, hasMore: true });
    expect(first.items).toHaveLength(10);
    const second = await list({ apiKeyId: key, limit: 10, offset: 10 });
    expect(second).toMatchObject({ totalCount: 25, offset: 10, hasMore: true });
    const last = await list({ apiKeyId: key, limit: 10, offset: 20 });
    expect(last).toMatchObject({ totalCount: 25, offset: 20, hasMore: false });
    expect(last.items).toHaveLength(5);
  });

  it('covers every memory exactly once across the pages', async () => {
    const pages = await Promise.all([0, 10, 20].map((offset) => list({ apiKeyId: key, limit: 10, offset })));
    const keys = pages.flatMap(keysOf);
    expect(keys).toHaveLength(25);
    expect(new Set(keys).size).toBe(25);
  });

  it('lists the 20 newest first when no page is given', async () => {
    const page = await list({ apiKeyId: key });
    expect(page).toMatchObject({ limit: 20, offset: 0, hasMore: true });
    expect(keysOf(page).slice(0, 3)).toEqual(['k24', 'k23', 'k22']);
  });

  it('returns an empty page, not an error, for an offset past the end', async () => {
    const page = await list({ apiKeyId: key, limit: 10, offset: 100 });
    expect(page).toMatchObject({ items: [], totalCount: 25, hasMore: false });
  });

  it('pages through memories created at the same instant without skipping or repeating any', async () => {
    const at = minutesAgo(5);
    await importRows(
      Array.from({ length: 30 }, (_, i) => ({ apiKeyId: 'list-ties', key: `t${i}`, content: `same time ${i}`, createdAt: at })),
    );
    const keys: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) keys.push(...keysOf(await list({ apiKeyId: 'list-ties', limit: 7, offset })));
    expect(keys).toHaveLength(30);
    expect(new Set(keys).size).toBe(30);
  });
});

describe('filtering memories', () => {
  beforeAll(async () => {
    await importRows([
      { apiKeyId: 'list-f1', sessionId: 'morning', type: 'FACTUAL', key: 'a', content: 'Coffee without sugar', createdAt: minutesAgo(50) },
      {
        apiKeyId: 'list-f1',
        sessionId: 'morning',
        type: 'EPISODIC',
        key: 'b',
        content: 'Asked about the weather',
        createdAt: minutesAgo(40),
      },
      {
        apiKeyId: 'list-f1',
        sessionId: 'evening',
        type: 'PROCEDURAL',
        key: 'c',
        content: 'Run tests before pushing',
        createdAt: minutesAgo(30),
      },
      { apiKeyId: 'list-f1', type: 'FACTUAL', key: 'd', content: 'Works from Berlin', createdAt: minutesAgo(20) },
      { apiKeyId: 'list-f2', sessionId: 'morning', type: 'FACTUAL', key: 'a', content: 'Tea with milk', createdAt: minutesAgo(10) },
    ]);
  });

  it('lists only the memories of the given API key', async () => {
    expect((await list({ apiKeyId: 'list-f1' })).totalCount).toBe(4);
    expect(keysOf(await list({ apiKeyId: 'list-f2' }))).toEqual(['a']);
  });

  it('lets an admin omit apiKeyId to list every key', async () => {
    const page = await list({ limit: 500 });
    const owners = new Set(page.items.map((m) => m.apiKeyId));
    expect(owners).toContain('list-f1');
    expect(owners).toContain('list-f2');
  });

  it('lists only the memories of the given session', async () => {
    expect(keysOf(await list({ apiKeyId: 'list-f1', sessionId: 'morning' }))).toEqual(['b', 'a']);
  });

  it('lists only the memories of the given type', async () => {
    expect(keysOf(await list({ apiKeyId: 'list-f1', type: 'FACTUAL' }))).toEqual(['d', 'a']);
    expect(keysOf(await list({ apiKeyId: 'list-f1', type: 'ENFORCED' }))).toEqual([]);
  });

  it('lists memories created strictly after createdAfter and strictly before createdBefore', async () => {
    const all = (await list({ apiKeyId: 'list-f1', orderBy: 'CREATED_AT', direction: 'ASC' })).items;
    const [a, b, c, d] = all;
    expect(keysOf(await list({ apiKeyId: 'list-f1', createdAfter: b!.createdAt }))).toEqual(['d', 'c']);
    expect(keysOf(await list({ apiKeyId: 'list-f1', createdBefore: c!.createdAt }))).toEqual(['b', 'a']);
    expect(keysOf(await list({ apiKeyId: 'list-f1', createdAfter: a!.createdAt, createdBefore: d!.createdAt }))).toEqual(['c', 'b']);
  });

  it('combines filters: every one must hold', async () => {
    const page = await list({ apiKeyId: 'list-f1', sessionId: 'morning', type: 'FACTUAL', search: 'coffee' });
    expect(keysOf(page)).toEqual(['a']);
    expect(keysOf(await list({ apiKeyId: 'list-f1', sessionId: 'evening', type: 'FACTUAL' }))).toEqual([]);
  });
});

describe('searching memories by keyword', () => {
  const key = 'list-search';
  beforeAll(async () => {
    await importRows([
      { apiKeyId: key, key: 'server', content: 'Deploy the API server with make release' },
      { apiKeyId: key, key: 'client', content: 'Deploying the web client happens on Fridays' },
      { apiKeyId: key, key: 'favourite-editor', content: 'helix' },
      { apiKeyId: key, key: 'symbols', content: `Writes C++ and it's fine; the AND gate is NEAR the "unbalanced" rack a:b` },
      { apiKeyId: 'list-search-other', key: 'server', content: 'Deploy the API server from another tenant' },
    ]);
  });

  it('finds memories that contain every word, in any order and any case', async () => {
    expect(await search(key, 'server DEPLOY')).toEqual(['server']);
    expect((await search(key, 'deploy')).sort()).toEqual(['client', 'server']);
  });

  it('treats the last word as a prefix, for search as you type', async () => {
    expect(await search(key, 'api serv')).toEqual(['server']);
    expect(await search(key, 'fri')).toEqual(['client']);
  });

  it('does not treat earlier words as prefixes', async () => {
    expect(await search(key, 'serv api')).toEqual([]);
  });

  it('matches other forms of a word (deploying finds deploy)', async () => {
    expect((await search(key, 'deploying')).sort()).toEqual(['client', 'server']);
    expect((await search(key, 'deployed')).sort()).toEqual(['client', 'server']);
    expect(await search(key, 'releases')).toEqual(['server']);
  });

  it('searches the key as well as the content', async () => {
    expect(await search(key, 'favourite')).toEqual(['favourite-editor']);
  });

  it('finds nothing of other API keys', async () => {
    const found = await list({ apiKeyId: key, search: 'tenant' });
    expect(found.totalCount).toBe(0);
  });

  it.each([
    ['c++', 'symbols'],
    ['"unbalanced', 'symbols'],
    ['AND', 'symbols'],
    ['NEAR(', 'symbols'],
    ['a:b', 'symbols'],
    ["it's", 'symbols'],
    ['OR deploy', null],
    ['NOT helix', null],
    ['-helix', 'favourite-editor'],
    ['helix*', 'favourite-editor'],
    ['content:helix', null],
    ['(helix', 'favourite-editor'],
    ['^helix', 'favourite-editor'],
    ['{key}: helix', null],
    ['helix"', 'favourite-editor'],
    ["'; drop table memories; --", null],
  ])('treats %j as plain words and never fails', async (text, expected) => {
    const res = await app.gql(LIST_MEMORIES, { apiKeyId: key, search: text, limit: 500 });
    expect(res.errors).toBeUndefined();
    if (expected) expect(keysOf(res.data.memories)).toContain(expected);
  });

  it.each(['😀', '***', '()', '"', '_', '—', '\u0301'])('matches nothing for %j, which holds no searchable word', async (text) => {
    const res = await app.gql(LIST_MEMORIES, { apiKeyId: key, search: text });
    expect(res.errors).toBeUndefined();
    expect(res.data.memories).toMatchObject({ items: [], totalCount: 0, hasMore: false });
  });

  it.each(['', '   '])('lists everything for the empty search %j', async (text) => {
    expect((await list({ apiKeyId: key, search: text })).totalCount).toBe(4);
  });

  it('accepts a very long search text', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
    const res = await app.gql(LIST_MEMORIES, { apiKeyId: key, search: text });
    expect(res.errors).toBeUndefined();
    expect(res.data.memories.totalCount).toBe(0);
  });
});

describe('ordering memories', () => {
  const key = 'list-order';
  beforeAll(async () => {
    await importRows([
      { apiKeyId: key, key: 'b', content: 'a somewhat longer memory with quite a few more words in it', createdAt: minutesAgo(30) },
      { apiKeyId: key, key: 'c', content: 'short', createdAt: minutesAgo(20) },
      { apiKeyId: key, key: 'a', content: 'medium length memory text', createdAt: minutesAgo(10) },
    ]);
  });

  it('orders by creation, newest first by default and oldest first with ASC', async () => {
    expect(keysOf(await list({ apiKeyId: key }))).toEqual(['a', 'c', 'b']);
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'CREATED_AT', direction: 'ASC' }))).toEqual(['b', 'c', 'a']);
  });

  it('orders by key', async () => {
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'KEY', direction: 'ASC' }))).toEqual(['a', 'b', 'c']);
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'KEY', direction: 'DESC' }))).toEqual(['c', 'b', 'a']);
  });

  it('orders by token count', async () => {
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'TOKENS', direction: 'DESC' }))).toEqual(['b', 'a', 'c']);
  });

  it('orders by last update', async () => {
    const page = await list({ apiKeyId: key });
    const c = page.items.find((m) => m.key === 'c');
    await app.ok(UPDATE_MEMORY, { id: c!.id, input: { metadata: { touched: true } } });
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'UPDATED_AT', direction: 'DESC' }))[0]).toBe('c');
  });

  it('orders by access count', async () => {
    const setCount = (count: number, memoryKey: string) =>
      app.database.db
        .updateTable('memories')
        .set({ access_count: count })
        .where('api_key_id', '=', key)
        .where('key', '=', memoryKey)
        .execute();
    await setCount(5, 'c');
    await setCount(9, 'b');
    await setCount(1, 'a');
    expect(keysOf(await list({ apiKeyId: key, orderBy: 'ACCESS_COUNT', direction: 'DESC' }))).toEqual(['b', 'c', 'a']);
  });
});

describe('memory statistics', () => {
  it('counts entries, tokens and types over every matching memory, not just the page', async () => {
    await importRows([
      ...Array.from({ length: 30 }, (_, i) => ({
        apiKeyId: 'list-stats',
        type: 'FACTUAL' as const,
        key: `f${i}`,
        content: `fact number ${i}`,
      })),
      ...Array.from({ length: 12 }, (_, i) => ({
        apiKeyId: 'list-stats',
        type: 'EPISODIC' as const,
        key: `e${i}`,
        content: `episode ${i} happened`,
      })),
    ]);
    const all = (await list({ apiKeyId: 'list-stats', limit: 500 })).items;
    const s = await stats({ apiKeyId: 'list-stats' });
    expect(s.totalEntries).toBe(42);
    expect(s.tokensUsed).toBe(all.reduce((n, m) => n + m.tokens, 0));
    expect(s.byType).toEqual(
      expect.arrayContaining([
        { type: 'FACTUAL', count: 30 },
        { type: 'EPISODIC', count: 12 },
      ]),
    );
    expect(s.byType).toHaveLength(2);
  });

  it('applies the same filters as the list', async () => {
    const s = await stats({ apiKeyId: 'list-stats', type: 'EPISODIC' });
    expect(s).toMatchObject({ totalEntries: 12, byType: [{ type: 'EPISODIC', count: 12 }] });
  });

  it('reports zero for an API key without memories', async () => {
    expect(await stats({ apiKeyId: 'list-stats-nobody' })).toEqual({
      totalEntries: 0,
      tokensUsed: 0,
      hitRate: null,
      retrievals: 0,
      byType: [],
    });
  });

  it('has no hit rate before the first retrieval', async () => {
    const s = await app.ok(MEMORY_STATS, { apiKeyId: 'list-stats' }).then((d) => d.memories.stats);
    expect(s).toMatchObject({ hitRate: null, retrievals: 0 });
  });

  it('reports the share of retrievals that found something', async () => {
    await create({ apiKeyId: 'list-stats-hits', content: 'something to find' });
    await app.database.db.insertInto('retrieval_stats').values({ api_key_id: 'list-stats-hits', retrievals: 4, hits: 3 }).execute();
    expect(await stats({ apiKeyId: 'list-stats-hits' })).toMatchObject({ retrievals: 4, hitRate: 0.75 });
  });

  it('leaves expired memories out unless asked for', async () => {
    await create({ apiKeyId: 'list-stats-exp', key: 'live', content: 'still valid' });
    await create({ apiKeyId: 'list-stats-exp', key: 'gone', content: 'no longer valid', expiresAt: minutesAgo(1) });
    expect((await stats({ apiKeyId: 'list-stats-exp' })).totalEntries).toBe(1);
    expect((await stats({ apiKeyId: 'list-stats-exp', includeExpired: true })).totalEntries).toBe(2);
  });
});

describe('exporting memories', () => {
  it('returns every matching memory, not a page', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => ({ apiKeyId: 'list-export', key: `x${i}`, content: `exported fact ${i}` }));
    expect(await importRows(rows)).toEqual({ imported: 1200, updated: 0, rejected: [] });
    const keys = await exportKeys({ apiKeyId: 'list-export' });
    expect(keys.length).toBe(1200);
    expect(new Set(keys).size).toBe(1200);
  });

  it('applies the filters of the list', async () => {
    await importRows([
      { apiKeyId: 'list-export-f', sessionId: 's1', type: 'PROCEDURAL', key: 'p', content: 'Restart nginx after config changes' },
      { apiKeyId: 'list-export-f', sessionId: 's2', type: 'FACTUAL', key: 'f', content: 'Runs nginx on port 8080' },
      { apiKeyId: 'list-export-f', type: 'FACTUAL', key: 'g', content: 'Has a cat', expiresAt: minutesAgo(1) },
    ]);
    expect(await exportKeys({ apiKeyId: 'list-export-f', type: 'PROCEDURAL' })).toEqual(['p']);
    expect(await exportKeys({ apiKeyId: 'list-export-f', sessionId: 's2' })).toEqual(['f']);
    expect((await exportKeys({ apiKeyId: 'list-export-f', search: 'nginx' })).sort()).toEqual(['f', 'p']);
    expect((await exportKeys({ apiKeyId: 'list-export-f' })).sort()).toEqual(['f', 'p']);
    expect((await exportKeys({ apiKeyId: 'list-export-f', includeExpired: true })).sort()).toEqual(['f', 'g', 'p']);
  });

  it('returns nothing for a search without searchable words', async () => {
    expect(await exportKeys({ apiKeyId: 'list-export-f', search: '🙂' })).toEqual([]);
  });
});

describe('how a search was read', () => {
  const words = (search: string) =>
    app.ok(MemoryListSearchWordsDocument, { apiKeyId: 'read-as', search }).then((d) => d.memories.searchWords);

  it('says that "c++" is read as the prefix "c", which is why it matches so much', async () => {
    expect(await words('c++')).toEqual(['c*']);
  });

  it('lists every word, the last one as a prefix, and nothing for a search without words', async () => {
    expect(await words('dark theme')).toEqual(['dark', 'theme*']);
    expect(await words('+-*')).toEqual([]);
  });
});

describe('memories hidden by retention', () => {
  const DAY = 86_400_000;
  const apiKeyId = 'retention-hint';
  beforeAll(async () => {
    await app.ok(UPDATE_SETTINGS, { input: { retentionDays: 30 } });
    const at = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    await importRows([
      { apiKeyId, key: 'fresh', content: 'Written yesterday', createdAt: at(1) },
      { apiKeyId, key: 'old-1', content: 'Written two months ago', createdAt: at(60) },
      { apiKeyId, key: 'old-2', content: 'Written a year ago', createdAt: at(365) },
      // Expired: hidden for that reason, not for retention.
      { apiKeyId, key: 'old-expired', content: 'Expired long ago', createdAt: at(90), expiresAt: at(80) },
    ]);
  });

  it('counts the memories of the filter that only retention hides, with the window', async () => {
    const { memories } = await app.ok(HIDDEN, { apiKeyId });
    expect(memories.totalCount).toBe(1);
    expect(memories.stats).toEqual({ totalEntries: 1, hiddenByRetention: 2, retentionDays: 30 });
  });

  it('still counts them when the list shows them: retrieval never returns them either way', async () => {
    const { memories } = await app.ok(HIDDEN, { apiKeyId, includeExpired: true });
    expect(memories.totalCount).toBe(4);
    expect(memories.stats.hiddenByRetention).toBe(2);
  });
});

describe('the API keys with memories', () => {
  beforeAll(async () => {
    await importRows([
      ...Array.from({ length: 3 }, (_, i) => ({ apiKeyId: 'keys-acme_eu', content: `acme eu ${i}` })),
      { apiKeyId: 'keys-acme-us', content: 'acme us' },
      { apiKeyId: 'keys-globex', content: 'globex' },
    ]);
  });

  it('lists them by name with how many memories each, paged', async () => {
    const first = (await app.ok(API_KEYS, { contains: 'keys-', limit: 2 })).apiKeys;
    expect(first).toEqual({
      totalCount: 3,
      limit: 2,
      offset: 0,
      items: [
        { apiKeyId: 'keys-acme-us', memories: 1 },
        { apiKeyId: 'keys-acme_eu', memories: 3 },
      ],
    });
    const second = (await app.ok(API_KEYS, { contains: 'keys-', limit: 2, offset: 2 })).apiKeys;
    expect(second.items).toEqual([{ apiKeyId: 'keys-globex', memories: 1 }]);
  });

  it('narrows by a part of the name, taking "_" and "%" literally', async () => {
    expect((await app.ok(API_KEYS, { contains: 'ACME' })).apiKeys.items.map((k) => k.apiKeyId)).toEqual(['keys-acme-us', 'keys-acme_eu']);
    expect((await app.ok(API_KEYS, { contains: 'acme_' })).apiKeys.items).toEqual([{ apiKeyId: 'keys-acme_eu', memories: 3 }]);
    expect((await app.ok(API_KEYS, { contains: '%' })).apiKeys.totalCount).toBe(0);
  });

  it('leaves out keys whose memories were all deleted', async () => {
    await importRows([{ apiKeyId: 'keys-gone', content: 'soon gone' }]);
    await app.ok(CLEAR_MEMORIES, { apiKeyId: 'keys-gone' });
    expect((await app.ok(API_KEYS, { contains: 'keys-gone' })).apiKeys.totalCount).toBe(0);
  });

  it('is for admins only, and refuses a page size out of range', async () => {
    const gateway = await app.mintToken();
    expect((await app.gql(API_KEYS, {}, gateway)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const res = await app.gql(API_KEYS, { limit: 0 });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: 'limit must be between 1 and 500' });
  });
});
