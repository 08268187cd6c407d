import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { type E2E, startE2E } from './harness.ts';

// The Memories tab lists current memories; "Show superseded" adds those a newer fact replaced, each saying by what and
// why, with Undo.

const WRITE = graphql(`
  mutation E2eSupersessionWrite($input: MemoryInput!, $supersedes: [ID!]) {
    createMemory(input: $input, supersedes: $supersedes) {
      id
    }
  }
`);

const STATE = graphql(`
  query E2eSupersessionState($id: ID!) {
    memory(id: $id) {
      status
      validTo
    }
  }
`);

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

beforeEach(async () => {
  await e2e.page.goto(`${e2e.url}/admin/#/memories`);
  await e2e.page.reload();
  await e2e.page.getByRole('table', { name: 'Memories' }).waitFor();
});

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const filterBar = (page: Page) => page.getByRole('search', { name: 'Filter memories' });
const table = (page: Page) => page.getByRole('table', { name: 'Memories' });
const dataRows = (page: Page) => table(page).locator('tbody tr[data-memory-id]');

/** A key whose editor changed from Vim to Helix, said in so many words. */
async function changedEditor() {
  const apiKeyId = unique('sup');
  const vim = (await e2e.gql(WRITE, { input: { apiKeyId, key: 'editor-vim', content: 'Uses Vim for all code' } })).createMemory;
  await e2e.gql(WRITE, { input: { apiKeyId, key: 'editor-helix', content: 'Uses Helix for all code' }, supersedes: [vim.id] });
  await filterBar(e2e.page).getByLabel('API key').fill(apiKeyId);
  return { apiKeyId, vimId: vim.id };
}

describe('superseded memories in the Memories tab', () => {
  it('lists only the current memory by default', async () => {
    const { page } = e2e;
    await changedEditor();
    await expect.poll(() => dataRows(page).allTextContents()).toEqual([expect.stringContaining('Uses Helix for all code')]);
  });

  it('shows the superseded one with what replaced it and why when "Show superseded" is on', async () => {
    const { page } = e2e;
    await changedEditor();
    await filterBar(page).getByLabel('Show superseded').check();
    const old = dataRows(page).filter({ hasText: 'editor-vim' });
    await old.waitFor();
    const text = await old.textContent();
    expect(text).toContain('Superseded');
    expect(text).toContain('Uses Helix for all code');
    expect(text).toContain('rule caller');
    await expect.poll(() => dataRows(page).count()).toBe(2);
  });

  it('makes the superseded memory current again with Undo', async () => {
    const { page } = e2e;
    const { vimId } = await changedEditor();
    await filterBar(page).getByLabel('Show superseded').check();
    await page.getByRole('button', { name: 'Undo: make editor-vim current again' }).click();
    await page.getByText('editor-vim is current again').waitFor();
    expect((await e2e.gql(STATE, { id: vimId })).memory).toEqual({ status: 'ACTIVE', validTo: null });
    await filterBar(page).getByLabel('Show superseded').uncheck();
    await expect.poll(() => dataRows(page).count()).toBe(2);
  });
});
