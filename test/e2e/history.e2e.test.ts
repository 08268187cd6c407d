import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_MEMORY, GET_MEMORY, UPDATE_MEMORY } from '../helpers/operations.ts';
import { type E2E, screenshot, startE2E, WIDTHS } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const table = (page: Page) => page.getByRole('table', { name: 'Memories' });

describe("a memory's History panel", () => {
  it('shows what each change did, by whom and why, and restores a version', async () => {
    const { page } = e2e;
    const apiKeyId = `history-${Date.now().toString(36)}`;
    const { createMemory } = await e2e.gql(CREATE_MEMORY, {
      input: { apiKeyId, key: 'city', content: 'Lives in Lyon', metadata: { source: 'chat' } },
    });
    await e2e.gql(UPDATE_MEMORY, { id: createMemory.id, input: { content: 'Lives in Berlin', metadata: { source: 'form' } } });

    await page.goto(`${e2e.url}/admin/#/memories`);
    await page.getByRole('search', { name: 'Filter memories' }).getByLabel('API key').fill(apiKeyId);
    await table(page).getByRole('row').filter({ hasText: 'Lives in Berlin' }).waitFor();
    await page.getByRole('button', { name: 'History of city' }).click();

    const panel = page.getByRole('region', { name: 'History of city' });
    const version = panel.getByRole('listitem').filter({ hasText: 'Version 1' });
    await version.waitFor();
    const text = await version.textContent();
    expect(text).toContain('by the admin token: updateMemory');
    expect(text).toContain('Lives in Lyon');
    expect(text).toContain('Lives in Berlin');
    expect(text).toContain('metadata.source');

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `memory-history-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await panel.getByRole('button', { name: 'Restore version 1 of city' }).click();
    await table(page).getByRole('row').filter({ hasText: 'Lives in Lyon' }).first().waitFor();
    await panel.getByRole('listitem').filter({ hasText: 'revert to version 1' }).waitFor();
    const { memory } = await e2e.gql(GET_MEMORY, { id: createMemory.id });
    expect(memory).toMatchObject({ content: 'Lives in Lyon', metadata: { source: 'chat' } });
  });
});
