import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAR_MEMORIES, CREATE_TOKEN, GET_SETTINGS, IMPORT_MEMORIES, UPDATE_SETTINGS, UPSERT_PROVIDER } from '../helpers/operations.ts';
import { type E2E, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
/** maxTokens before the settings change this file makes. */
let maxTokensBefore: number;

beforeAll(async () => {
  e2e = await startE2E();
  // The actions the log must show, oldest first: two imports, 25 tokens (5 bound to audit-a), a provider with a key,
  // and a settings change.
  for (const apiKeyId of ['audit-a', 'audit-b']) {
    await e2e.gql(IMPORT_MEMORIES, {
      memories: [{ apiKeyId, key: 'home', content: `Lives in ${apiKeyId === 'audit-a' ? 'Ghent' : 'Leuven'}` }],
    });
  }
  for (let i = 0; i < 25; i++) {
    await e2e.gql(CREATE_TOKEN, {
      input: { name: `gateway-${i}`, apiKeyId: i < 5 ? 'audit-a' : null },
    });
  }
  await e2e.gql(UPSERT_PROVIDER, {
    input: { id: 'p1', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'provider-secret-key', models: [] },
  });
  maxTokensBefore = (await e2e.gql(GET_SETTINGS)).memorySettings.maxTokens;
  await e2e.gql(UPDATE_SETTINGS, { input: { maxTokens: 1234, strategy: 'EXACT' } });
}, 60_000);
afterAll(() => e2e?.close());

const list = (page: Page) => page.getByRole('region', { name: 'Audit entries' });
const rows = (page: Page) => page.getByRole('table', { name: 'Audit log' }).locator('tbody tr.audit-row');
const range = (page: Page) => list(page).locator('.pager-range');
/** The column texts of the rows on screen: when, action, actor, key, what, outcome. */
const cells = (page: Page, column: number) => rows(page).locator(`td:nth-child(${column})`).allTextContents();

async function openAudit(page: Page, query = '') {
  await page.goto(`${e2e.url}/admin/#/audit${query}`);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
}

/** Waits until the list has settled (no request in flight) and shows `text` as its range. */
const rangeIs = (page: Page, text: string) =>
  expect.poll(async () => ((await list(page).getAttribute('aria-busy')) === 'true' ? null : range(page).textContent())).toBe(text);

describe('the Audit log tab', () => {
  it('lists the actions done here, newest first, with who did them and the total', async () => {
    const { page } = e2e;
    await openAudit(page);
    await rangeIs(page, '1–20 of 29');
    const actions = await cells(page, 2);
    expect(actions.slice(0, 3)).toEqual(['Settings changed', 'Provider saved', 'Token minted']);
    expect(new Set(await cells(page, 3))).toEqual(new Set(['MNEMO_ADMIN_TOKEN']));
    expect(new Set(await cells(page, 6))).toEqual(new Set(['OK']));
  });

  it('filters by action, and the filter survives a reload', async () => {
    const { page } = e2e;
    await openAudit(page);
    await list(page).getByLabel('Action').selectOption({ label: 'Memories imported' });
    await rangeIs(page, '1–2 of 2');
    expect(await cells(page, 4)).toEqual(['audit-b', 'audit-a']);
    expect(page.url()).toContain('action=MEMORIES_IMPORT');
    await page.reload();
    await rangeIs(page, '1–2 of 2');
    expect(await list(page).getByLabel('Action').inputValue()).toBe('MEMORIES_IMPORT');
  });

  it('filters by API key', async () => {
    const { page } = e2e;
    await openAudit(page);
    await list(page).getByLabel('API key', { exact: true }).fill('audit-a');
    await rangeIs(page, '1–6 of 6');
    expect(new Set(await cells(page, 4))).toEqual(new Set(['audit-a']));
    expect((await cells(page, 2)).toSorted()).toEqual([...Array(5).fill('Token minted'), 'Memories imported'].toSorted());
    expect(page.url()).toContain('key=audit-a');
  });

  it('pages through every entry with the total count; page and page size survive a reload', async () => {
    const { page } = e2e;
    await openAudit(page);
    await list(page).getByLabel('Rows per page').selectOption('10');
    await rangeIs(page, '1–10 of 29');
    const pager = list(page).getByRole('navigation', { name: 'Pages' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await rangeIs(page, '11–20 of 29');
    await pager.getByRole('button', { name: 'Page 3' }).click();
    await rangeIs(page, '21–29 of 29');
    // The oldest entries are on the last page: the two imports.
    expect((await cells(page, 2)).slice(-2)).toEqual(['Memories imported', 'Memories imported']);
    expect(page.url()).toMatch(/page=3/);
    await page.reload();
    await rangeIs(page, '21–29 of 29');
    expect(await list(page).getByLabel('Rows per page').inputValue()).toBe('10');
  });

  it("shows a settings change's before and after, field by field", async () => {
    const { page } = e2e;
    await openAudit(page, '?action=SETTINGS_UPDATE');
    await rangeIs(page, '1–1 of 1');
    const details = rows(page).getByRole('button', { name: /^Details of Settings changed/ });
    await details.click();
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    const changes = page.getByRole('table', { name: 'Changes' });
    await changes.waitFor();
    const lines = await changes
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? '')));
    expect(lines).toEqual([
      ['maxTokens', String(maxTokensBefore), '1234'],
      ['strategy', 'HYBRID', 'EXACT'],
    ]);
    // The detail stays open as the filter goes: the whole log, with the change under its row.
    await list(page).getByRole('button', { name: 'Clear filters' }).click();
    await rangeIs(page, '1–20 of 29');
    expect(await page.getByRole('table', { name: 'Changes' }).isVisible()).toBe(true);
    await screenshot(page, 'audit');
  });

  it("shows a provider's API key only as set, never its value", async () => {
    const { page } = e2e;
    await openAudit(page, '?action=PROVIDER_UPSERT');
    await rangeIs(page, '1–1 of 1');
    await rows(page)
      .getByRole('button', { name: /^Details of Provider saved/ })
      .click();
    const apiKey = page.getByRole('table', { name: 'Changes' }).getByRole('row', { name: /^apiKey/ });
    expect(await apiKey.textContent()).toBe('apiKeysecret set its value is never recorded');
    expect(await page.content()).not.toContain('provider-secret-key');
  });

  it('says a clear of every type cleared all types, never "null"', async () => {
    const { page } = e2e;
    await e2e.gql(CLEAR_MEMORIES, { apiKeyId: 'audit-b' });
    await openAudit(page, '?action=MEMORIES_CLEAR');
    await rangeIs(page, '1–1 of 1');
    expect(await cells(page, 5)).toEqual(['types all, deleted 1']);
    await rows(page)
      .getByRole('button', { name: /^Details of Memories cleared/ })
      .click();
    const detail = page.getByRole('row').filter({ has: page.getByRole('term').filter({ hasText: 'Request id' }) });
    expect(await detail.getByRole('definition').first().textContent()).toBe('all');
    expect(await detail.textContent()).not.toContain('null');
  });

  it('keeps a detail opened on a phone in view', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openAudit(page);
      await rangeIs(page, '1–20 of 30');
      const details = rows(page).getByRole('button', { name: /^Details of/ });
      await details.last().click();
      const region = await page.getByRole('region', { name: 'Audit log table' }).boundingBox();
      const term = await page.getByRole('term').filter({ hasText: 'Request id' }).boundingBox();
      expect(term!.x).toBeGreaterThanOrEqual(region!.x);
      expect(term!.x + term!.width).toBeLessThanOrEqual(region!.x + region!.width);
      expect(term!.y).toBeGreaterThanOrEqual(0);
      expect(term!.y + term!.height).toBeLessThanOrEqual(844);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('moves to another tab with a detail open without an error', async () => {
    const { page } = e2e;
    const errors: string[] = [];
    const record = (error: Error) => errors.push(error.message);
    page.on('pageerror', record);
    try {
      await openAudit(page);
      await rows(page)
        .getByRole('button', { name: /^Details of/ })
        .first()
        .click();
      await page.getByRole('term').filter({ hasText: 'Request id' }).waitFor();
      await page.getByRole('tab', { name: 'Memories' }).click();
      await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      page.off('pageerror', record);
    }
  });
});
