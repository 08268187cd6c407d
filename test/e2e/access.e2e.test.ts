import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2eMemoryCountDocument } from '../generated/graphql.ts';
import { CREATE_TOKEN } from '../helpers/operations.ts';
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
    body: JSON.stringify({ query: String(E2eMemoryCountDocument), variables: { apiKeyId: 'acme' } }),
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

    await page.getByRole('button', { name: /^Revoke gateway-eu-1/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /gateway-eu-1/ }).waitFor({ state: 'detached' });
    // The Revoke button went with its row: the focus is on the message that says what happened.
    const note = page.getByRole('status').filter({ hasText: 'Revoked “gateway-eu-1”' });
    await note.waitFor();
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await memoriesWith(url, token)).toBe(401);
    await page.reload();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByLabel('Show revoked').check();
    await expect(page.getByRole('row', { name: /gateway-eu-1/ }).textContent()).resolves.toContain('revoked');
    expect(await page.content()).not.toContain(token);
  });

  it('tells tokens of the same name apart by their first characters and id, warns on a duplicate name, and shows when each was used', async () => {
    const { page, url } = e2e;
    const mint = async (name: string) => (await e2e.gql(CREATE_TOKEN, { input: { name, apiKeyId: 'acme' } })).createAccessToken;
    const first = await mint('gateway-shared');
    const second = await mint('gateway-shared');
    expect(await memoriesWith(url, second.token)).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'Access' }).click();

    const rows = page.getByRole('row').filter({ hasText: 'gateway-shared' });
    await expect.poll(() => rows.count()).toBe(2);
    for (const t of [first, second]) {
      const row = rows.filter({ hasText: t.token.slice(0, 10) });
      expect(await row.textContent()).toContain(`id ${t.accessToken.id.slice(0, 8)}`);
      expect(await row.textContent()).toContain('same name');
    }
    // The one a gateway used has a last-used time; the other was never used.
    expect(await rows.filter({ hasText: second.token.slice(0, 10) }).textContent()).not.toContain('never');
    expect(await rows.filter({ hasText: first.token.slice(0, 10) }).textContent()).toContain('never');
    // Nothing past the first characters of a secret is on the page.
    expect(await page.content()).not.toContain(first.token.slice(0, 11));

    await page.getByLabel('Name').fill('gateway-shared');
    await page.getByRole('note').filter({ hasText: '2 tokens named “gateway-shared” already exist' }).waitFor();

    // The confirmation names the exact token before it is revoked.
    await page.getByRole('button', { name: `Revoke gateway-shared (id ${first.accessToken.id.slice(0, 8)})` }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
    expect(await dialog.textContent()).toContain(first.token.slice(0, 10));
    expect(await dialog.textContent()).toContain(first.accessToken.id);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
});
