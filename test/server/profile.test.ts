import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileInjectDocument as INJECT } from '../generated/graphql.ts';
import { CREATE_MEMORY, EXTRACT_FACTS, RETRIEVE_PREVIEW, type RetrieveInput, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const ask = (apiKeyId: string, content: string, maxTokens = 800) =>
  app
    .ok(INJECT, {
      input: {
        provider: 'openai/gpt-4o',
        request: { model: 'gpt-4o', messages: [{ role: 'user', content }] },
        retrieval: { apiKeyId, maxTokens },
      },
    })
    .then((d) => d.injectMemory);
const preview = (input: RetrieveInput) => app.ok(RETRIEVE_PREVIEW, { input }).then((d) => d.retrievePreview);
const learn = (apiKeyId: string, text: string) => app.ok(EXTRACT_FACTS, { input: { apiKeyId, role: 'USER', text } });

describe('profile fill: a key is never empty-handed', () => {
  it("the README's example injects the Helix preference for a question that shares no word with it", async () => {
    await learn('readme', 'I prefer Helix over Vim.');
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'readme', content: 'Always use the Catppuccin theme' } });
    const r = await ask('readme', 'Which editor should I configure?');
    expect(r.injected).toBe(true);
    expect(r.retrieval!.items).toEqual([{ content: 'Prefers Helix over Vim', tier: 'PROFILE', score: 0 }]);
    expect(r.retrieval!.resolution.tiers).toContain('PROFILE');
  });

  it('adds standing facts only after the relevant hits', async () => {
    await learn('after', 'I prefer tabs over spaces.');
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'after', content: 'The deploy script lives in ops/deploy.sh' } });
    const r = await preview({ apiKeyId: 'after', query: 'where is the deploy script?' });
    expect(r.items.map((i) => i.tier)).toEqual(['KEYWORD', 'PROFILE']);
    expect(r.resolution.tiers).toEqual(['KEYWORD', 'PROFILE']);
  });

  it('spends at most the profile share of the budget on them', async () => {
    for (const fact of ['I prefer Helix over Vim.', 'I prefer dark mode.', 'I prefer tea over coffee.', 'I prefer short answers.'])
      await learn('share', fact);
    const r = await preview({ apiKeyId: 'share', query: 'anything new?', maxTokens: 60 });
    const profile = r.items.filter((i) => i.tier === 'PROFILE');
    expect(profile.length).toBeGreaterThan(0);
    expect(profile.length).toBeLessThan(4);
    expect(r.tokensUsed).toBeLessThanOrEqual(r.maxTokens);
  });

  it('never displaces a relevant hit: when the hits take every slot, no standing fact is added', async () => {
    await learn('full', 'I prefer Helix over Vim.');
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'full', content: 'Release notes are written in docs/releases' } });
    const hit = await preview({ apiKeyId: 'full', query: 'release notes', limit: 1 });
    expect(hit.items.map((i) => i.tier)).toEqual(['KEYWORD']);
  });

  it('is off at profileBudgetPercent 0', async () => {
    await learn('off', 'I prefer Helix over Vim.');
    await app.ok(UPDATE_SETTINGS, { input: { profileBudgetPercent: 0 } });
    try {
      const r = await ask('off', 'Which editor should I configure?');
      expect(r.injected).toBe(false);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { profileBudgetPercent: 25 } });
    }
  });

  it('leaves out memories that are not standing facts, and other keys', async () => {
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'plain', content: 'We talked about the weather' } });
    await learn('neighbour', 'I prefer Helix over Vim.');
    const r = await preview({ apiKeyId: 'plain', query: 'Which editor should I configure?' });
    expect(r.items).toEqual([]);
  });

  it('rejects a share outside 0 to 100', async () => {
    const res = await app.gql(UPDATE_SETTINGS, { input: { profileBudgetPercent: 101 } });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
