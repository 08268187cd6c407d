import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAdd, memoryGet, memoryList } from '../../server/mcp/memory.tools.ts';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { call, callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { CREATE_MEMORY, EXPORT_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
/** An agent whose token is bound to key A. */
let agentA: Client;
let admin: Client;
let idOfB: string;
let snapshotOfB: unknown;

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'key-a', key: 'editor', content: 'A uses Helix as an editor.' } });
  const b = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'key-b', key: 'editor', content: 'B uses Emacs as an editor.' } });
  idOfB = b.createMemory.id;
  snapshotOfB = (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'key-b' })).exportMemories;
  agentA = await mcpClient(httpTransport(app.url, await app.mintToken({ apiKeyId: 'key-a' })));
  admin = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
});

afterAll(async () => {
  await agentA?.close();
  await admin?.close();
  await app?.close();
});

describe('a token bound to key A', () => {
  it('acts on A when apiKeyId is left out', async () => {
    const found = await call(agentA, memorySearch, { query: 'editor' });
    expect(found.memories.map((m) => m.content)).toEqual(['A uses Helix as an editor.']);
    const listed = await call(agentA, memoryList, {});
    expect(listed.memories.map((m) => m.apiKeyId)).toEqual(['key-a']);
  });

  it.each([
    ['memory_search', { apiKeyId: 'key-b', query: 'editor' }],
    ['memory_add', { apiKeyId: 'key-b', type: 'factual', key: 'editor', content: 'overwritten by A' }],
    ['memory_clear', { apiKeyId: 'key-b' }],
    ['memory_list', { apiKeyId: 'key-b' }],
    ['memory_extract', { apiKeyId: 'key-b', text: 'I prefer Vim.' }],
  ])('cannot name key B in %s: FORBIDDEN, as in GraphQL, with the same words whether B exists or not', async (tool, args) => {
    const named = await callError(agentA, tool, args);
    const unknown = await callError(agentA, tool, { ...args, apiKeyId: 'key-that-does-not-exist' });
    expect(named.code).toBe('FORBIDDEN');
    expect(named.message).toBe('this token is bound to another API key and may not use "key-b"');
    expect(unknown.message).toBe(named.message.replace('key-b', 'key-that-does-not-exist'));
  });

  it.each([
    ['memory_get', {}],
    ['memory_history', {}],
    ['memory_update', { content: 'rewritten by A' }],
    ['memory_delete', {}],
  ])("gets NOT_FOUND for B's memory in %s, exactly as for an id that does not exist", async (tool, args) => {
    const ofB = await callError(agentA, tool, { id: idOfB, ...args });
    const missing = await callError(agentA, tool, { id: NO_SUCH_ID, ...args });
    expect(ofB.code).toBe('NOT_FOUND');
    expect(ofB.message).toBe(`no memory with id ${idOfB}`);
    expect(missing.message).toBe(`no memory with id ${NO_SUCH_ID}`);
  });

  it('left every memory of B as it was', async () => {
    expect((await app.ok(EXPORT_MEMORIES, { apiKeyId: 'key-b' })).exportMemories).toEqual(snapshotOfB);
  });

  it("uses the same code as GraphQL when it names B's key", async () => {
    const token = await app.mintToken({ apiKeyId: 'key-a' });
    const graphql = await app.gql(CREATE_MEMORY, { input: { apiKeyId: 'key-b', content: 'x' } }, token);
    const mcp = await callError(agentA, 'memory_add', { apiKeyId: 'key-b', type: 'factual', key: 'k', content: 'x' });
    expect(mcp.code).toBe(graphql.errors![0]!.extensions!.code);
    expect(mcp.message).toBe(graphql.errors![0]!.message);
  });
});

describe('a token that is not bound to a key', () => {
  it('must name apiKeyId, admin or gateway', async () => {
    const gateway = await mcpClient(httpTransport(app.url, await app.mintToken()));
    for (const client of [admin, gateway]) {
      expect(await callError(client, 'memory_add', { type: 'factual', key: 'k', content: 'x' })).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'apiKeyId is required',
      });
      expect((await callError(client, 'memory_search', { query: 'editor' })).code).toBe('BAD_USER_INPUT');
    }
    // Listing across keys is an admin's right only, as in GraphQL (oneKeyOrAll).
    expect((await callError(gateway, 'memory_list', {})).message).toBe('apiKeyId is required');
    expect((await call(admin, memoryList, {})).totalCount).toBeGreaterThanOrEqual(2);
    await gateway.close();
  });

  it('reaches any key it names (an admin, or an unbound gateway)', async () => {
    const gateway = await mcpClient(httpTransport(app.url, await app.mintToken()));
    const stored = await call(gateway, memoryAdd, { apiKeyId: 'key-c', type: 'factual', key: 'k', content: 'C is here.' });
    expect((await call(admin, memoryGet, { id: stored.memory.id })).memory.apiKeyId).toBe('key-c');
    await gateway.close();
  });
});
