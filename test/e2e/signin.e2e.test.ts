import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type E2E, screenshot, signIn, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ signIn: false });
});
afterAll(() => e2e?.close());

describe('signing in', () => {
  it('refuses an unknown token with a clear message', async () => {
    const { page, url } = e2e;
    await page.goto(`${url}/admin/`);
    await page.getByLabel('Admin token').fill('mnemo_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('unknown or revoked');
    await screenshot(page, 'signin');
  });

  it('opens Memory Studio with the admin token and keeps it for the browser session only', async () => {
    const { page, url } = e2e;
    await signIn(page, url);
    expect(await page.evaluate(() => sessionStorage.getItem('mnemo.adminToken'))).toBe(ADMIN_TOKEN);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
  });
});
