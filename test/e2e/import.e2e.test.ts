import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2eMemoryCountDocument } from '../generated/graphql.ts';
import { type E2E, horizontalOverflow, screenshot, seriousAxeViolations, startE2E, WIDTHS } from './harness.ts';

// The Data tab's Import card: a file sent to the server, a dry run first, then the import (server side:
// test/server/fileImport.test.ts).

const FIXTURES = path.join(import.meta.dirname, '../fixtures/import');

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const countOf = async (apiKeyId: string) => (await e2e.gql(E2eMemoryCountDocument, { apiKeyId })).memories.totalCount;
const card = (page: Page) => page.getByRole('region', { name: 'Import memories' });

async function chooseFile(page: Page, format: string, fixture: string) {
  await page.goto(`${e2e.url}/admin/#/data`);
  await page.getByRole('heading', { level: 1, name: 'Data' }).waitFor();
  await card(page).getByLabel('Format').selectOption({ label: format });
  await card(page)
    .getByLabel('File', { exact: true })
    .setInputFiles({ name: fixture, mimeType: 'application/octet-stream', buffer: readFileSync(path.join(FIXTURES, fixture)) });
}

/** The outcome table of a report: label and count. */
const outcomesOf = (report: ReturnType<Page['getByRole']>) =>
  report
    .getByRole('table')
    .evaluate((table) => [...table.querySelectorAll('tr')].map((tr) => [tr.cells[0]?.textContent, tr.cells[1]?.textContent]));

describe('the Import card', () => {
  it('runs a dry run first: the count of each outcome and the skipped rows with their reasons, with nothing stored', async () => {
    const { page } = e2e;
    await chooseFile(page, 'CSV with a header row', 'memories.csv');
    await card(page).getByRole('button', { name: 'Dry run' }).click();
    const report = card(page).getByRole('region', { name: 'Dry run of memories.csv: 6 rows read, nothing stored' });
    await e2e.explained(report.waitFor());
    expect(await outcomesOf(report)).toEqual([
      ['New', '3'],
      ['Updated', '0'],
      ['Merged', '0'],
      ['Skipped', '3'],
    ]);
    expect(await report.getByRole('listitem').allTextContents()).toEqual([
      'line 6: type "MOOD" is not one of factual, episodic, procedural, semantic, enforced',
      'line 7: 9 cells where the header names 8',
      'line 8: metadata is not JSON',
    ]);
    expect(await countOf('key-dana')).toBe(0);
  });

  it('imports the rows once the dry run has shown them, and says what each became', async () => {
    const { page } = e2e;
    await chooseFile(page, 'mnemo JSON lines', 'memories.jsonl');
    await card(page).getByRole('button', { name: 'Dry run' }).click();
    await card(page).getByRole('button', { name: 'Import 5 rows' }).click();
    const report = card(page).getByRole('region', { name: 'Imported memories.jsonl: 5 rows read' });
    await e2e.explained(report.waitFor());
    expect(await outcomesOf(report)).toEqual([
      ['New', '2'],
      ['Updated', '0'],
      ['Merged', '0'],
      ['Skipped', '3'],
    ]);
    expect(await countOf('key-carol')).toBe(2);
    await report.getByRole('link', { name: 'See them in Memories' }).waitFor();
  });

  it("offers mem0's options with mem0 only, and shows the server's refusal of a file of another format", async () => {
    const { page } = e2e;
    await chooseFile(page, 'mem0 export (JSON)', 'letta.af');
    for (const option of ['API key (optional)', 'API key from', 'Session from']) await card(page).getByLabel(option).waitFor();
    await card(page).getByRole('button', { name: 'Dry run' }).click();
    const refusal = card(page).getByRole('alert');
    await e2e.explained(refusal.waitFor());
    expect(await refusal.textContent()).toBe(
      'letta.af is not a mem0 export: expected { "results": [...] } or a list of memories BAD_USER_INPUT',
    );
    await card(page).getByLabel('Format').selectOption({ label: 'mnemo JSON lines' });
    expect(await card(page).getByLabel('Session from').count()).toBe(0);
  });

  it('fits a laptop, a tablet and a phone, with no sideways scroll and no serious accessibility violation', async () => {
    const { page } = e2e;
    await chooseFile(page, 'CSV with a header row', 'memories.csv');
    await card(page).getByRole('button', { name: 'Dry run' }).click();
    await card(page).getByRole('button', { name: 'Import 6 rows' }).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      expect(await horizontalOverflow(page)).toEqual({ overflow: 0, culprits: [] });
      expect(await seriousAxeViolations(page)).toEqual([]);
      // The whole tab on a laptop; on a phone, the dry run's report, under the header that stays on top.
      if (width === 1280) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'data-import', { fullPage: true });
      } else {
        await card(page).getByRole('region').scrollIntoViewIfNeeded();
        await screenshot(page, `data-import-${width}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
