import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMnemoClient, isMnemoError, type MnemoClientOptions, MnemoError } from '../../client/src/index.ts';
import { type NetworkDouble, startNetworkDouble } from '../doubles/proxy.ts';
import { testClock } from '../helpers/clock.ts';
import { CREATE_MEMORY, CREATE_TOKEN, REVOKE_TOKEN, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';

/** A chat request as a gateway forwards it. */
const chatRequest = () => ({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Which editor should I configure?' },
  ],
});
const INJECT = { provider: 'openai/gpt-4o', apiKeyId: 'gw' } as const;

let app: TestApp;
let gatewayToken: string;
let network: NetworkDouble;
beforeAll(async () => {
  // A model to reindex with: reindex refuses to start without one.
  app = await startTestApp({ engine: topicEngine(topicModelDir()) });
  // Turn capture off: these tests pin what the client sends and gets back, and the messages they send would
  // otherwise be stored and retrieved beside the one memory they expect.
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'OFF' } });
  gatewayToken = await app.mintToken({ apiKeyId: 'gw' });
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'gw', content: 'Uses the Helix editor for all code' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  network = await startNetworkDouble(app.url);
});
afterEach(() => network.close());

/**
 * A client for the gateway key, through the network double unless told otherwise. Calls that should succeed
 * get a deadline a busy test machine can keep (the default 150 ms is for production); the fail-open tests set
 * their own.
 */
const client = (options: Partial<MnemoClientOptions> = {}) =>
  createMnemoClient({ url: network.url, token: gatewayToken, deadlineMs: 5_000, ...options });

describe('inject', () => {
  it('puts the key’s memories into the chat request', async () => {
    const request = chatRequest();
    const outcome = await client().inject(request, INJECT);
    expect(outcome.injected).toBe(true);
    if (!outcome.injected) return;
    expect(outcome.request.messages[0]?.content).toContain('Uses the Helix editor for all code');
    expect(outcome.request.messages.slice(1)).toEqual(request.messages);
    expect(outcome.retrieval.items.map((i) => i.memory.content)).toEqual(['Uses the Helix editor for all code']);
  });

  it('brings the receipt back when asked for one: the memories injected and why others were left out', async () => {
    const outcome = await client().inject(chatRequest(), { ...INJECT, receipt: true });
    expect(outcome.injected).toBe(true);
    if (!outcome.injected) return;
    expect(outcome.receipt?.injected.map((i) => i.memoryId)).toEqual(outcome.retrieval.items.map((i) => i.memory.id));
    expect(outcome.receipt).toMatchObject({ skipped: null, leftOut: [], tokensUsed: outcome.retrieval.tokensUsed });
  });

  it('hands the request back unchanged, and says so, when memory is off', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: false } });
    try {
      const request = chatRequest();
      const outcome = await client().inject(request, INJECT);
      expect(outcome).toEqual({ injected: false, request, reason: 'disabled' });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    }
  });

  it('hands the request back when mnemo does not answer within the deadline', async () => {
    network.delayMs = 2_000;
    const request = chatRequest();
    const outcome = await client({ deadlineMs: 100 }).inject(request, INJECT);
    expect(outcome).toMatchObject({ injected: false, request, reason: 'timeout' });
    expect(outcome.injected === false && outcome.error?.code).toBe('TIMEOUT');
  });

  it('hands the request back when mnemo is stopped', async () => {
    await network.close();
    const request = chatRequest();
    const outcome = await client().inject(request, INJECT);
    expect(outcome).toMatchObject({ injected: false, request, reason: 'unreachable' });
  });

  it('hands the request back with the server’s code when the token was revoked', async () => {
    const minted = await app.ok(CREATE_TOKEN, { input: { name: 'revoked', role: 'GATEWAY', apiKeyId: 'gw' } });
    const { token, accessToken } = minted.createAccessToken;
    await app.ok(REVOKE_TOKEN, { id: accessToken.id });
    const request = chatRequest();
    const outcome = await client({ token }).inject(request, INJECT);
    expect(outcome).toMatchObject({ injected: false, request, reason: 'error' });
    expect(outcome.injected === false && outcome.error?.code).toBe('UNAUTHENTICATED');
  });

  it('throws the typed error instead when asked to', async () => {
    network.delayMs = 2_000;
    await expect(client({ deadlineMs: 50 }).inject(chatRequest(), { ...INJECT, throwOnError: true })).rejects.toMatchObject({
      name: 'MnemoError',
      code: 'TIMEOUT',
    });
  });
});

describe('the circuit breaker', () => {
  it('stops calling a mnemo that keeps timing out: the rest fail open at once, without a request', async () => {
    network.delayMs = 5_000;
    const gateway = client({ deadlineMs: 200, breaker: { failureThreshold: 2, openMs: 60_000 } });
    const opening = [];
    for (let i = 0; i < 2; i++) opening.push(await reasonOf(gateway.inject(chatRequest(), INJECT)));
    const sent = network.requests;
    const afterwards = [];
    for (let i = 0; i < 6; i++) afterwards.push(await reasonOf(gateway.inject(chatRequest(), INJECT)));
    expect(opening).toEqual(['timeout', 'timeout']);
    expect(afterwards).toEqual(Array(6).fill('circuit-open'));
    expect(network.requests).toBe(sent);
    expect(gateway.stats().circuit).toBe('open');
  });

  it('lets one trial through once the window has passed, and closes again when mnemo answers', async () => {
    network.delayMs = 5_000;
    const clock = testClock();
    const gateway = client({ deadlineMs: 200, breaker: { failureThreshold: 1, openMs: 60_000 }, now: clock.now });
    expect(await reasonOf(gateway.inject(chatRequest(), INJECT))).toBe('timeout');
    expect(await reasonOf(gateway.inject(chatRequest(), INJECT))).toBe('circuit-open');
    network.delayMs = 0;
    clock.skip(60_000);
    expect(await reasonOf(gateway.inject(chatRequest(), { ...INJECT, deadlineMs: 5_000 }))).toBe('injected');
    expect(gateway.stats().circuit).toBe('closed');
  });
});

