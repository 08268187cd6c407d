import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, GET_MEMORY, UPDATE_MEMORY } from '../helpers/operations.ts';
import { type E2E, screenshot, startE2E, WIDTHS } from './harness.ts';

const SUPERSEDE = graphql(`
  mutation E2eHistorySupersede($input: MemoryInput!, $supersedes: [ID!]) {
    createMemory(input: $input, supersedes: $supersedes) {
      id
    }
  }
`);

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

  it('shows a supersession and its Undo as what they are, with nothing to restore in them', async () => {
    const { page } = e2e;
    const apiKeyId = `history-held-${Date.now().toString(36)}`;
    const { createMemory: lyon } = await e2e.gql(CREATE_MEMORY, { input: { apiKeyId, key: 'home', content: 'Lives in Lyon' } });
    await e2e.gql(UPDATE_MEMORY, { id: lyon.id, input: { content: 'Lives in Lyon, France' } });
    await e2e.gql(SUPERSEDE, { input: { apiKeyId, key: 'home-2', content: 'Lives in Berlin' }, supersedes: [lyon.id] });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${e2e.url}/admin/#/memories`);
    const filters = page.getByRole('search', { name: 'Filter memories' });
    await filters.getByLabel('API key').fill(apiKeyId);
    await filters.getByLabel('Show superseded').check();
    await table(page).getByRole('row').filter({ hasText: 'Lives in Lyon, France' }).waitFor();
    await page.getByRole('button', { name: 'History of home', exact: true }).click();
    const panel = page.getByRole('region', { name: 'History of home' });
    const superseded = panel.getByRole('listitem').filter({ hasText: 'Version 2' });
    await expect.poll(() => superseded.textContent()).toContain('Superseded by Lives in Berlin');
    expect(await superseded.textContent()).toContain('by the admin token: superseded (caller)');

    // The Undo on the memory's row adds its own entry to the open History.
    await page.getByRole('button', { name: 'Undo: make home current again' }).click();
    const restored = panel.getByRole('listitem').filter({ hasText: 'Version 3' });
    await expect.poll(() => restored.textContent()).toContain('Restored as current');
    expect(await restored.textContent()).toContain('by the admin token: restored');
    // A revert brings back wording, never validity: these two entries have none to bring back.
    expect(await panel.getByRole('button', { name: /^Restore version [23] of home$/ }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Restore version 1 of home' }).waitFor();

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `memory-history-validity-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
