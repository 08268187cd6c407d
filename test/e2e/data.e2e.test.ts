import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2eAuditLogDocument, E2eMemoryCountDocument, E2eRetentionStatsDocument } from '../generated/graphql.ts';
import { IMPORT_MEMORIES, type MemoryInput, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type E2E, horizontalOverflow, screenshot, startE2E, WIDTHS } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const DAY = 86_400_000;
const daysFromNow = (n: number) => new Date(Date.now() + n * DAY).toISOString();

async function importRows(rows: MemoryInput[]) {
  const { importMemories } = await e2e.gql(IMPORT_MEMORIES, { memories: rows });
  expect(importMemories.rejected).toEqual([]);
}

const countOf = async (apiKeyId: string) => (await e2e.gql(E2eMemoryCountDocument, { apiKeyId })).memories.totalCount;

async function openData(page: Page) {
  await page.goto(`${e2e.url}/admin/#/data`);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Data' }).waitFor();
}

/** A definition list as [term, description] pairs. */
const pairsOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']));

describe('the Data tab', () => {
  it('asks for a key before it asks for a confirmation', async () => {
    const { page } = e2e;
    await openData(page);
    await page.getByRole('button', { name: 'Forget this key…' }).click();
    const field = page.getByRole('form', { name: 'Forget an API key' }).getByLabel('API key');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const problem = await field.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${problem}"]`).textContent()).toBe('Choose the API key to forget.');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('shows retention, what it hides and when the purge deletes the first of it, as the server counts them', async () => {
    const { page } = e2e;
    await e2e.gql(UPDATE_SETTINGS, { input: { retentionEnabled: true, retentionDays: 30, purgeGraceDays: 7 } });
    await importRows([
      { apiKeyId: 'acme-old', key: 'old', content: 'Used Sublime Text back then', createdAt: daysFromNow(-32) },
      { apiKeyId: 'acme-old', key: 'gone', content: 'On call this week', expiresAt: daysFromNow(-1) },
      { apiKeyId: 'acme-old', key: 'fresh', content: 'Prefers dark mode' },
    ]);
    const { stats } = (await e2e.gql(E2eRetentionStatsDocument)).memories;
    expect(stats).toMatchObject({ hiddenByRetention: 1, hiddenByExpiry: 1 });
    await openData(page);
    const status = Object.fromEntries(await pairsOf(page, '.purge-status'));
    const when = await page.evaluate(
      (iso) =>
        new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(
          new Date(iso),
        ),
      stats.nextPurgeAt!,
    );
    expect(status.Retention).toBe('On: a memory last written more than 30 days ago is no longer retrieved.');
    expect(status['Purge grace']).toMatch(/^7 days: /);
    expect(status['Hidden now']).toBe(
      '1 out of retention and 1 expired: kept, but never retrieved; 1 memory is retrieved as usual. Show them in Memories',
    );
    expect(status['Next purge']).toBe(`The first of them is deleted from ${when}.`);
    expect(status['Last purge']).toBe('No purge has deleted anything yet, as far as the audit log goes back. ');

    await page.getByRole('link', { name: 'Show them in Memories' }).click();
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
    expect(await page.getByLabel('Show expired and archived').isChecked()).toBe(true);
    await page.getByRole('table', { name: 'Memories' }).getByRole('row').filter({ hasText: 'Used Sublime Text back then' }).waitFor();
  });

  it('forgets an API key only once its name is typed exactly, and shows every count the server removed', async () => {
    const { page } = e2e;
    await importRows([
      { apiKeyId: 'acme-forget', key: 'home', content: 'Lives in Ghent' },
      { apiKeyId: 'acme-forget', key: 'pet', content: 'Has a tabby cat' },
      { apiKeyId: 'acme-forget', key: 'editor', content: 'Uses Helix' },
      { apiKeyId: 'acme-keep', key: 'home', content: 'Lives in Leuven' },
    ]);
    await openData(page);
    await page.getByRole('form', { name: 'Forget an API key' }).getByLabel('API key').fill('acme-forget');
    await page.getByText('3 memories stored under acme-forget.').waitFor();
    await page.getByRole('button', { name: 'Forget this key…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Forget API key acme-forget?' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Forget this key' });
    const typed = dialog.getByLabel('Type the API key to confirm');
    expect(await confirm.isDisabled()).toBe(true);
    for (const almost of ['acme-forge', 'Acme-forget', 'acme-forget ']) {
      await typed.fill(almost);
      expect(await confirm.isDisabled(), `enabled by "${almost}"`).toBe(true);
    }
    expect(await countOf('acme-forget')).toBe(3);
    await typed.fill('acme-forget');
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });

    const report = page.getByRole('region', { name: 'Forgot acme-forget: what was removed' });
    await report.waitFor();
    // The focus moves on to what happened.
    expect(await report.evaluate((el) => el === document.activeElement)).toBe(true);
    const pairs = Object.fromEntries(await pairsOf(page, '.forget-report dl'));
    const entry = (await e2e.gql(E2eAuditLogDocument, { action: 'API_KEY_FORGET' })).auditLog.items[0]!;
    expect(entry.apiKeyId).toMatch(/^forgotten:[0-9a-f-]{36}$/);
    expect(pairs).toEqual({
      Memories: '3',
      Summaries: '0',
      'Archived originals': '0',
      'Keyword entries': String(entry.target?.keywordEntries),
      Vectors: '0',
      'Qdrant removals queued': '0',
      'Retrievals in its statistics': '0',
      'Tombstones of deleted memories': '0',
      'In the audit log now': `${entry.apiKeyId} (its entries)`,
      'Write-ahead log': 'emptied at once',
    });
    expect(entry.target?.keywordEntries).toBeGreaterThan(0);
    expect(await countOf('acme-forget')).toBe(0);
    expect(await countOf('acme-keep')).toBe(1);
    // The purge card counts again without the key (acme-old's fresh memory and acme-keep's remain).
    await expect
      .poll(async () => Object.fromEntries(await pairsOf(page, '.purge-status'))['Hidden now'])
      .toContain('2 memories are retrieved as usual.');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'data', { fullPage: true });
  });
});

