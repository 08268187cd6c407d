import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryAdd, memoryList } from '../../server/mcp/memory.tools.ts';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { LIMITS } from '../../server/validation.ts';
import { call, callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { EXPORT_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
let agent: Client;
let before: unknown;

beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  agent = await mcpClient(httpTransport(app.url, await app.mintToken({ apiKeyId: 'key-a' })));
  await call(agent, memoryAdd, { type: 'factual', key: 'editor', content: 'The user configures Helix as their editor.' });
});

/** The stored memories of key A, without the access counters that searches move. */
async function storedMemories() {
  const { exportMemories } = await app.ok<{ exportMemories: Record<string, unknown>[] }>(EXPORT_MEMORIES, { apiKeyId: 'key-a' });
  return exportMemories.map(({ accessCount: _count, ...memory }) => memory);
}

beforeEach(async () => {
  before = await storedMemories();
});

// Every refusal leaves the data as it was, and the server answering the next call.
afterEach(async () => {
  expect(await storedMemories()).toEqual(before);
  expect((await call(agent, memorySearch, { query: 'editor' })).memories).toHaveLength(1);
});

afterAll(async () => {
  await agent?.close();
  await app?.close();
});

describe('arguments that do not fit the schema are a BAD_USER_INPUT tool error', () => {
  it('names a missing argument', async () => {
    const error = await callError(agent, 'memory_add', { type: 'factual', key: 'k' });
    expect(error).toEqual({ code: 'BAD_USER_INPUT', message: 'content: Invalid input: expected string, received undefined' });
  });

  it('names an argument the tool does not take', async () => {
    const error = await callError(agent, 'memory_search', { query: 'editor', topK: 5 });
    expect(error).toEqual({ code: 'BAD_USER_INPUT', message: 'Unrecognized key: "topK"' });
  });

  it.each([
    ['memory_search', { limit: 'ten' }, 'limit: Invalid input: expected number, received string'],
    ['memory_search', { maxTokens: 1.5 }, 'maxTokens must be a whole number'],
    ['memory_search', { maxTokens: 16_001 }, 'maxTokens must be between 0 and 16000'],
    ['memory_add', { type: 'factual', key: 'k', content: 42 }, 'content: Invalid input: expected string, received number'],
    ['memory_add', { type: 'factual', key: 'k', content: 'x', metadata: [1, 2] }, 'metadata must be a JSON object'],
    ['memory_list', { includeExpired: 'yes' }, 'includeExpired: Invalid input: expected boolean, received string'],
  ])('says which argument of %s has the wrong type or range: %j', async (tool, args, message) => {
    const error = await callError(agent, tool, args);
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(message);
  });

  it.each([
    ['memory_search', { query: 'editor \ud800' }, 'query'],
    ['memory_extract', { text: 'I prefer \udc00 tabs.' }, 'text'],
    ['memory_add', { type: 'factual', key: 'k', content: 'x', metadata: { nested: ['\ud800'] } }, 'metadata.nested[0]'],
  ])('refuses text of %s that is not well-formed Unicode, as GraphQL does: %j', async (tool, args, field) => {
    expect(await callError(agent, tool, args)).toEqual({
      code: 'BAD_USER_INPUT',
      message: `${field} is not well-formed Unicode (it holds a lone surrogate)`,
    });
  });

  it.each([
    ['memory_search', { query: 'editor \u0000' }, 'query'],
    ['memory_add', { type: 'factual', key: 'k', content: 'x', metadata: { nested: ['a\u0000b'] } }, 'metadata.nested[0]'],
  ])('refuses text of %s holding U+0000, as GraphQL does: %j', async (tool, args, field) => {
    expect(await callError(agent, tool, args)).toEqual({
      code: 'BAD_USER_INPUT',
      message: `${field} holds a NUL character (U+0000), and NUL characters are not accepted`,
    });
  });

  it('lists the memory types when given one that does not exist', async () => {
    const error = await callError(agent, 'memory_add', { type: 'preference', key: 'k', content: 'x' });
    expect(error).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'type: Invalid option: expected one of "factual"|"episodic"|"procedural"|"semantic"|"enforced"',
    });
  });

  it('refuses a date that is not an ISO 8601 instant, or not a day of the calendar', async () => {
    expect(await callError(agent, 'memory_add', { type: 'factual', key: 'k', content: 'x', expiresAt: 'tomorrow' })).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'expiresAt: DateTime must be an ISO 8601 string such as 2026-01-31T12:00:00Z',
    });
    expect((await callError(agent, 'memory_clear', { olderThan: '2026-02-30T00:00:00Z' })).message).toBe(
      'olderThan: "2026-02-30T00:00:00Z" is not a valid date',
    );
  });

  it('refuses an id that is not a UUID', async () => {
    expect(await callError(agent, 'memory_get', { id: "1' or '1'='1" })).toEqual({ code: 'BAD_USER_INPUT', message: 'id must be a UUID' });
  });
});

describe('content and text that reach the store', () => {
  it('refuses 5 MB of content with the same limit and words as createMemory', async () => {
    const error = await callError(agent, 'memory_add', { type: 'factual', key: 'huge', content: 'x'.repeat(5_000_000) });
    expect(error).toEqual({ code: 'BAD_USER_INPUT', message: `content is longer than ${LIMITS.contentChars} characters` });
  });

  it('refuses blank content and a blank key', async () => {
    expect((await callError(agent, 'memory_add', { type: 'factual', key: 'k', content: '   ' })).message).toBe('content must not be empty');
    expect((await callError(agent, 'memory_add', { type: 'factual', key: ' ', content: 'x' })).message).toBe('key must not be empty');
  });

  it.each(['"unbalanced', 'editor AND OR NOT', 'NEAR(editor helix, 2)', 'content:helix', 'edi* ^helix {col} (', '\u0001\uFFFF🙂'])(
    'searches FTS5 syntax in the query as plain words, never as an error: %j',
    async (query) => {
      const searched = await call(agent, memorySearch, { query, strategy: 'HYBRID' });
      expect(searched.skipped).toBeNull();
      const listed = await call(agent, memoryList, { search: query });
      expect(listed.totalCount).toBeLessThanOrEqual(1);
    },
  );
});

describe('requests the transport refuses', () => {
  const MCP_HEADERS = {
    authorization: `Bearer ${ADMIN_TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };

  it('answers a body over the limit with HTTP 413 before reading it, and keeps serving', async () => {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'memory_add', arguments: { content: 'x'.repeat(LIMITS.requestBodyBytes) } },
      }),
    });
    expect(res.status).toBe(413);
  });

  it('answers a chunked body that grows over the limit with HTTP 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${app.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      // The server may close the connection before the whole body is sent.
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      const chunk = Buffer.alloc(1_000_000, 'x');
      for (let sent = 0; sent <= LIMITS.requestBodyBytes; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: '{"jsonrpc": "2.0", "method": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
