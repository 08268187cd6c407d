import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { IMPORT_MEMORIES, type MemoryInput, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { type E2E, horizontalOverflow, seriousAxeViolations, startE2E, WIDTHS } from './harness.ts';

const INJECT = graphql(`
  mutation RecentInjectionsInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      injected
    }
  }
`);

/** Where the screenshots go for a look by eye at each width; not the docs' images. */
const SHOTS = process.env.RECEIPT_SHOTS_DIR;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  const memories: MemoryInput[] = [
    { apiKeyId: 'acme', type: 'FACTUAL', content: 'The user prefers the Helix editor with a dark theme.' },
    { apiKeyId: 'acme', type: 'FACTUAL', content: 'Helix editor keys: space f opens the file picker.' },
    { apiKeyId: 'acme', type: 'FACTUAL', content: 'The team deploys to production on Tuesdays after the standup.' },
  ];
  await e2e.gql(IMPORT_MEMORIES, { memories });
  await e2e.gql(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'OFF' } });
});
afterAll(() => e2e?.close());

const ask = (content: string, limit?: number) =>
  e2e.gql(INJECT, {
    input: {
      request: { model: 'gpt-4o', messages: [{ role: 'user', content }] },
      provider: 'openai/gpt-4o',
      retrieval: { apiKeyId: 'acme', sessionId: 'chat-7', limit },
    },
  });

describe('Recent injections in the Playground', () => {
  it('says that the log is off, and where to turn it on', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Playground' }).click();
    const recent = page.getByRole('region', { name: 'Recent injections' });
    await e2e.explained(recent.getByText('The injection log is off.').waitFor());
    expect(await recent.getByRole('link', { name: 'Settings → Injection log' }).getAttribute('href')).toBe('#settings');
  });

  it("lists the key's injections newest first, each receipt opening on what it got and why the rest was left out", async () => {
    const { page } = e2e;
    await e2e.gql(UPDATE_SETTINGS, { input: { injectionLogDays: 7 } });
    await ask('Which editor do I use?');
    await ask('What does space f do in the Helix editor?', 1);
    await page.reload();
    await page.getByRole('tab', { name: 'Playground' }).click();
    const recent = page.getByRole('region', { name: 'Recent injections' });
    const entries = recent.getByRole('listitem');
    await e2e.explained(entries.nth(1).waitFor());
    expect(await entries.nth(0).textContent()).toContain('What does space f do in the Helix editor?');
    expect(await entries.nth(1).textContent()).toContain('Which editor do I use?');

    await entries.nth(0).getByText('What does space f do').click();
    const receipt = entries.nth(0).getByRole('region', { name: 'Receipt' });
    await receipt.waitFor();
    const rows = (await receipt.getByRole('row').allTextContents()).slice(1);
    expect(rows[0]).toContain('injected · ');
    expect(rows.slice(1).every((r) => r.includes('left out: over the limit'))).toBe(true);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await recent.scrollIntoViewIfNeeded();
      // The receipt table scrolls inside its own region on a phone; the page itself must not.
      expect((await horizontalOverflow(page)).overflow).toBe(0);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/recent-injections-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
