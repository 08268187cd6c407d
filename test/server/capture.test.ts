import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { purgeMemories } from '../../server/memory/purge.service.ts';
import { type ExtractFactsInput, ForgetApiKeyDocument as FORGET_API_KEY } from '../generated/graphql.ts';
import { graphql } from '../helpers/graphql.ts';
import {
  CLEAR_MEMORIES,
  DELETE_MEMORY,
  EXTRACT_FACTS,
  GET_MEMORY,
  LIST_MEMORIES,
  RESTORE_SUMMARY,
  SUMMARIZE,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

// Turn capture (the captureTurns setting, USER by default): extractFacts and injectMemory keep the chat messages
// themselves as episodic memories of their session, besides the facts, so what no rule recognises is still recalled.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());
afterEach(() => app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'USER' } }));

const INJECT = graphql(`
  mutation CaptureInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      captured
      request
      retrieval {
        items {
          content
        }
      }
    }
  }
`);

const key = () => `cap-${randomUUID().slice(0, 8)}`;
const extract = (input: ExtractFactsInput) => app.ok(EXTRACT_FACTS, { input }).then((d) => d.extractFacts);
const inject = (apiKeyId: string, messages: { role: string; content: string }[], sessionId?: string) =>
  app
    .ok(INJECT, { input: { provider: 'openai/gpt-4o', request: { model: 'gpt-4o', messages }, retrieval: { apiKeyId, sessionId } } })
    .then((d) => d.injectMemory);
const list = async (apiKeyId: string, source: 'TURNS' | 'FACTS' | 'ALL' = 'ALL') =>
  (await app.ok(LIST_MEMORIES, { apiKeyId, source, limit: 100, direction: 'ASC', orderBy: 'KEY' })).memories.items;
const memory = async (id: string) => (await app.ok(GET_MEMORY, { id })).memory;

const SNEAKERS = 'My sneakers are in the garage closet.';

