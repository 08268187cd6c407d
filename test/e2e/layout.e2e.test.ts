import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_TOKEN, IMPORT_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import {
  type AxeViolation,
  type E2E,
  fillPlaygroundApiKey,
  horizontalOverflow,
  modelApiEnv,
  screenshot,
  seriousAxeViolations,
  startE2E,
  WIDTHS,
} from './harness.ts';

const TABS = ['Memories', 'Playground', 'Evaluate', 'Engine', 'Settings', 'Access', 'Data', 'Audit log'] as const;
const HEADINGS: Record<(typeof TABS)[number], string> = {
  Memories: 'Memories',
  Playground: 'Retrieval playground',
  Evaluate: 'Evaluate',
  Engine: 'Engine',
  Settings: 'Settings',
  Access: 'Access',
  Data: 'Data',
  'Audit log': 'Audit log',
};

const CREATE_SET = graphql(`
  mutation LayoutCreateSet($apiKeyId: String!, $name: String!) {
    createEvaluationSet(apiKeyId: $apiKeyId, name: $name) {
      id
    }
  }
`);

const IMPORT_QUESTIONS = graphql(`
  mutation LayoutImportQuestions($apiKeyId: String!, $setId: ID!, $jsonl: String!) {
    importEvaluationQuestions(apiKeyId: $apiKeyId, setId: $setId, jsonl: $jsonl) {
      errors {
        message
      }
    }
  }
`);

const RUN = graphql(`
  mutation LayoutRunEvaluation($apiKeyId: String!, $setId: ID!, $settingsDraft: EvaluationSettingsDraft) {
    runEvaluation(apiKeyId: $apiKeyId, setId: $setId, settingsDraft: $settingsDraft) {
      id
    }
  }
`);

let e2e: E2E;
let api: ModelApiDouble;

beforeAll(async () => {
  // Every tab with something in it: memories, a provider from the environment (embedding and rerank), tokens, and
  // a simulated retrieval in the Playground.
  api = await startModelApi();
  e2e = await startE2E({
    env: modelApiEnv(api),
  });
  const facts = [
    'Works from Berlin and prefers meetings before noon',
    'Uses VS Code with the Vim keybindings extension',
    'Deploys with make release after the migration dry run',
    'Reported that CSV exports drop the last row of files larger than 10 MB',
    'On the Team plan since March, 14 seats',
  ];
  await e2e.gql(IMPORT_MEMORIES, {
    memories: facts.map((content, i) => ({ apiKeyId: 'acme-support', key: `fact-${i}`, content, sessionId: i % 2 ? 'onboarding' : null })),
  });
  await e2e.gql(UPDATE_SETTINGS, { input: { enabled: true, rerankEnabled: true } });
  const { id: setId } = (await e2e.gql(CREATE_SET, { apiKeyId: 'acme-support', name: 'support questions' })).createEvaluationSet;
  await e2e.gql(IMPORT_QUESTIONS, {
    apiKeyId: 'acme-support',
    setId,
    jsonl: [
      { question: 'Where does the user work?', expected: ['fact-0'] },
      { question: 'Which editor keybindings?', expected: ['fact-1'] },
      { question: 'How many seats are on the plan?', expected: ['fact-4'] },
    ]
      .map((q) => JSON.stringify(q))
      .join('\n'),
  });
  await e2e.gql(RUN, { apiKeyId: 'acme-support', setId });
  await e2e.gql(RUN, { apiKeyId: 'acme-support', setId, settingsDraft: { maxTokens: 20 } });
  for (const name of ['gateway-eu-1', 'gateway-us-1']) {
    await e2e.gql(CREATE_TOKEN, {
      input: { name, apiKeyId: 'acme-support' },
    });
  }
}, 60_000);

afterAll(async () => {
  await e2e?.close();
  await api?.close();
});

/** One line per element axe-core found, with what is wrong: readable in a failing test's output. */
const summary = (violations: AxeViolation[]) =>
  violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));

