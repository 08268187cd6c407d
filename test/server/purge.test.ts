import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../server/cli.ts';
import { PurgeRunner } from '../../server/jobs/purge.ts';
import { createLogger } from '../../server/logger.ts';
import { purgeMemories } from '../../server/memory/purge.service.ts';
import {
  PurgeRetentionSettingsDocument as RETENTION_SETTINGS,
  PurgeStatsDocument as STATS,
  PurgeWithArchivedDocument as WITH_ARCHIVED,
} from '../generated/graphql.ts';
import { indexedMatches } from '../helpers/keywordIndex.ts';
import {
  CREATE_MEMORY,
  GET_MEMORY,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  type MemoryInput,
  type MemorySettingsInput,
  SUMMARIZE,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreArgs, testStoreKind } from '../helpers/testStore.ts';

// Expired and out-of-retention memories are deleted by the purge once purgeGraceDays have passed, not only hidden.
// Each test uses its own API key; the settings are the defaults (retention 30 days, grace 7) unless a test says so.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const key = () => `purge-${randomUUID().slice(0, 8)}`;
const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const importRows = (memories: MemoryInput[]) => app.ok(IMPORT_MEMORIES, { memories }).then((d) => d.importMemories);
const listed = async (apiKeyId: string) =>
  (await app.ok(LIST_MEMORIES, { apiKeyId, includeExpired: true, limit: 500 })).memories.items.map((m) => m.key).sort();
const settings = (input: MemorySettingsInput) => app.ok(UPDATE_SETTINGS, { input });
const rowsOf = async (apiKeyId: string) =>
  (
    await app.database.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('api_key_id', '=', apiKeyId)
      .executeTakeFirstOrThrow()
  ).n;
const indexed = (word: string) => indexedMatches(app.database, word);
/** Rows of one key last written 90 days ago: out of the default retention window and its grace days. */
const oldRows = (apiKeyId: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ apiKeyId, key: `m${i}`, content: `Old fact ${i}`, createdAt: ago(90) }));
const stats = (apiKeyId: string, includeExpired = false) => app.ok(STATS, { apiKeyId, includeExpired }).then((d) => d.memories.stats);

