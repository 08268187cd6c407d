import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2eSettingsDocument } from '../generated/graphql.ts';
import { GET_SETTINGS } from '../helpers/operations.ts';
import { type E2E, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const settingsForm = () => e2e.page.getByRole('form', { name: 'Memory settings' });

/** The message a field points to with aria-describedby, when it is marked invalid. */
async function problemOf(field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const id = await field.getAttribute('aria-describedby');
  return id ? e2e.page.locator(`[id="${id}"]`).textContent() : null;
}

describe('the Settings tab', () => {
  it('turns memory on with a token-cost warning and saves the budget', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Memory enabled').check();
    await expect(page.getByRole('note').textContent()).resolves.toContain('billed');
    await page.getByLabel('Max tokens per request').fill('1200');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await screenshot(page, 'settings');
    const { memorySettings } = await e2e.gql(GET_SETTINGS);
    expect(memorySettings).toMatchObject({ enabled: true, maxTokens: 1200 });
  });

  it('refuses an empty Max tokens beside the field, and saves nothing (not "up to 0 extra tokens")', async () => {
    const { page } = e2e;
    const field = page.getByLabel('Max tokens per request');
    await field.fill('');
    expect(await page.getByRole('note').textContent()).not.toContain('up to 0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => problemOf(field)).toBe('Max tokens is required.');
    // The field in trouble has the focus.
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await e2e.gql(GET_SETTINGS)).memorySettings.maxTokens).toBe(1200);
  });

  it("shows the server's own message beside a field it refuses, never the browser's", async () => {
    const { page } = e2e;
    // No number input carries the browser's own range or step checks.
    expect(await settingsForm().locator('input[type="number"], input[step], input[min], input[max]').count()).toBe(0);
    const field = page.getByLabel('Max tokens per request');
    await field.fill('20000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => problemOf(field)).toBe('maxTokens must be between 0 and 16000');
    await settingsForm().getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    expect((await e2e.gql(GET_SETTINGS)).memorySettings.maxTokens).toBe(1200);
    await field.fill('1500');
    expect(await problemOf(field)).toBeNull();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  });

  it('keeps unsaved edits when the admin goes to another tab, says so on the tab, and can discard them', async () => {
    const { page } = e2e;
    await page.getByLabel('Retention (days)').fill('90');
    await page.getByRole('tab', { name: 'Memories' }).click();
    await page.getByRole('tab', { name: 'Settings (unsaved changes)' }).waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await page.getByLabel('Retention (days)').inputValue()).toBe('90');
    await settingsForm().getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByLabel('Retention (days)').inputValue()).toBe('30');
    await page.getByRole('tab', { name: 'Settings', exact: true }).waitFor();
  });

  it('explains retention, and edits the providers that get memories as a user message', async () => {
    const { page } = e2e;
    const retention = page.getByRole('region', { name: 'Retention and purge' });
    expect(await retention.textContent()).toContain('more than 30 days ago is out of retention');
    expect(await retention.textContent()).toContain('more than 7 days ago');
    const providers = page.getByLabel('Providers that get memories as a user message');
    expect(await providers.inputValue()).toContain('o1-mini');
    await providers.fill('o1-mini\nmy-proxy');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await e2e.gql(E2eSettingsDocument)).memorySettings.userRoleProviders).toEqual(['o1-mini', 'my-proxy']);
  });

  it('turns retention off and sets the purge grace, and says what that means', async () => {
    const { page } = e2e;
    await page.getByLabel('Retention on (off: keep every memory, however old)').uncheck();
    await page.getByLabel('Purge grace (days)').fill('14');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const { memorySettings } = await e2e.gql(E2eSettingsDocument);
    expect(memorySettings).toMatchObject({ retentionEnabled: false, purgeGraceDays: 14 });
    const retention = page.getByRole('region', { name: 'Retention and purge' });
    expect(await retention.textContent()).toContain('Retention is off');
    await page.getByLabel('Retention on (off: keep every memory, however old)').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  });

  it('chooses which chat messages are captured, and says what capturing keeps', async () => {
    const { page } = e2e;
    const capture = page.getByRole('region', { name: 'Capture and extraction' });
    expect(await capture.textContent()).toContain('kept verbatim, secrets redacted');
    await page.getByLabel('Capture chat turns').selectOption({ label: 'All messages' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await e2e.gql(E2eSettingsDocument)).memorySettings.captureTurns).toBe('ALL');
  });

  it("sets the extraction model and each key's daily tokens for it", async () => {
    const { page } = e2e;
    await page.getByLabel('Extraction model').fill('openai/gpt-4o-mini');
    await page.getByLabel('Its tokens per key per day').fill('5000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await e2e.gql(E2eSettingsDocument)).memorySettings).toMatchObject({
      extractionModel: 'openai/gpt-4o-mini',
      extractionModelDailyTokens: 5000,
    });

    // Emptied, the field returns extraction to the rules alone.
    await page.getByLabel('Extraction model').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await e2e.gql(E2eSettingsDocument)).memorySettings.extractionModel).toBeNull();
  });
});
