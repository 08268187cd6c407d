import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createMnemoClient } from '../../client/src/index.ts';
import { trustedDocumentsManifest } from '../../scripts/trustedDocuments.ts';
import { documentHash, loadTrustedDocuments, TrustedDocumentsError } from '../../server/graphql/trustedDocuments.ts';
import { subscribeOverWebSocket } from '../helpers/subscribe.ts';
import { ADMIN_TOKEN, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const AD_HOC = `{ memories(apiKeyId: "tk") { totalCount } }`;

let dir: string;
let manifestFile: string;
let strict: TestApp;
let lenient: TestApp;
let gatewayToken: string;
/** Memory Studio's documents, exactly as its generated hooks send them (read from the manifest's source). */
let engineStatus: string;
let updateSettings: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-trusted-'));
  manifestFile = path.join(dir, 'trusted-documents.json');
  const manifest = await trustedDocumentsManifest();
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const adminDocument = (start: string) => Object.values(manifest).find((text) => text.trimStart().startsWith(start))!;
  engineStatus = adminDocument('query EngineStatus ');
  updateSettings = adminDocument('mutation UpdateMemorySettings(');
  strict = await startTestApp({ app: { trustedDocuments: loadTrustedDocuments(manifestFile, { adminArbitrary: false }) } });
  lenient = await startTestApp({ app: { trustedDocuments: loadTrustedDocuments(manifestFile, { adminArbitrary: true }) } });
  // Memory Studio's own settings mutation, as its generated hook sends it: allowed under both.
  for (const app of [strict, lenient]) expect((await app.gqlRaw(updateSettings, { input: { enabled: true } })).errors).toBeUndefined();
  gatewayToken = await lenient.mintToken({ apiKeyId: 'tk' });
});
afterAll(async () => {
  await strict?.close();
  await lenient?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('trusted documents', () => {
  it('runs the operations of @mnemo/client, sent as their exact text', async () => {
    const client = createMnemoClient({ url: strict.url, token: ADMIN_TOKEN, apiKeyId: 'tk', deadlineMs: 5_000 });
    await client.createMemory({ content: 'Prefers Rust for services' });
    expect((await client.retrieve({ query: 'Rust' })).items.map((i) => i.memory.content)).toEqual(['Prefers Rust for services']);
  });

  it('runs Memory Studio’s operations', async () => {
    const res = await strict.gqlRaw(engineStatus);
    expect(res.errors).toBeUndefined();
    expect(res.data.engineStatus.keyword.available).toBe(true);
  });

  it('runs a trusted operation named by its hash alone', async () => {
    const res = await post(strict, { documentId: `sha256:${documentHash(engineStatus)}` });
    expect(res.errors).toBeUndefined();
    expect(res.data?.engineStatus).toBeTruthy();
  });

  it('refuses any other document, and an unknown hash, with a code', async () => {
    expect(onlyError(await strict.gqlRaw(AD_HOC)).extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await post(strict, { extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(AD_HOC) } } });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('lets admin tokens send any document only when configured so', async () => {
    expect((await lenient.gqlRaw(AD_HOC)).data).toEqual({ memories: { totalCount: expect.any(Number) } });
    expect(onlyError(await lenient.gqlRaw(AD_HOC, {}, gatewayToken)).extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('applies to GraphQL over WebSocket too', async () => {
    await expect(subscribeOverWebSocket(strict.url, AD_HOC, {}).rest()).rejects.toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_ONLY' }) }),
    ]);
    const [known] = await subscribeOverWebSocket(strict.url, engineStatus, {}).rest();
    expect(known?.errors).toBeUndefined();
  });

  it('runs a trusted operation named by its hash alone over WebSocket, as over HTTP', async () => {
    const hash = documentHash(engineStatus);
    for (const payload of [{ documentId: `sha256:${hash}` }, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }]) {
      const [answer] = await overRawWebSocket(strict, payload);
      expect(answer).toMatchObject({ type: 'next', payload: { data: { engineStatus: expect.any(Object) } } });
      expect(answer?.payload?.errors).toBeUndefined();
    }
  });

  it('refuses a manifest whose hash does not match its document, at start', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ [documentHash('{ a }')]: '{ b }' }));
    expect(() => loadTrustedDocuments(bad, { adminArbitrary: false })).toThrow(TrustedDocumentsError);
  });
});

async function post(app: TestApp, body: Record<string, unknown>) {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { data?: { engineStatus?: unknown }; errors?: { extensions?: { code?: string } }[] };
}

/**
 * One operation over a WebSocket spoken by hand: graphql-ws's client cannot send a subscribe message without `query`.
 * The server's messages for it, up to its `complete` or `error`.
 */
async function overRawWebSocket(app: TestApp, payload: Record<string, unknown>) {
  const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const answers: { type: string; payload?: { data?: unknown; errors?: unknown } }[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: { data?: unknown; errors?: unknown } };
      if (message.type === 'connection_ack') return socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload }));
      answers.push(message);
      if (message.type === 'complete' || message.type === 'error') resolve();
    });
    socket.on('close', (code, reason) => reject(new Error(`closed with ${code}: ${reason}`)));
  });
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${ADMIN_TOKEN}` } }));
  try {
    await ended;
  } finally {
    socket.close();
  }
  return answers;
}
