import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import { freePort } from '../helpers/freePort.ts';
import { IMPORT_MEMORIES, REINDEX_JOB, UPDATE_SETTINGS } from '../helpers/operations.ts';
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
  await e2e.gql(UPDATE_SETTINGS, { input: { rerankEnabled: true } });
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

    await e2e.gql(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'acme', content: 'Likes tea' }] });
    await page.getByRole('button', { name: 'Reindex now' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'reindex not started' });
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.textContent()).toMatch(/failed a test call .*ECONNREFUSED/);
    expect((await e2e.gql(REINDEX_JOB)).reindexJob).toBeNull();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'engine-failing');
  });
});

/** The page's fetch, watched by the test: whether it is sent nowhere, and how many requests it has made. */
interface Probe {
  unreachable: boolean;
  requests: number;
}

describe('a server that does not answer', () => {
  it('shows one banner and a red health dot at once, instead of an error in every panel, until it answers again', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Memories' }).click();
    await page.getByRole('table', { name: 'Memories' }).waitFor();
    const nowhere = await freePort();
    // While the flag is set, the page's requests go to a port nothing listens on: a real refused connection. The flag
    // is cleared in the page in the same task as the click on "Try again", which counts the requests the click sends:
    // the banner's own retries, on timers, cannot run in between (with page.route and unroute, one could bring the
    // server back first and take the button away before the click).
    await page.evaluate((url) => {
      const realFetch = window.fetch.bind(window);
      const probe: Probe = { unreachable: true, requests: 0 };
      Object.assign(window, { mnemoTestProbe: probe });
      window.fetch = (input, init) => {
        probe.requests += 1;
        return realFetch(probe.unreachable ? url : input, init);
      };
    }, `http://127.0.0.1:${nowhere}/graphql`);
    // Any request now finds no server: a filter change is one.
    await page.getByRole('search', { name: 'Filter memories' }).getByLabel('Search').fill('tea');
    const banner = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await banner.waitFor();
    expect(await page.getByRole('status', { name: 'Server unreachable' }).isVisible()).toBe(true);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(1);

    const sentByTheClick = await banner.getByRole('button', { name: 'Try again' }).evaluate((button: HTMLButtonElement) => {
      const probe = (window as unknown as { mnemoTestProbe: Probe }).mnemoTestProbe;
      probe.unreachable = false;
      const before = probe.requests;
      button.click();
      return probe.requests - before;
    });
    expect(sentByTheClick).toBeGreaterThan(0);
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('status', { name: /^Memory store healthy/ }).waitFor({ timeout: 40_000 });
    // A request sent before the click can still fail after it and bring the banner back until its next 5-second
    // retry; the health dot's wait and the test's timeout allow for that.
  }, 90_000);
});
