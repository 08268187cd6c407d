import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { IMPORT_MEMORIES, type MemoryInput, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type E2E, fillPlaygroundApiKey, horizontalOverflow, screenshot, seriousAxeViolations, startE2E, WIDTHS } from './harness.ts';

const SETS = graphql(`
  query EvaluateE2ESets($apiKeyId: String!) {
    evaluationSets(apiKeyId: $apiKeyId) {
      name
      runCount
      questions {
        question
        expected {
          key
        }
      }
    }
  }
`);

const SETTINGS = graphql(`
  query EvaluateE2ESettings {
    memorySettings {
      maxTokens
    }
  }
`);

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  const memories: MemoryInput[] = [
    { apiKeyId: 'acme', key: 'theme', content: 'The user prefers a dark editor theme in VS Code and in the terminal.' },
    { apiKeyId: 'acme', key: 'deploys', content: 'The team deploys to production on Tuesdays after the standup.' },
    { apiKeyId: 'acme', key: 'tests', content: 'Run the test suite with npm test before opening a pull request.' },
    { apiKeyId: 'acme', key: 'city', content: 'The user lives in Lisbon, near the river.' },
  ];
  await e2e.gql(IMPORT_MEMORIES, { memories });
  await e2e.gql(UPDATE_SETTINGS, { input: { enabled: true, maxTokens: 2000 } });
  // Read again with memory on: the page was signed in before.
  await e2e.page.reload();
}, 60_000);
afterAll(() => e2e?.close());

/** Opens the Evaluate tab on the key, once the field holds the most recent key the server names. */
async function openEvaluate(page: Page, apiKeyId: string) {
  await page.getByRole('tab', { name: 'Evaluate' }).click();
  await page.getByRole('heading', { level: 1, name: 'Evaluate' }).waitFor();
  const field = page.getByRole('region', { name: 'Evaluation set' }).getByLabel('API key');
  await field.and(page.locator(':not(:placeholder-shown)')).waitFor();
  await field.fill(apiKeyId);
}

const runsTable = (page: Page) => page.getByRole('region', { name: 'Runs table' });

