import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgetApiKeyDocument as FORGET, ForgetTokensDocument as TOKENS } from '../generated/graphql.ts';
import { CREATE_TOKEN, IMPORT_MEMORIES, MEMORY_STATS, RETRIEVE, SUMMARIZE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

// forgetApiKey erases every trace of one API key and says what it removed. What must be gone from the bytes on disk
// is checked in erasure.test.ts; here: what it removes, what it leaves, and who may call it.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 365 } });
});
afterAll(() => app.close());

const DAY = 86_400_000;
const key = () => `forget-${randomUUID().slice(0, 8)}`;
const forget = (apiKeyId: string, token?: string) => app.gql(FORGET, { apiKeyId }, token);
/** Rows of `table` that name the key (only archived ones: memories archived by a summary). */
const rowsNaming = async (table: 'memories' | 'memory_counts' | 'retrieval_stats', apiKeyId: string, archived = false) => {
  let q = app.database.db.selectFrom(table).where('api_key_id', '=', apiKeyId);
  if (archived) q = q.where(sql<boolean>`archived_by is not null`);
  return (await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
};
/** Every row that names the key, in every table that holds one. */
const traces = async (apiKeyId: string) => ({
  memories: await rowsNaming('memories', apiKeyId),
  counts: await rowsNaming('memory_counts', apiKeyId),
  stats: await rowsNaming('retrieval_stats', apiKeyId),
});

/** A key with ten facts compacted into a summary (ten archived originals), two more memories and two retrievals. */
async function seedKey(apiKeyId: string) {
  const old = new Date(Date.now() - 60 * DAY).toISOString();
  const memories = [
    ...Array.from({ length: 10 }, (_, i) => ({ apiKeyId, key: `f${i}`, content: `Likes item ${i}`, createdAt: old })),
    { apiKeyId, key: 'city', content: 'Lives in Ghent' },
    { apiKeyId, key: 'pet', content: 'Has a tabby cat', expiresAt: new Date(Date.now() - DAY).toISOString() },
  ];
  await app.ok(IMPORT_MEMORIES, { memories });
  const s = await app.ok(SUMMARIZE, { apiKeyId, olderThanDays: 30, dryRun: false });
  expect(s.summarize.summaries).toHaveLength(1);
  for (const query of ['Ghent', 'cat']) await app.ok(RETRIEVE, { input: { apiKeyId, query } });
  // Retrievals are counted behind; written now, so the tables show them.
  await app.services.access.flush();
}

describe('forgetApiKey', () => {
  it('removes every memory, archived original and summary of the key, its counts and statistics, and says so', async () => {
    const k = key();
    await seedKey(k);
    const res = await forget(k);
    expect(res.errors).toBeUndefined();
    expect(res.data.forgetApiKey).toEqual({
      apiKeyId: k,
      memories: 2,
      archivedOriginals: 10,
      summaries: 1,
      keywordEntries: 13,
      vectors: 0,
      qdrantDeletesQueued: 0,
      retrievals: 2,
      // PostgreSQL keeps the deleted rows in its write-ahead log until its segments are recycled (vacuum.postgres.ts).
      walEmptied: testStoreKind() === 'sqlite',
    });
    expect(await traces(k)).toEqual({ memories: 0, counts: 0, stats: 0 });
    expect((await app.ok(MEMORY_STATS, { apiKeyId: k })).memories.stats).toMatchObject({ totalEntries: 0, retrievals: 0, hitRate: null });
  });

  it('forgets a key of more rows than one batch holds, counting each kind once', async () => {
    const k = key();
    const old = new Date(Date.now() - 60 * DAY).toISOString();
    const memories = Array.from({ length: 240 }, (_, i) => ({ apiKeyId: k, key: `m${i}`, content: `Likes item ${i}`, createdAt: old }));
    await app.ok(IMPORT_MEMORIES, { memories: [...memories, { apiKeyId: k, key: 'new', content: 'Fresh fact' }] });
    await app.ok(SUMMARIZE, { apiKeyId: k, olderThanDays: 30, dryRun: false });
    const archived = await rowsNaming('memories', k, true);
    expect(archived).toBeGreaterThan(0);

    const report = (await forget(k)).data.forgetApiKey;
    expect(report).toMatchObject({ archivedOriginals: archived, summaries: 1, memories: 241 - archived, keywordEntries: 242 });
    expect(await traces(k)).toEqual({ memories: 0, counts: 0, stats: 0 });
  });

  it('leaves every other key as it was', async () => {
    const [gone, kept] = [key(), key()];
    await seedKey(gone);
    await seedKey(kept);
    const before = await traces(kept);
    await forget(gone);
    expect(await traces(kept)).toEqual(before);
  });

  it('does not bring back retrieval statistics that were counted but not yet written', async () => {
    const k = key();
    await seedKey(k);
    app.services.access.record(k, [], Date.now());
    await forget(k);
    await app.services.access.flush();
    expect((await traces(k)).stats).toBe(0);
  });

  it('answers with zeros for a key that holds nothing', async () => {
    const res = await forget(key());
    expect(res.data.forgetApiKey).toMatchObject({ memories: 0, summaries: 0, archivedOriginals: 0, keywordEntries: 0, retrievals: 0 });
  });

  it('rejects a blank key with BAD_USER_INPUT', async () => {
    expect(onlyError(await forget('  ')).extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('who may forget a key', () => {
  const mint = (input: Record<string, unknown>) => app.gql(CREATE_TOKEN, { input: { name: 'forget test', ...input } });

  it('refuses a gateway token bound to the key, unless the admin allowed it when minting (FORBIDDEN, nothing removed)', async () => {
    const k = key();
    await seedKey(k);
    const token = (await mint({ apiKeyId: k })).data.createAccessToken.token;
    const error = onlyError(await forget(k, token));
    expect(error.extensions?.code).toBe('FORBIDDEN');
    expect((await traces(k)).memories).toBe(13);
  });

  it('lets a bound token minted with mayForgetKey forget its own key, and no other', async () => {
    const [own, other] = [key(), key()];
    await seedKey(own);
    await seedKey(other);
    const minted = (await mint({ apiKeyId: own, mayForgetKey: true })).data.createAccessToken;
    expect(minted.accessToken).toMatchObject({ apiKeyId: own });
    expect(onlyError(await forget(other, minted.token)).extensions?.code).toBe('FORBIDDEN');
    expect((await traces(other)).memories).toBe(13);
    expect((await forget(own, minted.token)).data.forgetApiKey.memories).toBe(2);
    expect((await traces(own)).memories).toBe(0);
  });

  it('refuses an unbound gateway token (FORBIDDEN)', async () => {
    const k = key();
    await seedKey(k);
    const token = (await mint({})).data.createAccessToken.token;
    expect(onlyError(await forget(k, token)).extensions?.code).toBe('FORBIDDEN');
    expect((await traces(k)).memories).toBe(13);
  });

  it('lists which tokens may forget their key', async () => {
    const k = key();
    await mint({ apiKeyId: k, mayForgetKey: true });
    const tokens = (await app.ok(TOKENS)).accessTokens;
    expect(tokens).toContainEqual({ apiKeyId: k, mayForgetKey: true });
  });

  it.each([
    ['an admin token', { role: 'ADMIN', mayForgetKey: true }],
    ['an unbound gateway token', { mayForgetKey: true }],
  ])('refuses mayForgetKey for %s when minting (BAD_USER_INPUT)', async (_name, input) => {
    const error = onlyError(await mint(input));
    expect(error).toMatchObject({
      message: 'mayForgetKey needs a gateway token bound to one API key (apiKeyId)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});