describe('the export card', () => {
  const card = (page: Page) => page.getByRole('region', { name: 'Export a bundle' });

  /** Exports from the card and returns the file the browser saved, with the result line the card showed. */
  async function exportFromCard(page: Page, apiKeyId: string, button: string) {
    await card(page).getByLabel('API key').fill(apiKeyId);
    const [download] = await Promise.all([page.waitForEvent('download'), card(page).getByRole('button', { name: button }).click()]);
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const result = card(page).locator('.export-result');
    await result.waitFor();
    return { fileName: download.suggestedFilename(), lines, bytes: Buffer.byteLength(text), result: await result.textContent() };
  }

  it("downloads one key's bundle and says what the file holds, from its own header", async () => {
    const { page } = e2e;
    await importRows([
      { apiKeyId: 'acme-export', key: 'home', content: 'Lives in Namur' },
      { apiKeyId: 'acme-export', key: 'pet', content: 'Has a greyhound' },
    ]);
    await openData(page);
    const { fileName, lines, bytes, result } = await exportFromCard(page, 'acme-export', 'Export this key');
    const [header, ...rest] = lines;
    expect(header).toMatchObject({ format: 'mnemo-export', apiKeyId: 'acme-export', counts: { memories: 2, versions: 0, tombstones: 0 } });
    expect(rest.map((l) => l.content).sort()).toEqual(['Has a greyhound', 'Lives in Namur']);
    expect(fileName).toMatch(/^mnemo-export-key-\d{4}-\d\d-\d\d\.jsonl$/);
    expect(result).toBe(
      `Exported 2 memories (0 earlier versions) and 0 tombstones of acme-export to ${fileName} (${bytes} bytes, sha256 ${header.checksum.slice(0, 12)}…).`,
    );
    const audit = (await e2e.gql(E2eAuditLogDocument, { action: 'MEMORIES_EXPORT' })).auditLog.items[0]!;
    expect(audit).toMatchObject({ apiKeyId: 'acme-export', target: { memories: 2 } });
  });

  for (const width of WIDTHS) {
    it(`exports everything at ${width} px, the card fitting the screen`, async () => {
      const { page } = e2e;
      await page.setViewportSize({ width, height: 900 });
      try {
        await openData(page);
        expect(await card(page).getByRole('button', { name: 'Export everything' }).isVisible()).toBe(true);
        const { lines, result } = await exportFromCard(page, '', 'Export everything');
        const memories = await e2e.gql(E2eMemoryCountDocument, { apiKeyId: null });
        expect(lines[0]).toMatchObject({ apiKeyId: null, counts: { memories: memories.memories.totalCount } });
        expect(result).toMatch(/^Exported \d+ memories \(\d+ earlier versions?\) and \d+ tombstones? of every key to mnemo-export-all-/);
        const { overflow, culprits } = await horizontalOverflow(page);
        expect(overflow, `the Data tab at ${width} px scrolls sideways: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
        await card(page).scrollIntoViewIfNeeded();
        if (width !== 768) await screenshot(page, width === 1280 ? 'data-export' : 'data-export-390');
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    });
  }
});
