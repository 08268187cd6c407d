import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { E2eMemoriesDocument, type MemoryType } from '../generated/graphql.ts';
import { EXTRACT_FACTS, IMPORT_MEMORIES, type MemoryInput, RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type E2E, screenshot, startE2E } from './harness.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  // Old seeded memories (compaction, the chart) must still be inside the retention window.
  await e2e.gql(UPDATE_SETTINGS, { input: { retentionDays: 365 } });
});
afterAll(() => e2e?.close());

beforeEach(async () => {
  // Every test starts from a fresh Memories tab: no filters, no open panels.
  await e2e.page.goto(`${e2e.url}/admin/#/memories`);
  await e2e.page.reload();
  await e2e.page.getByRole('table', { name: 'Memories' }).waitFor();
});

let counter = 0;
/** Data unique to one test, so the tests never see each other's memories. */
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

/** A memory this file imports: always for a key of its own. */
type Row = MemoryInput & { apiKeyId: string };

async function importRows(rows: Row[]) {
  const { importMemories } = await e2e.gql(IMPORT_MEMORIES, { memories: rows });
  expect(importMemories.rejected).toEqual([]);
  return importMemories;
}

async function memoriesOf(apiKeyId: string) {
  return (await e2e.gql(E2eMemoriesDocument, { apiKeyId })).memories;
}

const filterBar = (page: Page) => page.getByRole('search', { name: 'Filter memories' });
const table = (page: Page) => page.getByRole('table', { name: 'Memories' });
const rowOf = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
const dataRows = (page: Page) => table(page).locator('tbody tr[data-memory-id]');
const textOf = (locator: Locator) => expect.poll(() => locator.textContent(), { timeout: 10_000 });

async function showKey(page: Page, apiKeyId: string) {
  await filterBar(page).getByLabel('API key').fill(apiKeyId);
}