async function reasonOf(outcome: ReturnType<ReturnType<typeof client>['inject']>) {
  const o = await outcome;
  return o.injected ? 'injected' : o.reason;
}

describe('retries', () => {
  it('retries a read whose connection was cut, within the deadline', async () => {
    network.resetNext = 1;
    const result = await client().retrieve({ query: 'editor' });
    expect(result.items.map((i) => i.memory.content)).toEqual(['Uses the Helix editor for all code']);
    expect(network.requests).toBe(2);
  });

  it('never retries a write', async () => {
    network.resetNext = 1;
    await expect(client().createMemory({ content: 'I use tabs' })).rejects.toMatchObject({ code: 'UNREACHABLE' });
    expect(network.requests).toBe(1);
  });

  it('keeps its connections alive across calls', async () => {
    const gateway = client();
    for (let i = 0; i < 10; i++) await gateway.retrieve({ query: 'editor' });
    expect(network.requests).toBe(10);
    // fetch's pool may open a second connection while the first is being handed back; never one per call.
    expect(network.connections).toBeLessThanOrEqual(2);
  });
});

describe('extract', () => {
  it('sends facts in the background; flush waits for them', async () => {
    const gateway = client();
    gateway.extract({ role: 'USER', text: 'I prefer dark roast coffee.' });
    expect(gateway.stats().extract.queued + gateway.stats().extract.inFlight).toBe(1);
    await gateway.flush();
    expect(gateway.stats().extract).toMatchObject({ sent: 1, disabled: 0, failed: 0, dropped: 0, queued: 0 });
    const page = await gateway.memories({ search: 'coffee' });
    expect(page.items.map((m) => m.content).join()).toMatch(/dark roast coffee/i);
  });

  it('counts an extraction mnemo skipped because memory is off as disabled, not as sent', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: false } });
    try {
      const gateway = client();
      gateway.extract({ role: 'USER', text: 'I prefer green tea.' });
      await gateway.flush();
      expect(gateway.stats().extract).toMatchObject({ sent: 0, disabled: 1, failed: 0 });
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    }
  });

  it('counts an extraction whose facts mnemo could not store as failed, not as sent', async () => {
    const storing = vi.spyOn(app.services.db, 'transaction').mockImplementation(() => {
      throw new Error('disk full');
    });
    try {
      const gateway = client();
      gateway.extract({ role: 'USER', text: 'I prefer oolong tea.' });
      await gateway.flush();
      expect(gateway.stats().extract).toMatchObject({ sent: 0, disabled: 0, failed: 1 });
    } finally {
      storing.mockRestore();
    }
  });

  it('keeps at most maxSize extractions while mnemo is slow, dropping the oldest and counting them', async () => {
    network.delayMs = 300;
    const gateway = client({ extractQueue: { maxSize: 3, concurrency: 1 } });
    for (let i = 0; i < 10; i++) gateway.extract({ role: 'USER', text: `I like number ${i}.`, persist: false });
    // One is in flight; three wait; six were dropped.
    expect(gateway.stats().extract).toMatchObject({ inFlight: 1, queued: 3, dropped: 6 });
    await gateway.flush();
    expect(gateway.stats().extract).toMatchObject({ sent: 4, dropped: 6, queued: 0, inFlight: 0 });
  });
});

describe('typed calls', () => {
  it('reports mnemo’s codes as MnemoError values', async () => {
    const gateway = client();
    const outOfRange = await gateway.retrieve({ maxTokens: -1 }).catch((e: unknown) => e);
    expect(isMnemoError(outOfRange, 'BAD_USER_INPUT')).toBe(true);
    const otherKey = await gateway.memories({ apiKeyId: 'someone-else' }).catch((e: unknown) => e);
    expect(otherKey).toBeInstanceOf(MnemoError);
    expect((otherKey as MnemoError).code).toBe('FORBIDDEN');
  });

  it('creates, lists, updates, exports, imports, deletes and clears memories of its key', async () => {
    const admin = client({ url: app.url, token: ADMIN_TOKEN, apiKeyId: 'crud' });
    const created = await admin.createMemory({ content: 'Runs Postgres 16', key: 'db' });
    expect(created).toMatchObject({ apiKeyId: 'crud', key: 'db', content: 'Runs Postgres 16' });
    const updated = await admin.updateMemory(created.id, { content: 'Runs Postgres 17' });
    expect(updated.content).toBe('Runs Postgres 17');
    expect((await admin.memories()).items.map((m) => m.content)).toEqual(['Runs Postgres 17']);
    const report = await admin.importMemories([{ content: 'Deploys on Fridays', key: 'deploy' }]);
    expect(report).toEqual({ imported: 1, updated: 0, rejected: [], disabled: false });
    expect((await admin.exportMemories()).map((m) => m.key).sort()).toEqual(['db', 'deploy']);
    expect((await admin.deleteMemory(created.id)).id).toBe(created.id);
    expect(await admin.clearMemories()).toBe(1);
    expect((await admin.memories()).totalCount).toBe(0);
  });

  it('follows a reindex job to its end', async () => {
    const admin = client({ url: app.url, token: ADMIN_TOKEN, writeTimeoutMs: 5_000 });
    const job = await admin.reindex();
    const updates = [];
    for await (const update of admin.reindexProgress(job.id)) updates.push(update);
    expect(updates.at(-1)).toMatchObject({ id: job.id, status: 'COMPLETED' });
  });
});
