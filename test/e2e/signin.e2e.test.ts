import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAccessTokenInput } from '../generated/graphql.ts';
import { CREATE_TOKEN } from '../helpers/operations.ts';
import { ADMIN_TOKEN, type E2E, screenshot, signIn, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ signIn: false });
});
afterAll(() => e2e?.close());

describe('signing in', () => {
  it('shows the commands that give an admin token as code, without Markdown backticks', async () => {
    const { page, url } = e2e;
    await page.goto(`${url}/admin/`);
    const form = page.getByRole('form', { name: 'Sign in to Memory Studio' });
    expect(await form.getByRole('code').allTextContents()).toEqual(['mnemo serve', 'mnemo token create --admin']);
    expect(await form.textContent()).not.toContain('`');
  });

  it('refuses an unknown token with a clear message', async () => {
    const { page, url } = e2e;
    await page.goto(`${url}/admin/`);
    await page.getByLabel('Admin token').fill('mnemo_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('unknown or revoked');
    await screenshot(page, 'signin');
  });

  it('refuses a gateway token, bound or not, saying that Memory Studio needs an admin token', async () => {
    const { page, url } = e2e;
    const mint = async (input: CreateAccessTokenInput) => (await e2e.gql(CREATE_TOKEN, { input })).createAccessToken.token;
    for (const [token, says] of [
      [
        await mint({ name: 'bound gateway', apiKeyId: 'acme' }),
        'This is a gateway token (bound to the API key acme); Memory Studio needs an admin token.',
      ],
      [await mint({ name: 'unbound gateway' }), 'This is a gateway token; Memory Studio needs an admin token.'],
    ] as const) {
      await page.goto(`${url}/admin/`);
      await page.getByLabel('Admin token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: says }).waitFor();
      expect(await page.getByRole('tab').count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.getItem('mnemo.adminToken'))).toBeNull();
    }
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