describe('the Evaluate tab', () => {
  it('writes and imports questions, runs them with the saved settings and with a draft, and shows what changed', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openEvaluate(page, 'acme');
    await page.getByText('This key has no evaluation set yet').waitFor();
    await page.getByLabel('New set').fill('editor questions');
    await page.getByRole('button', { name: 'Create set' }).click();
    await page.getByRole('heading', { name: 'Questions' }).waitFor();

    // A question written in the tab, its memory found by search.
    const write = page.getByRole('form', { name: 'Write a question' });
    await write.getByLabel('Question').fill('Which theme?');
    await write.getByLabel('Memory it should find').fill('dark theme');
    await write.getByRole('button', { name: 'Expect: theme' }).click();
    await write.getByRole('list', { name: 'Expected memories' }).getByText('theme').waitFor();
    await write.getByRole('button', { name: 'Add question' }).click();
    await page.getByRole('cell', { name: 'Which theme?', exact: true }).waitFor();

    // Edited in place: its words, its memories kept.
    await page.getByRole('button', { name: 'Edit “Which theme?”' }).click();
    const edit = page.getByRole('form', { name: 'Edit the question' });
    await edit.getByLabel('Question').fill('Which editor theme does the user like?');
    await edit.getByRole('button', { name: 'Save question' }).click();
    await page.getByRole('cell', { name: 'Which editor theme does the user like?', exact: true }).waitFor();

    // JSONL: the good lines are added, the bad one is reported by its number.
    const jsonl = [
      JSON.stringify({ question: 'When does the team deploy to production?', expected: ['deploys'] }),
      JSON.stringify({ question: 'Where is the office?', expected: ['no-such-key'] }),
      JSON.stringify({ question: 'In which city does the user live, Lisbon?', expected: ['city'] }),
    ].join('\n');
    const importForm = page.getByRole('form', { name: 'Import questions' });
    await importForm.getByLabel('One question per line').fill(jsonl);
    await importForm.getByRole('button', { name: 'Import' }).click();
    const report = importForm.getByRole('status');
    await report.getByText('2 questions added, 1 line not:').waitFor();
    expect(await report.textContent()).toContain('Line 2: API key "acme" has no memory with the id or key "no-such-key"');
    await page.getByRole('button', { name: 'Run 3 questions' }).waitFor();

    // With the saved settings: every question finds its memory first.
    await page.getByRole('button', { name: 'Run 3 questions' }).click();
    await e2e.explained(runsTable(page).getByRole('row').nth(1).waitFor());
    expect(await runsTable(page).getByRole('row').nth(1).textContent()).toMatch(/saved100%100%100%1\.000/);

    // With a draft whose budget holds no memory: every question misses, and the saved budget stays.
    await page.getByRole('radio', { name: 'A draft' }).check();
    await page.getByLabel('Token budget').fill('1');
    await page.getByRole('button', { name: 'Run 3 questions' }).click();
    await runsTable(page).getByRole('row').nth(2).waitFor();
    expect(await runsTable(page).getByRole('row').nth(1).textContent()).toMatch(/draft: budget 1 tokens0%0%0%0\.000/);
    expect((await e2e.gql(SETTINGS)).memorySettings.maxTokens).toBe(2000);

    const difference = page.getByRole('region', { name: 'Difference' });
    const perMetric = difference.getByLabel('Change per metric');
    await perMetric.waitFor();
    expect(await perMetric.textContent()).toContain('Hit@1-100%');
    const changed = await difference.getByRole('list', { name: 'Questions that changed' }).getByRole('listitem').allTextContents();
    expect(changed).toHaveLength(3);
    expect(changed[0]).toBe('newly missed Which editor theme does the user like? (#1 → missed)');

    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'evaluate', { fullPage: true });
  }, 120_000);

  for (const width of WIDTHS) {
    it(`fits ${width} px without scrolling sideways and has no serious or critical axe violation`, async () => {
      const { page } = e2e;
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await openEvaluate(page, 'acme');
      await runsTable(page).getByText('draft: budget 1 tokens').waitFor();
      await page.getByRole('list', { name: 'Questions that changed' }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && document.getAnimations().length === 0);
      const { overflow, culprits } = await horizontalOverflow(page);
      expect(overflow, `Evaluate at ${width} px scrolls sideways: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }, 60_000);
  }
});

describe('a draft the server refuses', () => {
  it('says what is wrong beside the field, and keeps no run', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openEvaluate(page, 'acme');
    await page.getByRole('radio', { name: 'A draft' }).check();
    const budget = page.getByLabel('Token budget');
    await budget.fill('lots');
    await page.getByRole('button', { name: 'Run 3 questions' }).click();
    await page.getByText('The token budget must be a number.').waitFor();
    await budget.fill('2000');
    const share = page.getByLabel('Hybrid vector share');
    await share.fill('2');
    await page.getByRole('button', { name: 'Run 3 questions' }).click();
    await e2e.explained(page.getByText('must be at most 1').waitFor());
    expect(await share.getAttribute('aria-invalid')).toBe('true');
    const [set] = (await e2e.gql(SETS, { apiKeyId: 'acme' })).evaluationSets;
    expect(set!.runCount).toBe(2);
  }, 60_000);
});

describe('keeping a Playground query as an evaluation question', () => {
  it('adds the query with a result marked Right, or with a memory it missed, to the chosen set', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('tab', { name: 'Playground' }).click();
    await page.getByLabel('Query').fill('Which editor theme does the user prefer?');
    await fillPlaygroundApiKey(page, 'acme');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const keep = page.getByRole('region', { name: 'Keep as an evaluation question' });
    await keep.getByLabel('Evaluation set').waitFor();

    await page.getByRole('region', { name: 'Ranked results' }).getByRole('button', { name: 'Right: theme' }).click();
    await keep.getByRole('status').getByText('Kept in “editor questions”: this question should find theme.').waitFor();

    await keep.getByLabel('Missing a memory').fill('Lisbon');
    await keep.getByRole('button', { name: 'Missing: city' }).click();
    await keep.getByRole('status').getByText('should find city, which it missed').waitFor();

    const [set] = (await e2e.gql(SETS, { apiKeyId: 'acme' })).evaluationSets;
    expect(set!.questions.slice(-2)).toEqual([
      { question: 'Which editor theme does the user prefer?', expected: [{ key: 'theme' }] },
      { question: 'Which editor theme does the user prefer?', expected: [{ key: 'city' }] },
    ]);
  }, 60_000);
});
