import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import { type E2E, modelApiEnv, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
let api: ModelApiDouble;
let apiDown = false;

beforeAll(async () => {
  // The embedding and rerank models are an API (the double), as in production; it goes away mid-test.
  api = await startModelApi();
  e2e = await startE2E({
    env: modelApiEnv(api),
  });
  await e2e.gql('mutation { updateMemorySettings(input: { rerankEnabled: true }) { rerankEnabled } }');
}, 60_000);

afterAll(async () => {
  await e2e?.close();
  if (!apiDown) await api?.close();
});

const card = (name: string) => e2e.page.getByRole('article', { name: `${name} status` });

describe('a fresh server', () => {
  it('is healthy with no memory stored yet', async () => {
    const { page } = e2e;
    await page.getByRole('status', { name: /^Memory store healthy/ }).waitFor();
    expect(await page.locator('.health').getAttribute('class')).toContain('health-up');
  });
});

describe('the engine status', () => {
  it('tests the embedding and rerank models with one real call each, and shows their answers', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Engine' }).click();
    await card('Embedding').getByRole('button', { name: 'Test the embedding model' }).click();
    await card('Embedding').getByRole('status').filter({ hasText: 'embed-1 answered in' }).waitFor();
    expect(await card('Embedding').getByRole('status').textContent()).toContain('a 8-dimensional vector');
    await card('Rerank').getByRole('button', { name: 'Test the rerank model' }).click();
    await card('Rerank').getByRole('status').filter({ hasText: 'rerank-1 answered in' }).waitFor();
    await card('Embedding').getByText('Ready', { exact: true }).waitFor();
  });

  it('turns a card red when the provider fails, with the error, and a reindex refuses to start with the reason', async () => {
    const { page } = e2e;
    await api.close();
    apiDown = true;
    await card('Embedding').getByRole('button', { name: 'Test the embedding model' }).click();
    await card('Embedding').getByRole('status').filter({ hasText: 'ECONNREFUSED' }).waitFor({ timeout: 20_000 });
    // The state alone would still say "Ready": the failed calls decide the colour.
    const chip = card('Embedding').locator('.chip');
    await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toBe('Failing');
    expect(await chip.getAttribute('class')).toContain('chip-danger');
    await expect.poll(() => card('Embedding').textContent()).toMatch(/Last failure.*ECONNREFUSED/);

    await card('Rerank').getByRole('button', { name: 'Test the rerank model' }).click();
    await card('Rerank').getByRole('status').filter({ hasText: 'ECONNREFUSED' }).waitFor();
    await expect.poll(() => card('Rerank').locator('.chip').textContent()).toBe('Failing');

    await e2e.gql('mutation { importMemories(memories: [{ apiKeyId: "acme", content: "Likes tea" }]) { imported } }');
    await page.getByRole('button', { name: 'Reindex now' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'reindex not started' });
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.textContent()).toMatch(/failed a test call .*ECONNREFUSED/);
    expect((await e2e.gql('{ reindexJob { id } }')).reindexJob).toBeNull();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'engine-failing');
  });
});

describe('a server that does not answer', () => {
  it('shows one banner and a red health dot at once, instead of an error in every panel, until it answers again', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Memories' }).click();
    await page.getByRole('table', { name: 'Memories' }).waitFor();
    await page.route('**/graphql', (route) => route.abort('connectionrefused'));
    try {
      // Any request now finds no server: a filter change is one.
      await page.getByRole('search', { name: 'Filter memories' }).getByLabel('Search').fill('tea');
      const banner = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
      await banner.waitFor();
      expect(await page.getByRole('status', { name: 'Server unreachable' }).isVisible()).toBe(true);
      expect(await page.getByText('Failed to fetch').count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(1);
    } finally {
      await page.unroute('**/graphql');
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('alert').filter({ hasText: 'The server cannot be reached' }).waitFor({ state: 'detached' });
    await page.getByRole('status', { name: /^Memory store healthy/ }).waitFor({ timeout: 40_000 });
    // The dot may wait for its next 30-second health poll: the test allows for that wait whole, not only the waits before it.
  }, 90_000);
});