describe('the Memories tab', () => {
  it('adds a memory and finds it by search', async () => {
    const { page } = e2e;
    const apiKeyId = unique('add');
    const word = `zebra${Date.now().toString(36)}`;
    await importRows([{ apiKeyId, key: 'other', content: 'Something unrelated to the search' }]);

    await page.getByRole('button', { name: 'Add memory' }).click();
    const form = page.getByRole('form', { name: 'Add memory' });
    await form.getByLabel('API key').fill(apiKeyId);
    await form.getByLabel('Session (optional)').fill('sess-1');
    await form.getByLabel('Type').selectOption('PROCEDURAL');
    await form.getByLabel('Key (optional)').fill('deploy-steps');
    await form.getByLabel('Content').fill(`Always run the ${word} checks before deploying`);
    await form.getByLabel('Metadata (JSON)').fill('{"source": "e2e"}');
    await form.getByRole('button', { name: 'Save memory' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await filterBar(page).getByLabel('Search').fill(word);
    const row = rowOf(page, 'deploy-steps');
    await row.waitFor();
    await expect.poll(() => dataRows(page).count()).toBe(1);
    expect(await row.textContent()).toContain('Procedural');
    expect(await row.textContent()).toContain('sess-1');
    expect(await row.textContent()).toContain(apiKeyId);

    const { items } = await memoriesOf(apiKeyId);
    expect(items.find((m) => m.key === 'deploy-steps')).toMatchObject({ type: 'PROCEDURAL', metadata: { source: 'e2e' } });
  });

  it('edits a memory inline: Esc cancels, Ctrl+Enter in the content saves', async () => {
    const { page } = e2e;
    const apiKeyId = unique('edit');
    await importRows([{ apiKeyId, key: 'editor', content: 'Prefers vim', metadata: { a: 1 } }]);
    await showKey(page, apiKeyId);
    await rowOf(page, 'Prefers vim').waitFor();

    await page.getByRole('button', { name: 'Edit editor' }).click();
    const form = page.getByRole('form', { name: 'Edit memory editor' });
    await form.getByLabel('Content').fill('this change is abandoned');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await rowOf(page, 'Prefers vim').waitFor();
    // The focus is back on the row's Edit button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit editor');

    await page.keyboard.press('Enter');
    await form.waitFor();
    await form.getByLabel('Type').selectOption('PROCEDURAL');
    await form.getByLabel('Key').fill('editor-choice');
    await form.getByLabel('Metadata (JSON)').fill('{"b": 2}');
    await form.getByLabel('Content').fill('Prefers helix now');
    await form.getByLabel('Content').press('Control+Enter');
    await form.waitFor({ state: 'detached' });
    const row = rowOf(page, 'Prefers helix now');
    await row.waitFor();
    expect(await row.textContent()).toContain('Procedural');
    expect(await row.textContent()).toContain('editor-choice');

    const { items } = await memoriesOf(apiKeyId);
    expect(items).toEqual([
      expect.objectContaining({ key: 'editor-choice', content: 'Prefers helix now', type: 'PROCEDURAL', metadata: { b: 2 } }),
    ]);
  });

  it('deletes a memory only after confirming in a dialog', async () => {
    const { page } = e2e;
    const apiKeyId = unique('delete');
    await importRows([
      { apiKeyId, key: 'doomed', content: 'Lives in Lisbon' },
      { apiKeyId, key: 'kept', content: 'Speaks Portuguese' },
    ]);
    await showKey(page, apiKeyId);
    await rowOf(page, 'Lives in Lisbon').waitFor();

    await page.getByRole('button', { name: 'Delete doomed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this memory?' });
    await dialog.waitFor();
    // The safe choice has the focus; Esc closes without deleting and returns the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete doomed');
    expect((await memoriesOf(apiKeyId)).totalCount).toBe(2);

    await page.getByRole('button', { name: 'Delete doomed' }).click();
    await dialog.getByRole('button', { name: 'Delete memory' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Deleted doomed.').waitFor();
    await rowOf(page, 'Lives in Lisbon').waitFor({ state: 'detached' });
    await rowOf(page, 'Speaks Portuguese').waitFor();
    expect((await memoriesOf(apiKeyId)).items.map((m) => m.key)).toEqual(['kept']);
  });

  it('exports every matching memory, not just the page, as a JSON file', async () => {
    const { page } = e2e;
    const apiKeyId = unique('export');
    await importRows(
      Array.from({ length: 27 }, (_, i) => ({
        apiKeyId,
        key: `x${String(i).padStart(2, '0')}`,
        content: `exported fact ${i}`,
        type: i % 3 === 0 ? 'EPISODIC' : 'FACTUAL',
      })),
    );
    await importRows([{ apiKeyId: `${apiKeyId}-other`, key: 'x99', content: 'another key entirely' }]);
    await showKey(page, apiKeyId);
    await page.getByText('1–20 of 27').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^mnemo-memories-${apiKeyId}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file).toMatchObject({ format: 'mnemo.memories', version: 1, count: 27, filters: { apiKeyId } });
    expect(file.memories).toHaveLength(27);
    expect(new Set(file.memories.map((m: { key: string }) => m.key)).size).toBe(27);
    expect(file.memories.every((m: { apiKeyId: string }) => m.apiKeyId === apiKeyId)).toBe(true);
    expect(file.memories[0]).toEqual({
      apiKeyId,
      sessionId: null,
      type: expect.any(String),
      key: expect.stringMatching(/^x\d\d$/),
      content: expect.stringMatching(/^exported fact/),
      metadata: {},
      createdAt: expect.any(String),
      expiresAt: null,
      validFrom: file.memories[0].createdAt,
      validTo: null,
    });
    await page.getByText('Exported 27 memories to a JSON file.').waitFor();

    // The type filter narrows the export too.
    await filterBar(page).getByLabel('Type').selectOption('EPISODIC');
    await page.getByText('1–9 of 9').waitFor();
    const [filtered] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(JSON.parse(readFileSync((await filtered.path())!, 'utf8')).count).toBe(9);
  });

  it('imports a file and reports imported, updated and rejected rows with the reason', async () => {
    const { page } = e2e;
    const apiKeyId = unique('import');
    await importRows([{ apiKeyId, key: 'existing', content: 'Old text' }]);
    const file = {
      format: 'mnemo.memories',
      version: 1,
      memories: [
        {
          apiKeyId,
          key: 'fresh',
          content: 'Brand new fact',
          type: 'FACTUAL',
          metadata: { from: 'file' },
          createdAt: daysAgo(3),
          expiresAt: null,
        },
        { apiKeyId, key: 'existing', content: 'New text for an existing key', type: 'SEMANTIC' },
        { apiKeyId, key: 'blank', content: '   ' },
      ],
    };

    await page.getByRole('button', { name: 'Import' }).click();
    const panel = page.getByRole('region', { name: 'Import memories' });
    await panel
      .getByLabel('JSON file')
      .setInputFiles({ name: 'memories.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await panel.getByRole('button', { name: 'Import 3 rows' }).click();
    const report = panel.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    const counts = await report.locator('dl > div').allTextContents();
    expect(counts).toEqual(['Imported1', 'Updated1', 'Rejected1']);
    const rejection = report.getByRole('row').filter({ hasText: 'blank' });
    expect(await rejection.textContent()).toContain('content must not be empty');
    expect(await rejection.textContent()).toMatch(/^3/);

    await showKey(page, apiKeyId);
    await rowOf(page, 'Brand new fact').waitFor();
    await rowOf(page, 'New text for an existing key').waitFor();
    const { items } = await memoriesOf(apiKeyId);
    expect(items.map((m) => m.key).sort()).toEqual(['existing', 'fresh']);
  });

  it('warns before importing rows that retention would hide, and counts them in the report', async () => {
    const { page } = e2e;
    const apiKeyId = unique('import-old');
    const rows = [
      { apiKeyId, key: 'ancient', content: 'Lived in Oslo', createdAt: daysAgo(800) },
      { apiKeyId, key: 'recent', content: 'Lives in Bergen', createdAt: daysAgo(2) },
    ];
    await page.getByRole('button', { name: 'Import' }).click();
    const panel = page.getByRole('region', { name: 'Import memories' });
    await panel
      .getByLabel('JSON file')
      .setInputFiles({ name: 'history.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rows)) });
    const warning = panel.getByRole('alert', { name: 'Rows that would be hidden' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('1 row was last written before the retention window');
    expect(await warning.textContent()).toMatch(/The purge deletes them from \w/);
    // The check stored nothing.
    expect((await memoriesOf(apiKeyId)).totalCount).toBe(0);

    await panel.getByRole('button', { name: 'Import 2 rows' }).click();
    const report = panel.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    expect(await report.locator('dl > div').allTextContents()).toEqual(['Imported2', 'Updated0', 'Rejected0', 'Outside retention1']);
  });

  it('forgets an API key only once the key is typed again, and says what it removed', async () => {
    const { page } = e2e;
    const apiKeyId = unique('forget');
    const other = unique('forget-other');
    await importRows([
      { apiKeyId, key: 'home', content: 'Lives in Ghent' },
      { apiKeyId, key: 'pet', content: 'Has a tabby cat' },
      { apiKeyId: other, key: 'home', content: 'Lives in Leuven' },
    ]);
    const forget = page.getByRole('button', { name: 'Forget this key' });
    expect(await forget.isDisabled()).toBe(true);
    await showKey(page, apiKeyId);
    await rowOf(page, 'Lives in Ghent').waitFor();

    await forget.click();
    const dialog = page.getByRole('dialog', { name: `Forget API key ${apiKeyId}?` });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Forget this key' });
    const typed = dialog.getByLabel('Type the API key to confirm');
    await typed.fill(apiKeyId.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await memoriesOf(apiKeyId)).totalCount).toBe(2);

    await forget.click();
    await typed.fill(apiKeyId);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Forgot ${apiKeyId}: 2 memories, 0 summaries, 0 archived originals, 0 vectors removed.`).waitFor();
    expect((await memoriesOf(apiKeyId)).totalCount).toBe(0);
    expect((await memoriesOf(other)).totalCount).toBe(1);
    expect(await filterBar(page).getByLabel('API key').inputValue()).toBe('');
  });

  it('rejects rows of the wrong shape without losing the rest of the batch', async () => {
    const { page } = e2e;
    const apiKeyId = unique('import-shape');
    const rows = [
      { apiKeyId, key: 'good', content: 'Fine row' },
      { apiKeyId, key: 'bad-date', content: 'x', createdAt: 'yesterday' },
      'not an object',
    ];
    await page.getByRole('button', { name: 'Import' }).click();
    const panel = page.getByRole('region', { name: 'Import memories' });
    await panel
      .getByLabel('JSON file')
      .setInputFiles({ name: 'rows.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rows)) });
    await panel.getByRole('button', { name: 'Import 3 rows' }).click();
    const report = panel.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    expect(await report.locator('dl > div').allTextContents()).toEqual(['Imported1', 'Updated0', 'Rejected2']);
    expect(await report.getByRole('row').filter({ hasText: 'bad-date' }).textContent()).toContain('createdAt must be an ISO 8601 date');
    expect(await report.getByRole('row').filter({ hasText: 'not a JSON object' }).textContent()).toMatch(/^3/);

    await panel
      .getByLabel('JSON file')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"memories": [') });
    await panel.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    expect(await panel.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
  });

  it('compacts old memories after a dry run, and undoes it', async () => {
    const { page } = e2e;
    const apiKeyId = unique('compact');
    const old = ['Likes green tea', 'Owns a bicycle', 'Works night shifts', 'Plays the cello', 'Reads comics', 'Cycles to work'];
    await importRows([
      ...[...old, 'Bakes bread', 'Grows tomatoes', 'Swims in the lake', 'Collects stamps'].map((content, i) => ({
        apiKeyId,
        key: `old-${i}`,
        content,
        createdAt: daysAgo(60 + i),
      })),
      { apiKeyId, key: 'recent', content: 'Started learning Rust', createdAt: daysAgo(2) },
    ]);
    await showKey(page, apiKeyId);
    await page.getByText('1–11 of 11').waitFor();

    await page.getByRole('button', { name: 'Compact old' }).click();
    const panel = page.getByRole('region', { name: 'Compact old memories' });
    await panel.getByLabel('API key').fill(apiKeyId);
    await panel.getByLabel('Older than (days)').fill('30');
    await panel.getByRole('button', { name: 'Preview (dry run)' }).click();
    const dryRun = panel.getByRole('region', { name: 'Dry run' });
    await dryRun.waitFor();
    expect(await dryRun.textContent()).toContain('10 memories');
    const figures = await dryRun.locator('dl > div').allTextContents();
    expect(figures[0]).toBe('Candidates10');
    expect(figures[3]).toMatch(/^Tokens saved[1-9]\d*$/);
    expect(await dryRun.textContent()).toContain('old-0');
    expect(await dryRun.textContent()).not.toContain('recent');
    // A dry run changes nothing.
    expect((await memoriesOf(apiKeyId)).items.every((m) => m.status === 'ACTIVE')).toBe(true);

    await dryRun.getByRole('button', { name: 'Confirm' }).click();
    const done = panel.getByRole('status').filter({ hasText: 'Compacted 10 memories into one summary' });
    await done.waitFor();
    expect(await done.textContent()).toMatch(/: [\d,]+ tokens became [\d,]+, [\d,]+ tokens? fewer\.$/);
    // The list refreshes: the summary replaces the ten originals.
    await page.getByText('1–2 of 2').waitFor();
    await rowOf(page, 'Summary of 10 earlier memories').waitFor();
    expect((await memoriesOf(apiKeyId)).items.filter((m) => m.status === 'ARCHIVED')).toHaveLength(10);

    // With archived memories shown, the originals carry their status badge.
    await filterBar(page).getByLabel('Show expired and archived').check();
    await page.getByText('1–12 of 12').waitFor();
    expect(await rowOf(page, 'old-0').textContent()).toContain('Archived');
    await filterBar(page).getByLabel('Show expired and archived').uncheck();

    await panel.getByRole('button', { name: 'Undo' }).click();
    await panel.getByRole('status').filter({ hasText: 'Undone: 10 memories restored' }).waitFor();
    await page.getByText('1–11 of 11').waitFor();
    const after = await memoriesOf(apiKeyId);
    expect(after.items.map((m) => m.key).sort()).toEqual([...Array.from({ length: 10 }, (_, i) => `old-${i}`), 'recent'].sort());
    expect(after.items.every((m) => m.status === 'ACTIVE')).toBe(true);
  });

  it('says why it compacts nothing when a summary would not be smaller than the memories', async () => {
    const { page } = e2e;
    const apiKeyId = unique('compact-small');
    await importRows(['Likes tea', 'Owns a cat'].map((content, i) => ({ apiKeyId, key: `old-${i}`, content, createdAt: daysAgo(60) })));
    await showKey(page, apiKeyId);
    await page.getByText('1–2 of 2').waitFor();
    await page.getByRole('button', { name: 'Compact old' }).click();
    const panel = page.getByRole('region', { name: 'Compact old memories' });
    await panel.getByLabel('API key').fill(apiKeyId);
    await panel.getByLabel('Older than (days)').fill('30');
    await panel.getByRole('button', { name: 'Preview (dry run)' }).click();
    await panel.getByRole('status').filter({ hasText: 'would not be smaller than the 2 memories it replaces' }).waitFor();
    expect(await panel.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    expect(await panel.textContent()).not.toMatch(/saving 0|Tokens saved0/);
    expect((await memoriesOf(apiKeyId)).items.every((m) => m.status === 'ACTIVE')).toBe(true);
  });

  it("shows the server's objection to a compaction's cut-off beside the field it names", async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Compact old' }).click();
    const panel = page.getByRole('region', { name: 'Compact old memories' });
    await panel.getByLabel('API key').fill(unique('compact-refused'));
    const days = panel.getByLabel('Older than (days)');
    await days.fill('5000');
    await panel.getByRole('button', { name: 'Preview (dry run)' }).click();
    await expect.poll(() => days.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await days.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^olderThanDays must be/);
    expect(await panel.getByRole('alert').textContent()).toBe('Compaction failed: see the fields marked above.');
    await page.keyboard.press('Escape');
  });

  it('blocks saving while the metadata is not a JSON object', async () => {
    const { page } = e2e;
    const apiKeyId = unique('meta');
    await page.getByRole('button', { name: 'Add memory' }).click();
    const form = page.getByRole('form', { name: 'Add memory' });
    await form.getByLabel('API key').fill(apiKeyId);
    await form.getByLabel('Content').fill('Has metadata');
    const metadata = form.getByLabel('Metadata (JSON)');
    const save = form.getByRole('button', { name: 'Save memory' });

    await metadata.fill('{"source": ');
    await form.getByText(/Not valid JSON/).waitFor();
    expect(await save.isDisabled()).toBe(true);
    expect(await metadata.getAttribute('aria-invalid')).toBe('true');

    await metadata.fill('["a", "b"]');
    await form.getByText('Metadata must be a JSON object like {"source": "chat"}, not an array.').waitFor();
    expect(await save.isDisabled()).toBe(true);

    await metadata.fill('{"source": "chat"}');
    await form.getByText('A JSON object; {} for none.').waitFor();
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await memoriesOf(apiKeyId)).items[0]?.metadata).toEqual({ source: 'chat' });

    // The inline editor checks the same way.
    await showKey(page, apiKeyId);
    await rowOf(page, 'Has metadata')
      .getByRole('button', { name: /^Edit / })
      .click();
    const edit = page.getByRole('form', { name: /^Edit memory/ });
    await edit.getByLabel('Metadata (JSON)').fill('42');
    await edit.getByText(/must be a JSON object/).waitFor();
    expect(await edit.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
  });

  it('pages with previous/next, numbered pages with gaps and "go to page", and sorts by column', async () => {
    const { page } = e2e;
    const apiKeyId = unique('paging');
    await importRows(
      Array.from({ length: 95 }, (_, i) => ({
        apiKeyId,
        key: `k${String(i).padStart(2, '0')}`,
        content: `paged fact ${i}`,
        createdAt: new Date(Date.now() - (95 - i) * 60_000).toISOString(),
      })),
    );
    await showKey(page, apiKeyId);
    await page.getByText('1–20 of 95').waitFor();
    await page.getByLabel('Rows per page').selectOption('10');
    await page.getByText('1–10 of 95').waitFor();
    const pages = page.getByRole('navigation', { name: 'Pages' });
    // Newest first: k94 leads page 1.
    expect(await dataRows(page).first().textContent()).toContain('k94');
    expect(await pages.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await pages.textContent()).toContain('…');

    await pages.getByRole('button', { name: 'Next' }).click();
    await page.getByText('11–20 of 95').waitFor();
    expect(await pages.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    await pages.getByRole('button', { name: 'Page 10' }).click();
    await page.getByText('91–95 of 95').waitFor();
    expect(await dataRows(page).count()).toBe(5);
    expect(await pages.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await page.getByLabel('Go to page').fill('6');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText('51–60 of 95').waitFor();
    expect(await pages.getByRole('button', { name: 'Page 6' }).getAttribute('aria-current')).toBe('page');
    expect(await pages.getByRole('button', { name: 'Page 5' }).isVisible()).toBe(true);
    expect(await pages.getByRole('button', { name: 'Page 7' }).isVisible()).toBe(true);
    await page.getByLabel('Go to page').fill('11');
    expect(await page.getByRole('button', { name: 'Go', exact: true }).isDisabled()).toBe(true);

    // Sorting by a column starts again at page 1; a second click reverses it.
    await table(page).getByRole('button', { name: 'Key', exact: true }).click();
    await page.getByText('1–10 of 95').waitFor();
    await expect.poll(() => dataRows(page).first().textContent()).toContain('k00');
    expect(await table(page).getByRole('columnheader', { name: 'Key', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    await table(page).getByRole('button', { name: 'Key', exact: true }).click();
    await expect.poll(() => dataRows(page).first().textContent()).toContain('k94');
    expect(await table(page).getByRole('columnheader', { name: 'Key', exact: true }).getAttribute('aria-sort')).toBe('descending');
  });

  it('shows the totals in the stat cards, and "No memories match" when nothing does', async () => {
    const { page } = e2e;
    const apiKeyId = unique('stats');
    await importRows([
      ...['Prefers window seats', 'Allergic to peanuts', 'Lives in Oslo'].map((content, i) => ({
        apiKeyId,
        key: `f${i}`,
        content,
        type: 'FACTUAL' as const,
      })),
      ...['Asked about flights to Rome', 'Booked a hotel in Milan'].map((content, i) => ({
        apiKeyId,
        key: `e${i}`,
        content,
        type: 'EPISODIC' as const,
        createdAt: daysAgo(14),
      })),
    ]);
    const tokens = (await memoriesOf(apiKeyId)).items.reduce((n, m) => n + m.tokens, 0);
    await showKey(page, apiKeyId);

    // The whole number: the total over every key, shown until the filter's answer comes, may contain a 5 too.
    await textOf(page.getByRole('group', { name: 'Total entries' })).toMatch(/^Total entries5matching/);
    expect(await page.getByRole('group', { name: 'Tokens used' }).textContent()).toContain(String(tokens));
    expect(await page.getByRole('group', { name: 'Hit rate' }).textContent()).toContain('—');
    expect(await page.getByRole('group', { name: 'Hit rate' }).textContent()).toContain('no retrievals yet');
    const byType = await page.getByRole('list', { name: 'Counts by type' }).getByRole('listitem').allTextContents();
    expect(byType).toEqual(['Factual3', 'Episodic2', 'Procedural0', 'Semantic0', 'Enforced0']);
    const weeks = await page.getByRole('img', { name: /^Memories created per week/ }).getAttribute('aria-label');
    expect(weeks).toContain('5 memories');

    await filterBar(page).getByLabel('Type').selectOption('EPISODIC');
    await textOf(page.getByRole('group', { name: 'Total entries' })).toContain('2');

    await filterBar(page).getByLabel('Search').fill('nothing-matches-this');
    await page.getByText('No memories match').waitFor();
    await textOf(page.getByRole('group', { name: 'Total entries' })).toContain('0');
  });

  it('says how many memories the retention window hides, and shows them on request', async () => {
    const { page } = e2e;
    const apiKeyId = unique('retention');
    await importRows([
      { apiKeyId, key: 'recent', content: 'Written last week', createdAt: daysAgo(7) },
      { apiKeyId, key: 'old-1', content: 'Written over a year ago', createdAt: daysAgo(400) },
      { apiKeyId, key: 'old-2', content: 'Written two years ago', createdAt: daysAgo(730) },
    ]);
    await showKey(page, apiKeyId);
    await page.getByText('1–1 of 1').waitFor();
    const hint = page.getByRole('note').filter({ hasText: 'retention window' });
    await hint.waitFor();
    expect(await hint.textContent()).toContain('2 memories older than the 365-day retention window are hidden: kept, but never injected.');
    await hint.getByRole('button', { name: 'Show them' }).click();
    await page.getByText('1–3 of 3').waitFor();
    expect(await filterBar(page).getByLabel('Show expired and archived').isChecked()).toBe(true);
    expect(await rowOf(page, 'old-2').textContent()).toContain('Out of retention');
    await hint.waitFor({ state: 'detached' });
  });

  it('keeps the page and the page size in the URL, so they survive a reload', async () => {
    const { page } = e2e;
    await importRows(Array.from({ length: 45 }, (_, i) => ({ apiKeyId: unique('url-state'), content: `url state fact ${i}` })));
    await page.reload();
    await page.getByLabel('Rows per page').selectOption('10');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 3' }).click();
    await page.getByText(/^21–30 of /).waitFor();
    const hash = await page.evaluate(() => window.location.hash);
    expect(hash.split('?')[0]).toBe('#/memories');
    expect(Object.fromEntries(new URLSearchParams(hash.split('?')[1]))).toEqual({ page: '3', size: '10' });
    await page.reload();
    await page.getByText(/^21–30 of /).waitFor();
    expect(await page.getByLabel('Rows per page').inputValue()).toBe('10');
    expect(await page.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
  });

  it('says how a search was read: "c++" is the beginning "c" of a word', async () => {
    const { page } = e2e;
    const apiKeyId = unique('cpp');
    await importRows([
      { apiKeyId, key: 'cpp', content: 'Writes C++ at work' },
      { apiKeyId, key: 'coffee', content: 'Drinks coffee' },
    ]);
    await showKey(page, apiKeyId);
    await filterBar(page).getByLabel('Search').fill('c++');
    await page.getByText('1–2 of 2').waitFor();
    const readAs = page.locator('.mem-read-as');
    await readAs.waitFor();
    expect(await readAs.textContent()).toBe('Read as c*: * matches any word starting with c; punctuation and symbols are not searched.');
  });

  it('suggests the API keys that have memories, with how many, however many pages away', async () => {
    const { page } = e2e;
    const apiKeyId = unique('suggested');
    await importRows(Array.from({ length: 3 }, (_, i) => ({ apiKeyId, content: `suggested fact ${i}` })));
    const input = filterBar(page).getByLabel('API key');
    await input.fill(apiKeyId.slice(0, -2));
    const option = page.locator(`datalist option[value="${apiKeyId}"]`);
    await option.waitFor({ state: 'attached' });
    expect(await option.getAttribute('label')).toBe('3 memories');
  });

  it('closes the Add, Import and Compact panels with Esc and gives the focus back to their buttons', async () => {
    const { page } = e2e;
    for (const [button, panel] of [
      ['Add memory', page.getByRole('form', { name: 'Add memory' })],
      ['Import', page.getByRole('region', { name: 'Import memories' })],
      ['Compact old', page.getByRole('region', { name: 'Compact old memories' })],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await panel.waitFor();
      await expect.poll(() => panel.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(button);
      expect(await page.getByRole('button', { name: button, exact: true }).getAttribute('aria-expanded')).toBe('false');
    }
  });

  it('refuses to save a memory without its API key or content, beside the fields', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Add memory' }).click();
    const form = page.getByRole('form', { name: 'Add memory' });
    await form.getByLabel('API key').fill('');
    await form.getByRole('button', { name: 'Save memory' }).click();
    const apiKey = form.getByLabel('API key');
    await expect.poll(() => apiKey.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await apiKey.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('API key is required.');
    expect(await form.getByLabel('Content').getAttribute('aria-invalid')).toBe('true');
    expect(await apiKey.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it("shows the server's objection to an inline edit beside the field it names", async () => {
    const { page } = e2e;
    const apiKeyId = unique('edit-refused');
    await importRows([{ apiKeyId, key: 'old-expiry', content: 'Expires in the past' }]);
    await showKey(page, apiKeyId);
    await page.getByRole('button', { name: 'Edit old-expiry' }).click();
    const form = page.getByRole('form', { name: 'Edit memory old-expiry' });
    const expiry = form.getByLabel('Expires at');
    await expiry.fill('1960-01-01T10:00');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => expiry.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await expiry.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^expiresAt must be between 1970/);
    expect(await form.getByRole('alert').textContent()).toBe('Not saved: see the fields marked above.');
  });

  it('looks right with data (docs/memories.png)', async () => {
    const { page } = e2e;
    const apiKeyId = 'acme-support';
    const facts: [MemoryType, string, string, number][] = [
      ['FACTUAL', 'user.timezone', 'Works from Berlin (CET) and prefers meetings before noon', 1],
      ['FACTUAL', 'user.editor', 'Uses VS Code with the Vim keybindings extension', 4],
      ['PROCEDURAL', 'deploy.checklist', 'Run the migration dry run, then tag the release and deploy with make release', 6],
      ['EPISODIC', 'ticket.4821', 'Reported that CSV exports drop the last row when the file is larger than 10 MB', 9],
      ['SEMANTIC', 'product.tiers', 'Acme has three plans: Starter, Team and Enterprise; only Enterprise has SSO', 12],
      ['ENFORCED', 'policy.pii', 'Never repeat customer email addresses or phone numbers back in answers', 20],
      ['FACTUAL', 'user.language', 'Prefers answers in English, with code comments in German', 23],
      ['EPISODIC', 'ticket.4790', 'Asked how to rotate API tokens without downtime', 30],
      ['PROCEDURAL', 'support.escalation', 'Escalate billing disputes above 500 EUR to the finance queue', 37],
      ['FACTUAL', 'account.plan', 'On the Team plan since March, 14 seats', 45],
      ['SEMANTIC', 'product.regions', 'Data is stored in Frankfurt; a US region is planned', 52],
      ['EPISODIC', 'ticket.4702', 'Had trouble with webhook retries after a 502 from their proxy', 60],
    ];
    const rows: Row[] = facts.map(([type, key, content, age], i) => ({
      apiKeyId,
      type,
      key,
      content,
      sessionId: i % 3 === 0 ? 'onboarding' : undefined,
      createdAt: daysAgo(age),
      metadata: i % 2 ? { source: 'chat' } : {},
    }));
    for (let i = 0; i < 26; i++)
      rows.push({
        apiKeyId,
        type: i % 4 ? 'EPISODIC' : 'FACTUAL',
        key: `chat.note-${i}`,
        content: `Follow-up from support chat #${1200 + i}: customer confirmed the fix worked`,
        createdAt: daysAgo((i * 7) % 75),
      });
    await importRows(rows);
    // A few gateway retrievals, one of which finds nothing, so the hit rate has a value.
    await e2e.gql(UPDATE_SETTINGS, { input: { enabled: true } });
    const retrievals: [query: string, types?: MemoryType[]][] = [
      ['timezone'],
      ['deploy release'],
      ['plans'],
      ['webhook retries'],
      ['kubernetes', ['SEMANTIC']],
    ];
    for (const [query, types] of retrievals) {
      await e2e.gql(RETRIEVE, {
        input: { apiKeyId, query, types, strategy: 'HYBRID' },
      });
    }
    await showKey(page, apiKeyId);
    await page.getByText('1–20 of 38').waitFor();
    await textOf(page.getByRole('group', { name: 'Hit rate' })).toContain('%');
    await page.getByRole('status', { name: /^Memory store healthy/ }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(0, 0);
    await screenshot(page, 'memories');
  });
});

describe('captured turns in the Memories tab', () => {
  // extractFacts stores nothing while memory is off, as it starts in these tests.
  beforeAll(() => e2e.gql(UPDATE_SETTINGS, { input: { enabled: true } }));
  afterAll(() => e2e.gql(UPDATE_SETTINGS, { input: { enabled: false } }));

  /** A user message said in a session: captured as a turn (captureTurns is USER by default), any facts linked to it. */
  async function say(apiKeyId: string, sessionId: string, text: string) {
    const { extractFacts } = await e2e.gql(EXTRACT_FACTS, { input: { apiKeyId, sessionId, role: 'USER', text } });
    expect(extractFacts).toMatchObject({ error: null, skipped: null });
    expect(extractFacts.captured).not.toEqual([]);
    return extractFacts;
  }

  it('shows only the captured turns, or only the facts, and keeps the choice in the URL', async () => {
    const { page } = e2e;
    const apiKeyId = unique('show');
    const { memories } = await say(apiKeyId, 's1', 'I like green tea.');
    expect(memories).toHaveLength(1);
    const turn = rowOf(page, 'I like green tea.');
    const fact = rowOf(page, memories[0]!.content);
    await showKey(page, apiKeyId);
    await expect.poll(() => dataRows(page).count(), { timeout: 10_000 }).toBe(2);
    const show = filterBar(page).getByRole('combobox', { name: 'Show' });

    await show.selectOption({ label: 'Captured turns' });
    await expect.poll(() => fact.count(), { timeout: 10_000 }).toBe(0);
    await turn.getByText('turn · user').waitFor();

    await show.selectOption({ label: 'Facts' });
    await expect.poll(() => turn.count(), { timeout: 10_000 }).toBe(0);
    await fact.waitFor();

    await page.reload();
    await expect.poll(() => show.inputValue()).toBe('FACTS');
  });

  it("says which session a fact was said in, and reads that session's conversation in the order it was said", async () => {
    const { page } = e2e;
    const apiKeyId = unique('said');
    const { memories } = await say(apiKeyId, 's1', 'I like green tea.');
    await say(apiKeyId, 's1', 'My sneakers are in the garage closet.');
    await say(apiKeyId, 's2', 'I am allergic to peanuts.');
    await showKey(page, apiKeyId);
    await filterBar(page).getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Facts' });

    expect(memories).toHaveLength(1);
    // By id: the previous test's key has a fact of the same words, whose row shows until this key's list has arrived.
    const fact = table(page).locator(`tbody tr[data-memory-id="${memories[0]!.id}"]`);
    await fact.getByText(/said in session s1, extracted/).waitFor();
    await fact.getByRole('button', { name: 'Read the conversation of session s1' }).click();

    const conversation = page.getByRole('region', { name: 'Conversation of session s1' });
    const messages = conversation.getByRole('listitem');
    await expect
      .poll(() => messages.allInnerTexts(), { timeout: 10_000 })
      .toEqual([
        expect.stringMatching(/^user · .* · 1 fact taken from it\s+I like green tea\.$/),
        expect.stringMatching(/^user · .*\s+My sneakers are in the garage closet\.$/),
      ]);
    await screenshot(page, 'conversation');

    await conversation.getByRole('button', { name: 'Show as table' }).click();
    await expect.poll(() => filterBar(page).getByLabel('Session').inputValue()).toBe('s1');
    await expect.poll(() => filterBar(page).getByRole('combobox', { name: 'Show' }).inputValue()).toBe('TURNS');
    await expect.poll(() => dataRows(page).count(), { timeout: 10_000 }).toBe(2);
  });

  it('shows a long message, captured in parts, as the one message it was', async () => {
    const { page } = e2e;
    const apiKeyId = unique('long');
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i + 1} of a long story about the garden.`).join(' ');
    await say(apiKeyId, 's1', long);
    await showKey(page, apiKeyId);
    await filterBar(page).getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Captured turns' });
    await expect.poll(() => dataRows(page).count(), { timeout: 10_000 }).toBe(3);
    await dataRows(page).first().getByRole('button', { name: 'Read the conversation of session s1' }).click();
    const messages = page.getByRole('region', { name: 'Conversation of session s1' }).getByRole('listitem');
    await expect.poll(() => messages.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining(long)]);
  });

  it('closes the conversation and gives the focus back to the button that opened it', async () => {
    const { page } = e2e;
    const apiKeyId = unique('close');
    await say(apiKeyId, 's1', 'My sneakers are in the garage closet.');
    await showKey(page, apiKeyId);
    await expect.poll(() => dataRows(page).count(), { timeout: 10_000 }).toBe(1);
    const open = rowOf(page, 'My sneakers are in the garage closet.').getByRole('button', { name: 'Read the conversation of session s1' });
    await open.click();
    const conversation = page.getByRole('region', { name: 'Conversation of session s1' });
    await conversation.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => conversation.count()).toBe(0);
    await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

describe('the extraction model in the Memories tab', () => {
  beforeAll(() => e2e.gql(UPDATE_SETTINGS, { input: { extractionModel: 'openai/gpt-4o-mini', extractionModelDailyTokens: 5000 } }));
  afterAll(() => e2e.gql(UPDATE_SETTINGS, { input: { extractionModel: null } }));

  it("shows the tokens the extraction model used today for the key shown, against the key's daily budget", async () => {
    const { page } = e2e;
    const apiKeyId = unique('usage');
    await importRows([{ apiKeyId, key: 'k', content: 'Something' }]);
    await showKey(page, apiKeyId);
    const usage = page.getByRole('note').filter({ hasText: 'Extraction model openai/gpt-4o-mini' });
    await textOf(usage).toContain(`0 of 5,000 tokens used today by ${apiKeyId}`);
  });
});
