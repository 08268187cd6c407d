import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2eAuditLogDocument } from '../generated/graphql.ts';
import { GET_SETTINGS, IMPORT_MEMORIES } from '../helpers/operations.ts';
import { type E2E, fillPlaygroundApiKey, horizontalOverflow, seriousAxeViolations, startE2E } from './harness.ts';

const TABS = ['Memories', 'Playground', 'Engine', 'Settings', 'Access', 'Data', 'Audit log'] as const;

let e2e: E2E;
beforeAll(async () => {
  // A fresh server: memory is off, as it is by default.
  e2e = await startE2E();
  await e2e.gql(IMPORT_MEMORIES, {
    memories: [{ apiKeyId: 'acme', type: 'FACTUAL', content: 'The user prefers a dark editor theme.' }],
  });
});
afterAll(() => e2e?.close());

const banner = () => e2e.page.getByRole('region', { name: 'Memory is off' });
const offNote = () => e2e.page.getByRole('note', { name: 'Memory is off' });

async function simulate(query: string) {
  const { page } = e2e;
  await page.getByRole('tab', { name: 'Playground' }).click();
  await page.getByLabel('Query').fill(query);
  await fillPlaygroundApiKey(page, 'acme');
  await page.getByRole('button', { name: 'Simulate' }).click();
  await page.getByLabel('Injected memory block').waitFor();
}

describe('memory switched off', () => {
  it('says so on every tab: gateways get no memories and nothing is extracted', async () => {
    const { page } = e2e;
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      const text = await e2e.explained(banner().textContent());
      expect(text).toContain('Memory is off.');
      expect(text).toContain('injectMemory and retrieve find none, so requests go on unchanged, and extractFacts stores nothing');
      expect(await banner().getByRole('button', { name: 'Turn memory on' }).isVisible()).toBe(true);
    }
  });

  it('fits a phone screen, and axe finds nothing serious with it shown', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 800 });
    try {
      await page.getByRole('tab', { name: 'Memories' }).click();
      await banner().waitFor();
      expect((await horizontalOverflow(page)).overflow).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('is not claimed when the settings cannot be loaded', async () => {
    const { page } = e2e;
    await page.route('**/graphql', (route) =>
      route.request().postData()?.includes('query MemorySettings')
        ? route.fulfill({ json: { errors: [{ message: 'the settings table is locked', extensions: { code: 'UNAVAILABLE' } }] } })
        : route.fallback(),
    );
    try {
      await page.reload();
      await page.getByRole('tab', { name: 'Settings' }).click();
      await e2e.explained(page.getByRole('alert').filter({ hasText: 'Settings could not be loaded' }).waitFor());
      expect(await banner().count()).toBe(0);
    } finally {
      await page.unroute('**/graphql');
      await page.reload();
    }
  });

  it('the Playground says a gateway would get nothing, and that its block is what it would get once memory is on', async () => {
    await simulate('Which editor theme does the user prefer?');
    const note = await offNote().textContent();
    expect(note).toContain("a gateway's injectMemory gets no memories now and its request goes on unchanged");
    expect(note).toContain('what it would get once memory is on');
    const block = e2e.page.getByRole('region', { name: 'Injected block' });
    expect(await block.textContent()).toContain('as the gateway would send it once memory is on');
    expect(await block.textContent()).not.toContain('exactly as the gateway sends it');
  });

  it('"Turn memory on" turns it on as an audited settings change; the banner goes and Settings shows it on', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await page.getByLabel('Memory enabled').isChecked()).toBe(false);
    await banner().getByRole('button', { name: 'Turn memory on' }).click();
    await e2e.explained(banner().waitFor({ state: 'detached' }));
    expect(await page.getByLabel('Memory enabled').isChecked()).toBe(true);
    expect((await e2e.gql(GET_SETTINGS)).memorySettings.enabled).toBe(true);
    expect((await e2e.gql(E2eAuditLogDocument, { action: 'SETTINGS_UPDATE' })).auditLog.items).toHaveLength(1);
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      expect(await banner().count()).toBe(0);
    }
  });

  it('the Playground says nothing of memory being off once it is on', async () => {
    await simulate('Which editor theme does the user prefer?');
    expect(await offNote().count()).toBe(0);
    const block = e2e.page.getByRole('region', { name: 'Injected block' });
    expect(await block.textContent()).toContain('exactly as the gateway sends it');
  });
});
