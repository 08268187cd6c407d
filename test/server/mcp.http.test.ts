import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryExtract } from '../../server/mcp/gateway.tools.ts';
import { memoryAdd, memoryList } from '../../server/mcp/memory.tools.ts';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { call, callText, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { CREATE_TOKEN, REVOKE_TOKEN, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
let admin: Client;

beforeAll(async () => {
  app = await startTestApp();
  admin = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
});

afterAll(async () => {
  await admin?.close();
  await app?.close();
});

/** A raw request to /mcp, for what the SDK's client never sends (another Host, an Origin, a GET). */
function rawRequest(opts: { method?: string; headers?: Record<string, string>; body?: unknown }) {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${app.url}/mcp`, {
      method: opts.method ?? 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...opts.headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

describe('the tool list', () => {
  it('lists the nine memory tools, each with a title, a description, and input and output schemas', async () => {
    const { tools } = await admin.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'memory_search',
      'memory_add',
      'memory_clear',
      'memory_list',
      'memory_get',
      'memory_history',
      'memory_update',
      'memory_delete',
      'memory_extract',
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });

  it('marks the reading tools read-only and every writing tool destructive, none of them open-world', async () => {
    const { tools } = await admin.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['memory_search', 'memory_list', 'memory_get', 'memory_history']) {
      expect(hints[name], name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    // An upsert replaces what the key held, an extraction replaces facts stored under the same key.
    for (const name of ['memory_add', 'memory_update', 'memory_delete', 'memory_clear', 'memory_extract']) {
      expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    }
  });

  it('requires what each tool cannot do without, and nothing else', async () => {
    const { tools } = await admin.listTools();
    const required = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema.required ?? []]));
    expect(required).toEqual({
      memory_search: [],
      memory_add: ['type', 'key', 'content'],
      memory_clear: [],
      memory_list: [],
      memory_get: ['id'],
      memory_history: ['id'],
      memory_update: ['id'],
      memory_delete: ['id'],
      memory_extract: ['text'],
    });
    const search = tools.find((t) => t.name === 'memory_search')!;
    expect(Object.keys(search.inputSchema.properties!)).toEqual([
      'apiKeyId',
      'query',
      'sessionId',
      'type',
      'maxTokens',
      'limit',
      'strategy',
      'receipt',
    ]);
    expect(search.inputSchema.properties!.strategy).toMatchObject({ enum: ['EXACT', 'SEMANTIC', 'HYBRID'] });
    expect(search.inputSchema.properties!.maxTokens).toMatchObject({ type: 'integer', minimum: 0, maximum: 16000 });
  });
});

describe('authentication', () => {
  it('answers a request without a token with 401 and a WWW-Authenticate challenge', async () => {
    const res = await rawRequest({ body: PING });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="mnemo"');
    expect(JSON.parse(res.body).error.message).toBe('send Authorization: Bearer <token>');
  });

  it('answers an unknown token with 401 invalid_token, and the SDK client cannot connect', async () => {
    const res = await rawRequest({ headers: { authorization: 'Bearer not-a-token' }, body: PING });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="mnemo", error="invalid_token"');
    await expect(mcpClient(httpTransport(app.url, 'not-a-token'))).rejects.toThrow(StreamableHTTPError);
  });

  it('refuses a revoked token on its next call', async () => {
    const { createAccessToken } = await app.ok(CREATE_TOKEN, { input: { name: 'agent', role: 'GATEWAY', apiKeyId: 'key-revoked' } });
    const client = await mcpClient(httpTransport(app.url, createAccessToken.token));
    await call(client, memoryAdd, { type: 'factual', key: 'k', content: 'before the revocation' });
    await app.ok(REVOKE_TOKEN, { id: createAccessToken.accessToken.id });
    const refused = await client.callTool({ name: 'memory_list', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
    await client.close();
  });
});

describe('the transport', () => {
  it('is stateless: GET and DELETE are 405, and no session id is handed out', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect((await rawRequest({ method: 'GET', headers: { ...auth, accept: 'text/event-stream' } })).status).toBe(405);
    expect((await rawRequest({ method: 'DELETE', headers: auth })).status).toBe(405);
    const ping = await rawRequest({ headers: auth, body: PING });
    expect(ping.status).toBe(200);
    expect(ping.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(ping.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('refuses a Host that does not name this machine while bound to localhost (DNS rebinding)', async () => {
    const res = await rawRequest({ headers: { authorization: `Bearer ${ADMIN_TOKEN}`, host: 'attacker.example:4000' }, body: PING });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toContain('attacker.example');
  });

  it("refuses a web page's Origin other than this machine's, and accepts a local one", async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect((await rawRequest({ headers: { ...auth, origin: 'https://attacker.example' }, body: PING })).status).toBe(403);
    expect((await rawRequest({ headers: { ...auth, origin: 'null' }, body: PING })).status).toBe(403);
    expect((await rawRequest({ headers: { ...auth, origin: 'http://localhost:6274' }, body: PING })).status).toBe(200);
  });

  it('checks the Origin before the token, so a page learns nothing about tokens', async () => {
    const res = await rawRequest({ headers: { authorization: 'Bearer guess', origin: 'https://attacker.example' }, body: PING });
    expect(res.status).toBe(403);
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(admin.callTool({ name: 'memory_forget_everything', arguments: {} })).rejects.toThrow(
      /Unknown tool: memory_forget_everything/,
    );
  });
});

describe('with memory switched on', () => {
  beforeAll(async () => {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  });

  it('memory_add answers with the memory and no word of memory being off', async () => {
    const result = await call(admin, memoryAdd, { apiKeyId: 'key-on', type: 'factual', key: 'editor', content: 'The user prefers Helix.' });
    expect(result).toMatchObject({ memory: { key: 'editor' }, disabled: false, reason: null });
  });
});

describe('with memory switched off', () => {
  beforeAll(async () => {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: false } });
  });

  it('memory_search returns nothing and says why, in the text and the structured content', async () => {
    await call(admin, memoryAdd, { apiKeyId: 'key-off', type: 'factual', key: 'editor', content: 'The user prefers Helix.' });
    const result = await call(admin, memorySearch, { apiKeyId: 'key-off', query: 'Helix' });
    expect(result.memories).toEqual([]);
    expect(result.skipped).toBe('disabled');
    expect(result.reason).toMatch(/switched off in the settings \(enabled: false\)/);
    expect(await callText(admin, 'memory_search', { apiKeyId: 'key-off', query: 'Helix' })).toBe(result.reason);
  });

  it('memory_add still stores (curation), as createMemory does', async () => {
    await call(admin, memoryAdd, { apiKeyId: 'key-off', type: 'factual', key: 'shell', content: 'The user works in fish.' });
    const listed = await call(admin, memoryList, { apiKeyId: 'key-off' });
    expect(listed.memories.map((m) => m.key).sort()).toEqual(['editor', 'shell']);
  });

  it('memory_add says the memory is stored but nothing will retrieve it while memory is off', async () => {
    const result = await call(admin, memoryAdd, {
      apiKeyId: 'key-off-add',
      type: 'factual',
      key: 'pager',
      content: 'The user reads with less.',
    });
    expect(result).toMatchObject({ memory: { key: 'pager', status: 'active' }, disabled: true });
    expect(result.reason).toMatch(/^Stored, but nothing will retrieve it yet: memory is switched off in the settings \(enabled: false\)/);
  });

  it('memory_extract stores nothing and says why', async () => {
    const result = await call(admin, memoryExtract, { apiKeyId: 'key-off', text: 'I prefer tabs over spaces.' });
    expect(result).toMatchObject({ facts: [], memories: [], skipped: 'disabled' });
    expect(result.reason).toMatch(/Nothing was extracted or stored: memory is switched off/);
    expect((await call(admin, memoryList, { apiKeyId: 'key-off' })).totalCount).toBe(2);
  });
});

describe('error masking', () => {
  it('answers an unexpected error as "Unexpected error." with no SQL, path or stack, and keeps serving', async () => {
    vi.spyOn(app.services.settings, 'get').mockRejectedValueOnce(
      new Error('SQLITE_CORRUPT: select name, value from "settings" in /var/lib/mnemo/mnemo.db'),
    );
    const result = await admin.callTool({ name: 'memory_list', arguments: { apiKeyId: 'k' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'INTERNAL_SERVER_ERROR: Unexpected error.' }],
      structuredContent: { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected error.' } },
      isError: true,
    });
    expect((await call(admin, memoryList, { apiKeyId: 'k' })).totalCount).toBe(0);
  });
});
