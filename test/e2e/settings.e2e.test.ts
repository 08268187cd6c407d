import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

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
    const { memorySettings } = await e2e.gql('{ memorySettings { enabled maxTokens } }');
    expect(memorySettings).toEqual({ enabled: true, maxTokens: 1200 });
  });

  it('refuses an out-of-range budget before sending it', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Max tokens per request').fill('20000');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('0 to 16000');
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
  });
});
