import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RetentionImportDocument as IMPORT,
  RetentionDefaultsDocument as RETENTION_DEFAULTS,
  RetentionWindowDocument as RETENTION_WINDOW,
} from '../generated/graphql.ts';
import { GET_SETTINGS, LIST_MEMORIES, type MemoryInput, RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

// Imports that retention will hide say so, and retention can be turned off (keep forever). Default settings
// (retention 30 days, grace 7) unless a test says otherwise.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const key = () => `ret-${randomUUID().slice(0, 8)}`;
const importRows = (memories: MemoryInput[], dryRun?: boolean) => app.ok(IMPORT, { memories, dryRun }).then((d) => d.importMemories);
const listed = async (apiKeyId: string) =>
  (await app.ok(LIST_MEMORIES, { apiKeyId, limit: 500 })).memories.items.map((m) => [m.key, m.status]);
const retrieved = async (apiKeyId: string, query: string) =>
  (await app.ok(RETRIEVE, { input: { apiKeyId, query, strategy: 'EXACT' } })).retrieve.items.map((i) => i.memory.key);
const withRetentionOff = async (run: () => Promise<void>) => {
  await app.ok(UPDATE_SETTINGS, { input: { retentionEnabled: false } });
  try {
    await run();
  } finally {
    await app.ok(UPDATE_SETTINGS, { input: { retentionEnabled: true } });
  }
};

describe('an import of memories older than the retention window', () => {
  it('says how many rows are stored outside the window, and when the purge deletes the first of them', async () => {
    const k = key();
    const older = Date.now() - 900 * DAY;
    const report = await importRows([
      { apiKeyId: k, key: 'old', content: 'Lived in Oslo', createdAt: ago(730) },
      { apiKeyId: k, key: 'older', content: 'Lived in Bergen', createdAt: new Date(older).toISOString() },
      { apiKeyId: k, key: 'recent', content: 'Lives in Trondheim', createdAt: ago(3) },
    ]);
    expect(report).toMatchObject({ dryRun: false, imported: 3, updated: 0, outsideRetention: 2, expired: 0 });
    // 30 days of retention and 7 of grace after the older one was written (no background purge runs in this test).
    expect(new Date(report.nextPurgeAt!).getTime()).toBe(older + 37 * DAY);
  });

  it('counts rows stored with an expiry already past', async () => {
    const k = key();
    const report = await importRows([{ apiKeyId: k, key: 'coupon', content: 'Coupon code SPRING', expiresAt: ago(1) }]);
    expect(report).toMatchObject({ imported: 1, outsideRetention: 0, expired: 1 });
  });

  it('counts nothing and names no purge for rows inside the window', async () => {
    const report = await importRows([{ apiKeyId: key(), key: 'k', content: 'Fresh fact', createdAt: ago(29) }]);
    expect(report).toMatchObject({ imported: 1, outsideRetention: 0, expired: 0, nextPurgeAt: null });
  });

  it('in a dry run, reports exactly what the import would do and stores nothing', async () => {
    const k = key();
    await importRows([{ apiKeyId: k, key: 'kept', content: 'Already here' }]);
    const rows = [
      { apiKeyId: k, key: 'kept', content: 'Already here, restated', createdAt: ago(400) },
      { apiKeyId: k, key: 'new', content: 'Brand new', createdAt: ago(400) },
      { apiKeyId: k, key: '', content: 'bad row' },
    ];
    const dry = await importRows(rows, true);
    expect(dry).toMatchObject({ dryRun: true, imported: 1, updated: 1, rejected: [{ index: 2 }], outsideRetention: 2 });
    expect(await listed(k)).toEqual([['kept', 'ACTIVE']]);
    expect({ ...(await importRows(rows)), dryRun: true }).toEqual(dry);
  });
});

describe('retention turned off', () => {
  it('keeps every memory, however old: listed as ACTIVE and retrieved', async () => {
    const k = key();
    await importRows([{ apiKeyId: k, key: 'childhood', content: 'Grew up near the harbour', createdAt: ago(3650) }]);
    expect(await listed(k)).toEqual([]);
    await withRetentionOff(async () => {
      expect(await listed(k)).toEqual([['childhood', 'ACTIVE']]);
      expect(await retrieved(k, 'harbour')).toEqual(['childhood']);
    });
  });

  it('makes an import of old rows report none outside retention', async () => {
    await withRetentionOff(async () => {
      const report = await importRows([{ apiKeyId: key(), key: 'k', content: 'Ancient', createdAt: ago(3650) }]);
      expect(report).toMatchObject({ imported: 1, outsideRetention: 0, nextPurgeAt: null });
    });
  });

  it('is a setting of its own: retentionDays is kept for when it is turned back on, and null leaves it as it is', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { retentionDays: 90, retentionEnabled: false } });
    try {
      await app.ok(UPDATE_SETTINGS, { input: { retentionEnabled: null, retentionDays: null } });
      expect((await app.ok(RETENTION_WINDOW)).memorySettings).toEqual({
        retentionDays: 90,
        retentionEnabled: false,
      });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { retentionDays: 30, retentionEnabled: true } });
    }
  });

  it('is on by default: 30 days, as before', async () => {
    const own = await startTestApp();
    try {
      const s = (await own.ok(RETENTION_DEFAULTS)).memorySettings;
      expect(s).toEqual({ retentionDays: 30, retentionEnabled: true, purgeGraceDays: 7 });
      expect((await own.ok(GET_SETTINGS)).memorySettings.retentionDays).toBe(30);
    } finally {
      await own.close();
    }
  });
});
