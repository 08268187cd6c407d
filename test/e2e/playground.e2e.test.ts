import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MEMORIES, type MemoryInput, RETRIEVE_PREVIEW, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type E2E, fillPlaygroundApiKey, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  // The default harness: no embedding model on disk and downloads off, so semantic search must fall back.
  e2e = await startE2E();
  const memories: MemoryInput[] = [
    { apiKeyId: 'acme', type: 'ENFORCED', content: 'Always answer in British English.' },
    { apiKeyId: 'acme', type: 'FACTUAL', content: 'The user prefers a dark editor theme in VS Code and in the terminal.' },
    { apiKeyId: 'acme', type: 'FACTUAL', content: 'The team deploys to production on Tuesdays after the standup.' },
    { apiKeyId: 'acme', type: 'PROCEDURAL', content: 'Run the test suite with npm test before opening a pull request.' },
    { apiKeyId: 'acme', type: 'EPISODIC', content: 'Last week the user chased a memory leak in an editor plugin.' },
    { apiKeyId: 'acme', type: 'SEMANTIC', content: 'A dark theme reduces eye strain during long editing sessions.' },
    { apiKeyId: 'globex', type: 'FACTUAL', content: 'The user prefers a light editor theme.' },
  ];
  const { importMemories } = await e2e.gql(IMPORT_MEMORIES, { memories });
  expect(importMemories).toMatchObject({ imported: memories.length, rejected: [] });
});
afterAll(() => e2e?.close());