async function openTab(name: (typeof TABS)[number]) {
  const { page } = e2e;
  await page.getByRole('tab', { name }).click();
  await page.getByRole('heading', { level: 1, name: HEADINGS[name] }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('every tab at every width', () => {
  for (const width of WIDTHS) {
    it(`fits ${width} px without scrolling sideways and has no serious or critical axe violation`, async () => {
      const { page } = e2e;
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      for (const tab of TABS) {
        await openTab(tab);
        if (tab === 'Playground') {
          await fillPlaygroundApiKey(page, 'acme-support');
          await page.getByLabel('Query').fill('where does the user work');
          await page.getByRole('button', { name: 'Simulate' }).click();
          await e2e.explained(page.locator('.pg-grid[aria-busy="false"]').getByRole('table').waitFor());
        }
        if (tab === 'Evaluate') await e2e.explained(page.getByLabel('Questions that changed').waitFor());
        // axe-core reads colours as painted: a list dimmed while it refreshes (aria-busy), or a fade still running
        // as it settles, is not the page.
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && document.getAnimations().length === 0);
        // Every tab stays visible in the top bar, however narrow.
        for (const name of TABS) expect(await page.getByRole('tab', { name }).isVisible(), `${name} tab at ${width} px`).toBe(true);
        const { overflow, culprits } = await horizontalOverflow(page);
        expect(overflow, `${tab} at ${width} px scrolls sideways: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
        expect(summary(await seriousAxeViolations(page)), `${tab} at ${width} px`).toEqual([]);
        if (width === 390) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, `${tab.toLowerCase().replace(' ', '-')}-390`);
        }
      }
    }, 120_000);
  }

  it('keeps every radio button its normal size at 390 px', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['Engine', 'Playground'] as const) {
      await openTab(tab);
      const radios = await page.getByRole('radio').all();
      expect(radios.length, `radios on ${tab}`).toBeGreaterThan(0);
      for (const radio of radios) {
        const name = await radio.evaluate((el) => el.closest('label')?.textContent ?? '');
        expect((await radio.boundingBox())?.width, `the ${name} radio on ${tab}`).toBeGreaterThanOrEqual(12);
      }
    }
  });

  it('keeps wide tables inside their own box, which the keyboard can scroll', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await openTab('Access');
    const region = page.getByRole('region', { name: 'Access tokens table' });
    expect(await region.getAttribute('tabindex')).toBe('0');
    const box = await region.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(box.scroll).toBeGreaterThan(box.client);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // The Revoke buttons are reached by scrolling the table, never off the page.
    await page.getByRole('button', { name: /^Revoke gateway-eu-1/ }).scrollIntoViewIfNeeded();
    expect((await horizontalOverflow(page)).overflow).toBeLessThanOrEqual(0);
  });
});

describe('the top tabs (WAI-ARIA tabs pattern)', () => {
  it('are one tab stop; arrow keys, Home and End move between them and open them', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openTab('Memories');
    const tablist = page.getByRole('tablist', { name: 'Sections' });
    expect(await tablist.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
    await page.getByRole('tab', { name: 'Memories' }).focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    const selected = () => tablist.locator('[aria-selected="true"]').textContent();

    await page.keyboard.press('ArrowRight');
    await expect.poll(selected).toBe('Playground');
    expect(await focused()).toBe('Playground');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/playground');
    await page.getByRole('heading', { level: 1, name: 'Retrieval playground' }).waitFor();

    await page.keyboard.press('End');
    await expect.poll(selected).toBe('Audit log');
    expect(await focused()).toBe('Audit log');
    await page.keyboard.press('ArrowRight');
    await expect.poll(selected).toBe('Memories');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(selected).toBe('Audit log');
    await page.keyboard.press('Home');
    await expect.poll(selected).toBe('Memories');
    expect(await page.getByRole('tab', { name: 'Memories' }).getAttribute('tabindex')).toBe('0');
    expect(await page.getByRole('tab', { name: 'Audit log' }).getAttribute('tabindex')).toBe('-1');
  });

  it('put the page in one main landmark with the tab panel inside it', async () => {
    const { page } = e2e;
    expect(await page.getByRole('main').count()).toBe(1);
    const panel = page.getByRole('main').getByRole('tabpanel');
    expect(await panel.getAttribute('aria-labelledby')).toBe('tab-memories');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  });
});

describe('loading the app', () => {
  it('gets its script brotli-compressed, cached for good, and told apart by Accept-Encoding', async () => {
    const page = await e2e.context.newPage();
    try {
      const script = page.waitForResponse((r) => /\/admin\/assets\/index-[^/]+\.js$/.test(r.url()));
      await page.goto(`${e2e.url}/admin/`);
      const res = await script;
      const headers = await res.allHeaders();
      expect(headers['content-encoding']).toBe('br');
      expect(headers.vary).toBe('Accept-Encoding');
      expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const sizes = await res.request().sizes();
      expect(sizes.responseBodySize).toBeLessThan((await res.body()).length / 2);
    } finally {
      await page.close();
    }
  });
});