describe('turn capture', () => {
  it('recalls through injectMemory what a replayed conversation said, even where no rule found a fact', async () => {
    const k = key();
    const replayed = await inject(
      k,
      [
        { role: 'user', content: SNEAKERS },
        { role: 'assistant', content: 'Got it.' },
        { role: 'user', content: 'Thanks!' },
      ],
      'monday',
    );
    expect(replayed.captured).toBe(2);
    const later = await inject(k, [{ role: 'user', content: 'Where are my sneakers?' }]);
    expect(later.retrieval?.items.map((i) => i.content)).toContain(SNEAKERS);
    expect(JSON.stringify(later.request)).toContain('garage closet');
  });

  it('stores a retried extract once: the same text in the same session leaves the first turn as it was', async () => {
    const k = key();
    const first = await extract({ apiKeyId: k, sessionId: 's1', role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    const retry = await extract({ apiKeyId: k, sessionId: 's1', role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    expect(retry.captured).toEqual(first.captured);
    expect(await list(k, 'TURNS')).toHaveLength(1);
    expect(await list(k, 'FACTS')).toHaveLength(1);
  });

  it('stores the same message sent twice at once as one turn, which lists the facts said in it', async () => {
    const k = key();
    const send = () => extract({ apiKeyId: k, sessionId: 's1', role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    const [a, b] = await Promise.all([send(), send()]);
    expect(b.captured.map((m) => m.id)).toEqual(a.captured.map((m) => m.id));
    const [turn] = await list(k, 'TURNS');
    const facts = await list(k, 'FACTS');
    expect(facts.map((f) => f.metadata?.sourceTurn)).toEqual([turn!.id]);
    expect(turn!.metadata?.facts).toEqual(facts.map((f) => f.id));
  });

  it('stores a history sent again through injectMemory once', async () => {
    const k = key();
    const history = [
      { role: 'user', content: SNEAKERS },
      { role: 'assistant', content: 'Noted.' },
    ];
    expect((await inject(k, history, 's1')).captured).toBe(1);
    expect((await inject(k, [...history, { role: 'user', content: 'And my keys are on the hook.' }], 's1')).captured).toBe(1);
    expect((await list(k, 'TURNS')).map((m) => m.content).sort()).toEqual(['And my keys are on the hook.', SNEAKERS]);
  });

  it('never injects back into a request the turns of its own conversation, and still recalls the earlier ones', async () => {
    const k = key();
    // An earlier request of the session, no longer in the history the gateway sends.
    await inject(k, [{ role: 'user', content: 'My sneakers are in the garage closet, said on Monday.' }], 's1');
    const history = [
      { role: 'user', content: SNEAKERS },
      { role: 'assistant', content: 'Noted.' },
    ];
    await inject(k, history, 's1');
    const next = await inject(k, [...history, { role: 'user', content: 'Where are my sneakers again?' }], 's1');
    expect(next.retrieval?.items.map((i) => i.content)).toEqual(['My sneakers are in the garage closet, said on Monday.']);
  });

  it('keeps a message captured by injectMemory once when extractFacts sends it too', async () => {
    const k = key();
    await inject(k, [{ role: 'user', content: SNEAKERS }], 's1');
    const r = await extract({ apiKeyId: k, sessionId: 's1', role: 'USER', text: SNEAKERS });
    expect(await list(k, 'TURNS')).toEqual(r.captured);
  });

  it('captures the message as an episodic memory of its session, with its role and the time it was said', async () => {
    const k = key();
    const occurredAt = new Date(Date.now() - 3_600_000).toISOString();
    const r = await extract({ apiKeyId: k, sessionId: 'chat-7', role: 'USER', text: SNEAKERS, occurredAt });
    expect(r.captured).toEqual([
      expect.objectContaining({
        sessionId: 'chat-7',
        type: 'EPISODIC',
        content: SNEAKERS,
        createdAt: occurredAt,
        metadata: expect.objectContaining({ source: 'capture', role: 'user' }),
      }),
    ]);
  });

  it("redacts a captured turn's secrets and keeps the rest of the message", async () => {
    const k = key();
    const r = await extract({
      apiKeyId: k,
      role: 'USER',
      text: `My password is hunter2. ${SNEAKERS} Keep ${ADMIN_TOKEN} handy.`,
    });
    expect(r.captured.map((m) => m.content)).toEqual([`[redacted] ${SNEAKERS} Keep [redacted] handy.`]);
    const stored = JSON.stringify(await list(k));
    expect(stored).not.toContain('hunter2');
    expect(stored).not.toContain(ADMIN_TOKEN);
  });

  it('stores only the facts with captureTurns OFF', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { captureTurns: 'OFF' } });
    const k = key();
    const r = await extract({ apiKeyId: k, role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    expect(r.captured).toEqual([]);
    expect((await list(k)).map((m) => m.content)).toEqual(['Prefers tea']);
    expect((await inject(k, [{ role: 'user', content: SNEAKERS }])).captured).toBe(0);
  });

  it("captures the assistant's messages with captureTurns ALL, and only the user's by default", async () => {
    const k = key();
    const reply = 'Your sneakers should be in the garage closet.';
    expect((await extract({ apiKeyId: k, sessionId: 's1', role: 'ASSISTANT', text: reply })).captured).toEqual([]);
    await app.ok(UPDATE_SETTINGS, { input: { captureTurns: 'ALL' } });
    const r = await extract({ apiKeyId: k, sessionId: 's1', role: 'ASSISTANT', text: reply });
    expect(r.captured.map((m) => [m.content, m.metadata?.role])).toEqual([[reply, 'assistant']]);
  });

  it('captures nothing with memory switched off', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: false } });
    const k = key();
    expect((await extract({ apiKeyId: k, role: 'USER', text: SNEAKERS })).skipped).toBe('DISABLED');
    expect((await inject(k, [{ role: 'user', content: SNEAKERS }])).captured).toBe(0);
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    expect(await list(k)).toEqual([]);
  });

  it('cuts a long message at sentence boundaries into parts that know their neighbours', async () => {
    const k = key();
    const sentences = Array.from({ length: 60 }, (_, i) => `Box ${i} holds the winter clothes of the family.`);
    const r = await extract({ apiKeyId: k, sessionId: 'long', role: 'USER', text: sentences.join(' ') });
    const parts = r.captured;
    expect(parts.length).toBeGreaterThan(1);
    for (const [i, part] of parts.entries()) {
      expect(part.content.length).toBeLessThanOrEqual(1200);
      expect(part.content).toMatch(/^Box \d+ .*family\.$/);
      expect(part.metadata).toMatchObject({
        part: i + 1,
        parts: parts.length,
        previousKey: parts[i - 1]?.key ?? null,
        nextKey: parts[i + 1]?.key ?? null,
      });
    }
    expect(parts.map((p) => p.content).join(' ')).toBe(sentences.join(' '));
  });

  it('lists captured turns apart from facts', async () => {
    const k = key();
    await extract({ apiKeyId: k, role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    expect((await list(k, 'TURNS')).map((m) => m.content)).toEqual([`${SNEAKERS} I prefer tea.`]);
    expect((await list(k, 'FACTS')).map((m) => m.content)).toEqual(['Prefers tea']);
    expect(await list(k, 'ALL')).toHaveLength(2);
  });
});

describe('facts and the turn they came from', () => {
  const said = async () => {
    const k = key();
    const r = await extract({ apiKeyId: k, sessionId: 's1', role: 'USER', text: 'I prefer tea. I like jazz.' });
    return { turn: r.captured[0]!, facts: r.memories };
  };

  it('links each fact to its turn, and the turn to its facts', async () => {
    const { turn, facts } = await said();
    expect(facts).toHaveLength(2);
    for (const fact of facts) expect(fact.metadata?.sourceTurn).toBe(turn.id);
    expect(turn.metadata?.facts).toEqual(facts.map((f) => f.id));
  });

  it("clears the facts' link when their turn is deleted", async () => {
    const { turn, facts } = await said();
    await app.ok(DELETE_MEMORY, { id: turn.id });
    for (const fact of facts) expect((await memory(fact.id))?.metadata).not.toHaveProperty('sourceTurn');
  });

  it("clears the facts' link when a clear of the key's episodic memories takes their turn", async () => {
    const { turn, facts } = await said();
    await app.ok(CLEAR_MEMORIES, { apiKeyId: turn.apiKeyId, type: 'EPISODIC' });
    for (const fact of facts) expect((await memory(fact.id))?.metadata).not.toHaveProperty('sourceTurn');
  });

  it("takes a deleted fact out of its turn's list", async () => {
    const { turn, facts } = await said();
    await app.ok(DELETE_MEMORY, { id: facts[0]!.id });
    expect((await memory(turn.id))?.metadata?.facts).toEqual([facts[1]!.id]);
  });
});

describe('captured turns live like other memories', () => {
  const DAY = 86_400_000;
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

  it('are purged once they left the retention window and the grace days passed', async () => {
    const k = key();
    const r = await extract({ apiKeyId: k, role: 'USER', text: SNEAKERS, occurredAt: daysAgo(60) });
    expect(r.captured).toHaveLength(1);
    await purgeMemories(app.services);
    expect(await memory(r.captured[0]!.id)).toBeNull();
  });

  it('are erased with the rest of their key by forgetApiKey', async () => {
    const k = key();
    await extract({ apiKeyId: k, role: 'USER', text: `${SNEAKERS} I prefer tea.` });
    expect((await app.ok(FORGET_API_KEY, { apiKeyId: k })).forgetApiKey.memories).toBe(2);
    expect(await list(k)).toEqual([]);
  });

  it.skipIf(testStoreKind() !== 'sqlite')('leave no byte of their text in the database file once deleted', async () => {
    const k = key();
    const marker = `kq${randomUUID().replaceAll('-', '').slice(0, 12)}7`;
    const r = await extract({ apiKeyId: k, role: 'USER', text: `The spare key is under the ${marker} stone.` });
    await app.ok(DELETE_MEMORY, { id: r.captured[0]!.id });
    const [checkpoint] = app.database.sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    expect(checkpoint?.busy).toBe(0);
    const holding = ['mnemo.db', 'mnemo.db-wal']
      .map((file) => path.join(app.dir, file))
      .filter((file) => existsSync(file) && readFileSync(file).includes(marker));
    expect(holding).toEqual([]);
  });

  it('are compacted by a summary of their session, and come back when it is undone', async () => {
    const k = key();
    // Enough of them that one summary line costs less than their own lines in the block.
    const said = Array.from({ length: 10 }, (_, i) => `Box ${i} with the winter coats went to the attic.`);
    for (const text of said) await extract({ apiKeyId: k, sessionId: 'moving', role: 'USER', text, occurredAt: daysAgo(20) });
    const run = (await app.ok(SUMMARIZE, { apiKeyId: k, olderThanDays: 10, dryRun: false })).summarize;
    expect(run.summaries).toHaveLength(1);
    expect(await list(k, 'TURNS')).toEqual([]);
    await app.ok(RESTORE_SUMMARY, { summaryId: run.summaries[0]!.id });
    expect((await list(k, 'TURNS')).map((m) => m.content).sort()).toEqual(said.toSorted());
  });
});
