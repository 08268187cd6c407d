import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ExtractFactsInput, ExtractFactsInjectDocument as INJECT } from '../generated/graphql.ts';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, EXTRACT_FACTS, LIST_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // Memory is off by default, and then extraction stores nothing.
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const IMPORT = graphql(`
  mutation ImportUnderTheSwitch($memories: [MemoryInput!]!) {
    importMemories(memories: $memories) {
      imported
      disabled
    }
  }
`);

const extract = (input: ExtractFactsInput) => app.ok(EXTRACT_FACTS, { input }).then((d) => d.extractFacts);
/** The facts stored for a key: its captured turns (captureTurns is USER by default) are left out. */
const stored = async (apiKeyId: string) => (await app.ok(LIST_MEMORIES, { apiKeyId, source: 'FACTS', limit: 100 })).memories.items;

describe('extractFacts', () => {
  it('stores the preferences a user states, key-wide, with where they came from', async () => {
    const r = await extract({
      apiKeyId: 'ex-1',
      sessionId: 'chat-9',
      role: 'USER',
      text: 'I prefer dark mode. My favourite editor is Helix.',
    });
    expect(r.error).toBeNull();
    expect(r.facts.length).toBeGreaterThanOrEqual(2);
    const memories = await stored('ex-1');
    expect(memories.map((m) => m.content)).toEqual(expect.arrayContaining(r.facts.map((f) => f.content)));
    expect(memories[0]).toMatchObject({ sessionId: null, metadata: { source: 'extraction', sessionId: 'chat-9', role: 'user' } });
    expect(r.skipped).toBeNull();
  });

  it('records when each fact was extracted', async () => {
    const before = Date.now();
    const r = await extract({ apiKeyId: 'ex-at', role: 'USER', text: 'I tend to write tests first.' });
    const extractedAt = Date.parse(String(r.memories[0]?.metadata?.extractedAt));
    expect(extractedAt).toBeGreaterThanOrEqual(before);
    expect(extractedAt).toBeLessThanOrEqual(Date.now());
  });

  it('replaces "I like X" with a later "I don\'t like X" instead of keeping both', async () => {
    await extract({ apiKeyId: 'ex-2', role: 'USER', text: 'I like Python.' });
    await extract({ apiKeyId: 'ex-2', role: 'USER', text: 'I don’t like Python anymore.' });
    const memories = await stored('ex-2');
    expect(memories).toHaveLength(1);
    expect(memories[0]?.content).toMatch(/^Dislikes Python/);
  });

  it("does not take the assistant's own plans for the user's decisions", async () => {
    const r = await extract({ apiKeyId: 'ex-3', role: 'ASSISTANT', text: "I'll use fetch for the HTTP calls." });
    expect(r.facts).toEqual([]);
    expect(await stored('ex-3')).toEqual([]);
  });

  it('never stores secrets', async () => {
    const r = await extract({
      apiKeyId: 'ex-4',
      role: 'USER',
      text: 'My password is hunter2. I like tea. My API key is sk-abcdefghijklmnopqrstuvwxyz123456.',
    });
    const texts = JSON.stringify([r, await stored('ex-4')]);
    expect(texts).not.toContain('hunter2');
    expect(texts).not.toContain('sk-abcdef');
    expect(texts).toContain('tea');
  });

  it("never stores a token this mnemo issued, whatever its format: the sentence that holds the server's admin token is not mined", async () => {
    const r = await extract({
      apiKeyId: 'ex-own-token',
      role: 'USER',
      text: `Keep ${ADMIN_TOKEN} handy, I prefer green tea. I like jazz.`,
    });
    const texts = JSON.stringify([r, await stored('ex-own-token')]);
    expect(texts).not.toContain(ADMIN_TOKEN);
    expect(r.facts.map((f) => f.content)).toEqual(['Likes jazz']);
  });

  it('only reports facts when persist is false, and does nothing when the request opted out', async () => {
    const dry = await extract({ apiKeyId: 'ex-5', role: 'USER', text: 'I like tea.', persist: false });
    expect(dry.facts).toHaveLength(1);
    const optedOut = await extract({ apiKeyId: 'ex-5', role: 'USER', text: 'I like tea.', noMemory: true });
    expect(optedOut).toMatchObject({ facts: [], skipped: 'OPTED_OUT' });
    expect(await stored('ex-5')).toEqual([]);
  });

  it('reports a storage failure in the result instead of failing the gateway request', async () => {
    const spy = vi.spyOn(app.services.db, 'transaction').mockImplementation(() => {
      throw new Error('disk I/O error');
    });
    try {
      const res = await app.gql(EXTRACT_FACTS, { input: { apiKeyId: 'ex-6', role: 'USER', text: 'I like tea.' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.extractFacts.facts).toHaveLength(1);
      expect(res.data.extractFacts.error).toMatch(/storing/);
      expect(res.data.extractFacts.error).not.toContain('disk I/O');
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps a bound token to its own key', async () => {
    const token = await app.mintToken({ apiKeyId: 'ex-own' });
    const res = await app.gql(EXTRACT_FACTS, { input: { apiKeyId: 'ex-other', role: 'USER', text: 'I like tea.' } }, token);
    expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
    const own = await app.ok(EXTRACT_FACTS, { input: { role: 'USER', text: 'I like tea.' } }, token);
    expect(own.extractFacts.memories).toHaveLength(1);
  });
});

describe('importMemories and the memory switch', () => {
  it('does not say disabled while memory is on', async () => {
    const r = await app.ok(IMPORT, { memories: [{ apiKeyId: 'imp-on', content: 'Prefers dark mode' }] });
    expect(r.importMemories).toEqual({ imported: 1, disabled: false });
  });
});

describe('with memory disabled', () => {
  beforeAll(() => app.ok(UPDATE_SETTINGS, { input: { enabled: false } }));
  afterAll(() => app.ok(UPDATE_SETTINGS, { input: { enabled: true } }));

  it('stores nothing from extraction, and says that memory is disabled', async () => {
    const r = await extract({ apiKeyId: 'ex-off', role: 'USER', text: 'I prefer dark mode. I avoid tabs.' });
    expect(r).toEqual({ error: null, skipped: 'DISABLED', facts: [], memories: [], captured: [] });
    expect(await stored('ex-off')).toEqual([]);
    expect(await app.database.db.selectFrom('memories').select('pk').where('api_key_id', '=', 'ex-off').execute()).toEqual([]);
  });

  it('still answers a dry run (persist: false) with the facts it would store, storing nothing', async () => {
    const r = await extract({ apiKeyId: 'ex-off-dry', role: 'USER', text: 'I prefer dark mode.', persist: false });
    expect(r.skipped).toBeNull();
    expect(r.facts.map((f) => f.content)).toEqual(['Prefers dark mode']);
    expect(await stored('ex-off-dry')).toEqual([]);
  });

  it('still stores an import, and says that memory is disabled', async () => {
    const r = await app.ok(IMPORT, { memories: [{ apiKeyId: 'imp-off', content: 'Prefers dark mode' }] });
    expect(r.importMemories).toEqual({ imported: 1, disabled: true });
    expect((await stored('imp-off')).map((m) => m.content)).toEqual(['Prefers dark mode']);
  });

  it('injects nothing: the request comes back unchanged and the retrieval says DISABLED', async () => {
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'ex-off-inject', content: 'Prefers dark mode' } });
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Which theme do I like?' }] };
    const r = (await app.ok(INJECT, { input: { provider: 'openai/gpt-4o', request, retrieval: { apiKeyId: 'ex-off-inject' } } }))
      .injectMemory;
    expect(r).toEqual({ request, injected: false, retrieval: { skipped: 'DISABLED', items: [] } });
  });
});
