import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryExtract } from '../../server/mcp/gateway.tools.ts';
import { memoryAdd, memoryClear, memoryDelete, memoryGet, memoryHistory, memoryList, memoryUpdate } from '../../server/mcp/memory.tools.ts';
import { call, callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { mnemoEntry, ROOT } from '../helpers/mnemoEntry.ts';
import { CREATE_TOKEN, GET_MEMORY, LIST_MEMORIES, RETRIEVE, REVOKE_TOKEN, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
/** Errors the clients saw outside any call: a line on a stdio client's stdout that is not a frame would be one. */
const clientErrors: Error[] = [];
const stderrOfMcp: string[] = [];

/** `mnemo mcp` as an MCP client launches it: a child process speaking on its stdin and stdout, relaying to the app. */
async function stdioClient(token: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...mnemoEntry(), 'mcp'],
    cwd: ROOT,
    env: { MNEMO_URL: app.url, MNEMO_TOKEN: token },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderrOfMcp.push(chunk.toString()));
  const client = await mcpClient(transport);
  client.onerror = (error) => clientErrors.push(error);
  return client;
}

const listOf = async (apiKeyId: string) => (await app.ok(LIST_MEMORIES, { apiKeyId, limit: 100 })).memories;

const clients: Record<string, Client> = {};

beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  clients.http = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
  clients.stdio = await stdioClient(ADMIN_TOKEN);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c.close()));
  await app?.close();
});

it('lists the same tools over stdio as over streamable HTTP', async () => {
  expect((await clients.stdio!.listTools()).tools).toEqual((await clients.http!.listTools()).tools);
});