describe('the Playground tab', () => {
  it('simulates a hybrid retrieval: ranked results with scores and tiers, the fallback, the budget and the injected block', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Playground' }).click();
    await page.getByRole('heading', { name: 'Nothing simulated yet' }).waitFor();
    await page.getByLabel('Query').fill('Which editor theme does the user prefer?');
    await fillPlaygroundApiKey(page, 'acme');
    await page.getByRole('radio', { name: 'Hybrid' }).check();
    await page.getByLabel('Token budget').fill('2000');
    await page.getByRole('button', { name: 'Simulate' }).click();

    const results = page.getByRole('region', { name: 'Ranked results' });
    const rows = results.getByRole('row');
    await rows.nth(1).waitFor();
    // The enforced memory rides along in every retrieval; the best keyword match leads the rest.
    const texts = await rows.allTextContents();
    const body = texts.slice(1);
    expect(body.some((t) => t.includes('British English') && t.includes('Enforced'))).toBe(true);
    const firstKeyword = body.find((t) => t.includes('Keyword'))!;
    expect(firstKeyword).toContain('dark editor theme');
    expect(firstKeyword).toMatch(/#1/);
    expect(body.join('\n')).not.toContain('light editor theme');
    // Ranked rows show their score; the enforced one is pinned, not ranked.
    for (const row of body) expect(row).toMatch(row.includes('Enforced') ? /pinned/ : /\d\.\d+/);

    const resolution = page.getByRole('region', { name: 'Resolution' });
    const fallback = await resolution.getByRole('note', { name: 'Fallback' }).textContent();
    expect(fallback).toContain('vector search unavailable');
    expect(fallback).toContain('keyword answered');
    // Why: no model is configured (none on disk, downloads off, no provider).
    const why = await resolution.textContent();
    expect(why).toMatch(/static model \S+ cannot be had \(its files are missing/);
    expect(why).toContain('keyword search only');
    expect(why).toContain('not applied');
    // A question about the user in the third person asks about neither side of a conversation.
    expect(why).toContain('the query asks about neither side');

    const meter = page.getByRole('meter', { name: 'Tokens used of the budget' });
    const used = Number(await meter.getAttribute('aria-valuenow'));
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(100);
    await expect(page.getByRole('region', { name: 'Budget' }).textContent()).resolves.toMatch(/\d+\s*\/\s*2,?000 tokens/);

    const block = await page.getByLabel('Injected memory block').textContent();
    expect(block).toContain('- [enforced] Always answer in British English.');
    expect(block).toContain('- [factual] The user prefers a dark editor theme in VS Code and in the terminal.');
    // Exactly what the API returns as the block.
    const { retrievePreview } = await e2e.gql(RETRIEVE_PREVIEW, {
      input: { apiKeyId: 'acme', query: 'Which editor theme does the user prefer?', strategy: 'HYBRID', maxTokens: 2000 },
    });
    expect(block).toBe(retrievePreview.block);

    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'playground');

    await e2e.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy block' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(retrievePreview.block);
  });

  it('simulates with Ctrl+Enter and keeps the block within a small budget', async () => {
    const { page } = e2e;
    await page.getByRole('radio', { name: 'Exact' }).check();
    await page.getByLabel('Token budget').fill('70');
    await page.getByLabel('Query').press('Control+Enter');
    const results = page.getByRole('region', { name: 'Ranked results' });
    await results.getByText('Exact', { exact: true }).first().waitFor();
    const meter = page.getByRole('meter', { name: 'Tokens used of the budget' });
    const [used, budget] = (await meter.getAttribute('aria-valuetext'))!.match(/\d+/g)!.map(Number);
    expect(budget).toBe(70);
    expect(used).toBeLessThanOrEqual(70);
    // Newest first, cut at the budget: fewer injected than the six memories of this key.
    const injected = (await results.getByRole('row').count()) - 1;
    expect(injected).toBeGreaterThan(1);
    expect(injected).toBeLessThan(6);
    await expect(results.textContent()).resolves.toMatch(/6 candidates considered/);
    await expect(page.getByRole('region', { name: 'Resolution' }).textContent()).resolves.toContain('No fallback');
  });

  it('says so when nothing matches, refuses a bad budget, and shows what the server refused', async () => {
    const { page } = e2e;
    await page.getByRole('radio', { name: 'Hybrid' }).check();
    await page.getByLabel('Token budget').fill('2000');
    await page.getByLabel('API key').fill('nobody');
    await page.getByLabel('Query').fill('anything at all');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.getByText('Nothing would be injected.').waitFor();
    await page.getByText('No block: the request would be forwarded unchanged.').waitFor();

    // The server's own messages, beside the fields they name.
    const problemOf = async (label: string) => {
      const field = page.getByLabel(label);
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      return page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`).textContent();
    };
    await page.getByLabel('Token budget').fill('99999');
    await page.getByRole('button', { name: 'Simulate' }).click();
    expect(await problemOf('Token budget')).toBe('maxTokens must be between 0 and 16000');

    await page.getByLabel('Token budget').fill('');
    await page.getByRole('button', { name: 'Simulate' }).click();
    expect(await problemOf('Token budget')).toBe('The token budget is required.');

    await page.getByLabel('Token budget').fill('2000');
    await page.getByLabel('API key').fill('k'.repeat(300));
    await page.getByRole('button', { name: 'Simulate' }).click();
    expect(await problemOf('API key')).toBe('apiKeyId is longer than 256 characters');
  });

  it('keeps the saved token budget when the admin starts typing before the settings have arrived', async () => {
    const { page } = e2e;
    await e2e.gql(UPDATE_SETTINGS, { input: { maxTokens: 1234 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('query MemorySettings')) await held;
      await route.continue();
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Nothing simulated yet' }).waitFor();
    await fillPlaygroundApiKey(page, 'acme');
    await page.getByLabel('Query').fill('editor theme');
    expect(await page.getByLabel('Token budget').inputValue()).toBe('');
    release();
    await expect.poll(() => page.getByLabel('Token budget').inputValue()).toBe('1234');
    await page.unroute('**/graphql');
    expect(await page.getByLabel('API key').inputValue()).toBe('acme');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const budget = page.getByRole('region', { name: 'Budget' });
    await budget.waitFor();
    expect(await budget.textContent()).toMatch(/\d+\s*\/\s*1,?234 tokens/);
  });
});