describe('the purge', () => {
  it('deletes memories that expired more than purgeGraceDays ago, and keeps those still within the grace days', async () => {
    const k = key();
    const gone = await create({ apiKeyId: k, key: 'gone', content: 'Coupon zebrafoxtrot expired long ago', expiresAt: ago(10) });
    await create({ apiKeyId: k, key: 'grace', content: 'Coupon expired three days ago', expiresAt: ago(3) });
    await create({ apiKeyId: k, key: 'live', content: 'Coupon valid' });

    await app.services.purge.pass();

    expect(await listed(k)).toEqual(['grace', 'live']);
    expect((await app.ok(GET_MEMORY, { id: gone.id })).memory).toBeNull();
    expect(await indexed('zebrafoxtrot')).toBe(0);
  });

  it('deletes memories last written before the retention window more than purgeGraceDays ago', async () => {
    const k = key();
    await importRows([
      { apiKeyId: k, key: 'old', content: 'Worked at Initech', createdAt: ago(40) },
      { apiKeyId: k, key: 'grace', content: 'Worked at Globex', createdAt: ago(33) },
      { apiKeyId: k, key: 'fresh', content: 'Works at Acme', createdAt: ago(2) },
    ]);
    await app.services.purge.pass();
    expect(await listed(k)).toEqual(['fresh', 'grace']);
  });

  it('with purgeGraceDays 0, deletes them as soon as they are hidden', async () => {
    const k = key();
    await create({ apiKeyId: k, key: 'gone', content: 'Expired a minute ago', expiresAt: new Date(Date.now() - 60_000).toISOString() });
    await settings({ purgeGraceDays: 0 });
    try {
      await app.services.purge.pass();
    } finally {
      await settings({ purgeGraceDays: 7 });
    }
    expect(await rowsOf(k)).toBe(0);
  });

  it('keeps everything, however old, while retention is off (expiry still applies)', async () => {
    const k = key();
    await importRows([
      { apiKeyId: k, key: 'ancient', content: 'Grew up in Lisbon', createdAt: ago(730) },
      { apiKeyId: k, key: 'expired', content: 'Parked on level 3', expiresAt: ago(30) },
    ]);
    await settings({ retentionEnabled: false });
    try {
      await app.services.purge.pass();
      expect(await listed(k)).toEqual(['ancient']);
    } finally {
      await settings({ retentionEnabled: true });
    }
  });

  it('rebuilds a summary without the purged original: its text leaves the summary too', async () => {
    const k = key();
    // Ten short facts: few enough tokens per line that a summary of them is smaller (fewer would be refused).
    await importRows([
      ...Array.from({ length: 10 }, (_, i) => ({ apiKeyId: k, key: `f${i}`, content: `Likes item ${i}`, createdAt: ago(20) })),
      { apiKeyId: k, key: 'b', content: 'Allergic to peanuts', createdAt: ago(20) },
    ]);
    const { summarize } = await app.ok(SUMMARIZE, { apiKeyId: k, olderThanDays: 10, dryRun: false });
    expect(summarize.summaries[0]!.content).toContain('peanuts');
    const archived = (await app.ok(WITH_ARCHIVED, { apiKeyId: k })).memories.items.find((m) => m.key === 'b')!;
    // An archived original whose expiry passed long ago: due for the purge.
    await app.ok(UPDATE_MEMORY, { id: archived.id, input: { expiresAt: ago(10) } });

    await app.services.purge.pass();

    const summary = (await app.ok(GET_MEMORY, { id: summarize.summaries[0]!.id })).memory;
    expect(summary?.content).not.toContain('peanuts');
    expect(summary?.content).toContain('Likes item 3');
  });

  it('deletes in batches and reports them; a second pass finds nothing', async () => {
    const own = await startTestApp();
    try {
      await own.ok(IMPORT_MEMORIES, { memories: oldRows(key(), 25) });
      expect(await purgeMemories(own.services, { batchSize: 10 })).toMatchObject({
        expired: 0,
        outOfRetention: 25,
        batches: 3,
        stopped: false,
        // PostgreSQL keeps the deleted rows in its write-ahead log until its segments are recycled (vacuum.postgres.ts).
        walEmptied: testStoreKind() === 'sqlite',
      });
      expect(await purgeMemories(own.services, { batchSize: 10 })).toMatchObject({ expired: 0, outOfRetention: 0, batches: 0 });
    } finally {
      await own.close();
    }
  });

  it('stops between two batches when asked, and the next pass goes on', async () => {
    const own = await startTestApp();
    try {
      await own.ok(IMPORT_MEMORIES, { memories: oldRows(key(), 30) });
      const abort = new AbortController();
      const stopped = await purgeMemories(own.services, { batchSize: 10, signal: abort.signal, onProgress: () => abort.abort() });
      expect(stopped).toMatchObject({ outOfRetention: 10, batches: 1, stopped: true });
      expect(await purgeMemories(own.services, { batchSize: 10 })).toMatchObject({ outOfRetention: 20, stopped: false });
    } finally {
      await own.close();
    }
  });

  it('runs once at start, without waiting for the first hour', async () => {
    const k = key();
    await create({ apiKeyId: k, key: 'gone', content: 'Expired long ago', expiresAt: ago(30) });
    const runner = new PurgeRunner({
      db: app.database.db,
      now: app.services.now,
      settings: app.services.settings,
      logger: createLogger('silent'),
      leases: app.services.leases,
    });
    runner.start();
    try {
      await vi.waitFor(async () => expect(await rowsOf(k)).toBe(0));
    } finally {
      await runner.stop();
    }
  });

  it('rejects purgeGraceDays outside 0 to 365 with BAD_USER_INPUT and keeps the setting', async () => {
    for (const purgeGraceDays of [-1, 366]) {
      const error = onlyError(await app.gql(UPDATE_SETTINGS, { input: { purgeGraceDays } }));
      expect(error).toMatchObject({ message: 'purgeGraceDays must be between 0 and 365', extensions: { code: 'BAD_USER_INPUT' } });
    }
    expect((await app.ok(RETENTION_SETTINGS)).memorySettings).toEqual({
      purgeGraceDays: 7,
      retentionEnabled: true,
      retentionDays: 30,
    });
  });
});

