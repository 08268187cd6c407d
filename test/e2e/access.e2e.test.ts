import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const memoriesWith = async (url: string, token: string) => {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ memories(apiKeyId: "acme") { totalCount } }' }),
  });
  return res.status;
};

describe('the Access tab', () => {
  it('mints a bound gateway token, shows it once, and revokes it', async () => {
    const { page, url } = e2e;
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByLabel('Name').fill('gateway-eu-1');
    await page.getByLabel('Bound API key (optional)').fill('acme');
    await page.getByRole('button', { name: 'Mint token' }).click();
    const token = (await page.getByTestId('minted-token').textContent())!.trim();
    expect(token).toMatch(/^mnemo_/);
    expect(await memoriesWith(url, token)).toBe(200);
    const row = page.getByRole('row', { name: /gateway-eu-1/ });
    await expect(row.textContent()).resolves.toContain('acme');
    await screenshot(page, 'access');

    await page.getByRole('button', { name: 'Revoke gateway-eu-1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /gateway-eu-1/ }).waitFor({ state: 'detached' });
    expect(await memoriesWith(url, token)).toBe(401);
    await page.reload();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByLabel('Show revoked').check();
    await expect(page.getByRole('row', { name: /gateway-eu-1/ }).textContent()).resolves.toContain('revoked');
    expect(await page.content()).not.toContain(token);
  });
});