describe.each(['http', 'stdio'])('every tool over %s, checked through GraphQL', (transport) => {
  const apiKeyId = `key-${transport}`;
  const client = () => clients[transport]!;

  it('memory_add stores a memory, and the same key replaces it', async () => {
    const editor = { apiKeyId, type: 'factual', key: 'editor' } as const;
    const first = await call(client(), memoryAdd, { ...editor, content: 'The user prefers Vim.', metadata: { source: 'agent' } });
    const second = await call(client(), memoryAdd, { ...editor, content: 'The user prefers Helix.', metadata: { confidence: 'high' } });
    expect(second.memory.id).toBe(first.memory.id);
    const listed = await listOf(apiKeyId);
    expect(listed.items).toEqual([
      expect.objectContaining({ key: 'editor', content: 'The user prefers Helix.', metadata: { source: 'agent', confidence: 'high' } }),
    ]);
  });

  it('memory_search answers what GraphQL retrieve answers, with the block as text', async () => {
    await call(client(), memoryAdd, { apiKeyId, type: 'procedural', key: 'deploy', content: 'Deploys go out on Tuesdays after review.' });
    const args = { apiKeyId, query: 'which editor does the user prefer', maxTokens: 200 };
    const result = await client().callTool({ name: 'memory_search', arguments: args });
    const { retrieve } = await app.ok(RETRIEVE, { input: args });
    const found = result.structuredContent as { memories: { id: string; content: string }[] };
    expect(found.memories.map((m) => m.id)).toEqual(retrieve.items.map((i) => i.memory.id));
    expect(found.memories[0]!.content).toBe('The user prefers Helix.');
    expect(result.content).toEqual([{ type: 'text', text: retrieve.block }]);
  });

  it('memory_search returns a turn brought in by session adjacency, marked as such', async () => {
    const turn = { apiKeyId: `adjacent-${transport}`, type: 'episodic', sessionId: 'chat-1' } as const;
    await call(client(), memoryAdd, { ...turn, key: 'question', content: 'Which editor should I set up for Rust?' });
    await call(client(), memoryAdd, { ...turn, key: 'answer', content: 'I switched to Helix last week' });
    const result = await client().callTool({ name: 'memory_search', arguments: { apiKeyId: turn.apiKeyId, query: 'editor for rust' } });
    expect(result.isError).toBeFalsy();
    const found = result.structuredContent as { memories: { content: string; tier: string }[] };
    expect(found.memories.map((m) => [m.content, m.tier])).toEqual([
      ['Which editor should I set up for Rust?', 'keyword'],
      ['I switched to Helix last week', 'adjacent'],
    ]);
  });

  it('memory_list and memory_get show what GraphQL shows', async () => {
    const listed = await call(client(), memoryList, { apiKeyId });
    const viaGraphql = await listOf(apiKeyId);
    expect(listed.totalCount).toBe(viaGraphql.totalCount);
    expect(listed.memories.map((m) => m.id)).toEqual(viaGraphql.items.map((m) => m.id));
    const { memory } = await call(client(), memoryGet, { id: listed.memories[0]!.id });
    const viaGraphqlMemory = (await app.ok(GET_MEMORY, { id: memory.id })).memory!;
    expect(memory).toMatchObject({
      id: viaGraphqlMemory.id,
      key: viaGraphqlMemory.key,
      content: viaGraphqlMemory.content,
      type: viaGraphqlMemory.type.toLowerCase(),
      createdAt: viaGraphqlMemory.createdAt,
      status: viaGraphqlMemory.status.toLowerCase(),
    });
  });

  it('memory_update changes the memory GraphQL reads', async () => {
    const [deploy] = (await listOf(apiKeyId)).items.filter((m) => m.key === 'deploy');
    const { memory } = await call(client(), memoryUpdate, {
      id: deploy!.id,
      content: 'Deploys go out on Wednesdays.',
      sessionId: 'week-49',
    });
    expect(memory).toMatchObject({ content: 'Deploys go out on Wednesdays.', sessionId: 'week-49', type: 'procedural' });
    expect((await app.ok(GET_MEMORY, { id: deploy!.id })).memory?.content).toBe('Deploys go out on Wednesdays.');
  });

  it('memory_history shows what the memory said before memory_update changed it, by whom and why', async () => {
    const [deploy] = (await listOf(apiKeyId)).items.filter((m) => m.key === 'deploy');
    const { versions } = await call(client(), memoryHistory, { id: deploy!.id });
    expect(versions).toEqual([
      expect.objectContaining({
        version: 1,
        content: 'Deploys go out on Tuesdays after review.',
        type: 'procedural',
        reason: 'memory_update',
      }),
    ]);
  });

  it('memory_history shows that a memory was superseded: when it held before, and why it changed', async () => {
    const superseding = { apiKeyId: `superseding-${transport}`, type: 'factual' } as const;
    const { memory: vim } = await call(client(), memoryAdd, { ...superseding, key: 'editor', content: 'Uses Vim' });
    await call(client(), memoryAdd, { ...superseding, key: 'editor-2', content: 'Uses Helix', supersedes: [vim.id] });
    const { versions } = await call(client(), memoryHistory, { id: vim.id });
    expect(versions).toEqual([
      expect.objectContaining({
        content: 'Uses Vim',
        validFrom: vim.validFrom,
        validTo: null,
        supersededBy: null,
        reason: 'superseded (caller)',
      }),
    ]);
  });

  it('memory_delete removes the memory for good and returns it as it was', async () => {
    const [deploy] = (await listOf(apiKeyId)).items.filter((m) => m.key === 'deploy');
    const { deleted } = await call(client(), memoryDelete, { id: deploy!.id });
    expect(deleted).toMatchObject({ id: deploy!.id, content: 'Deploys go out on Wednesdays.' });
    expect((await app.ok(GET_MEMORY, { id: deploy!.id })).memory).toBeNull();
    expect((await callError(client(), 'memory_delete', { id: deploy!.id })).code).toBe('NOT_FOUND');
  });

  it('memory_extract stores the facts of a message, keyed so that a change of mind replaces them', async () => {
    const result = await call(client(), memoryExtract, { apiKeyId, text: 'I prefer tabs over spaces. My name is Ada.', sessionId: 's1' });
    expect(result.facts.map((f) => f.category).sort()).toEqual(['identity', 'preference']);
    expect(result.skipped).toBeNull();
    const stored = (await listOf(apiKeyId)).items.filter((m) => m.metadata.source === 'extraction');
    expect(stored.map((m) => m.id).sort()).toEqual(result.memories.map((m) => m.id).sort());
    expect(stored.every((m) => m.metadata.sessionId === 's1')).toBe(true);
  });

  it('memory_clear removes what it says it removed: one type, then what is older than a date, then the rest', async () => {
    await call(client(), memoryAdd, { apiKeyId, type: 'episodic', key: 'meeting', content: 'Met the platform team on Monday.' });
    const before = await listOf(apiKeyId);
    const episodic = before.items.filter((m) => m.type === 'EPISODIC').length;
    expect(await call(client(), memoryClear, { apiKeyId, type: 'episodic' })).toEqual({ apiKeyId, removed: episodic });
    expect((await call(client(), memoryClear, { apiKeyId, olderThan: '2000-01-01T00:00:00Z' })).removed).toBe(0);
    const left = (await listOf(apiKeyId)).totalCount;
    expect(left).toBe(before.totalCount - episodic);
    expect(await call(client(), memoryClear, { apiKeyId })).toEqual({ apiKeyId, removed: left });
    expect((await listOf(apiKeyId)).totalCount).toBe(0);
  });
});

describe('mnemo mcp', () => {
  it('wrote nothing but protocol frames on its stdout', () => {
    expect(clientErrors).toEqual([]);
    expect(stderrOfMcp.join('')).toBe('');
  });

  it('answers every call with UNAUTHENTICATED once its token is revoked, and keeps running', async () => {
    const { createAccessToken } = await app.ok(CREATE_TOKEN, {
      input: { name: 'ide', role: 'GATEWAY', apiKeyId: 'key-ide' },
    });
    const ide = await stdioClient(createAccessToken.token);
    clients.ide = ide;
    await call(ide, memoryAdd, { type: 'factual', key: 'k', content: 'Remember this.' });
    await app.ok(REVOKE_TOKEN, { id: createAccessToken.accessToken.id });
    const refused = { code: 'UNAUTHENTICATED', message: 'the bearer token is unknown or revoked' };
    expect(await callError(ide, 'memory_search', { query: 'this' })).toEqual(refused);
    expect(await callError(ide, 'memory_add', { type: 'factual', key: 'k', content: 'And this.' })).toEqual(refused);
    await expect(ide.listTools()).rejects.toThrow(/UNAUTHENTICATED: the bearer token is unknown or revoked/);
    expect(stderrOfMcp.join('')).toContain('answered HTTP 401');
  });
});