describe('memory stats', () => {
  it('count the memories of the filter hidden by expiry and by retention, whether or not includeExpired lists them', async () => {
    const k = key();
    await importRows([
      { apiKeyId: k, key: 'expired', content: 'Expired yesterday', expiresAt: ago(1) },
      { apiKeyId: k, key: 'old-1', content: 'Written 40 days ago', createdAt: ago(40) },
      { apiKeyId: k, key: 'old-2', content: 'Written 35 days ago', createdAt: ago(35) },
      { apiKeyId: k, key: 'live', content: 'Written today' },
    ]);
    expect(await stats(k)).toMatchObject({ totalEntries: 1, hiddenByExpiry: 1, hiddenByRetention: 2 });
    expect(await stats(k, true)).toMatchObject({ totalEntries: 4, hiddenByExpiry: 1, hiddenByRetention: 2 });
  });

  it('say when the purge deletes the first of them: grace days after it left the retention window', async () => {
    const k = key();
    const written = Date.now() - 31 * DAY;
    await importRows([{ apiKeyId: k, key: 'old', content: 'Written 31 days ago', createdAt: new Date(written).toISOString() }]);
    const { nextPurgeAt } = await stats(k);
    // No background purge runs in this process: the moment it becomes due (30 days of retention + 7 of grace).
    expect(new Date(nextPurgeAt!).getTime()).toBe(written + 37 * DAY);
  });

  it('say when the next scheduled pass deletes it, when the background purge runs', async () => {
    const k = key();
    const expired = Date.now() - 3 * DAY;
    await create({ apiKeyId: k, key: 'expired', content: 'Expired three days ago', expiresAt: new Date(expired).toISOString() });
    const runner = app.services.purge;
    runner.start();
    try {
      const at = new Date((await stats(k)).nextPurgeAt!).getTime();
      // Due four days from now (7 days of grace); the hourly pass that starts within the hour after that.
      expect(at).toBeGreaterThanOrEqual(expired + 7 * DAY);
      expect(at).toBeLessThan(expired + 7 * DAY + 3_600_000);
    } finally {
      await runner.stop();
    }
  });

  it('report nothing hidden and no purge date for a key without hidden memories', async () => {
    const k = key();
    await create({ apiKeyId: k, key: 'live', content: 'Fresh' });
    expect(await stats(k)).toEqual({ totalEntries: 1, hiddenByExpiry: 0, hiddenByRetention: 0, nextPurgeAt: null });
  });
});

describe('mnemo purge', () => {
  it('deletes what is due with a progress line, and says what it did', async () => {
    const k = key();
    await importRows(oldRows(k, 3));
    const out = { stdout: '', stderr: '' };
    const code = await runCli(['purge', ...testStoreArgs(app.dir)], {
      env: { HOME: app.dir },
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      stopRequested: () => new Promise(() => {}),
    });
    expect(code).toBe(0);
    expect(out.stderr).toMatch(/^purge \d+\/\d+ \(100\.0%\) +\d+\/s$/m);
    const afterErase =
      testStoreKind() === 'postgres' ? '; PostgreSQL keeps the deleted rows in its write-ahead log until it recycles its segments' : '';
    expect(out.stdout).toMatch(
      new RegExp(
        `^purged \\d+ memories from \\S+ \\(\\d+ expired, \\d+ out of retention\\) in \\d+ batches, the longest \\d+ ms${afterErase}\n$`,
      ),
    );
    expect(await rowsOf(k)).toBe(0);
  });
});
