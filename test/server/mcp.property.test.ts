import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { createMemory } from '../../server/memory/memory.service.ts';
import { MEMORY_TYPES } from '../../server/memory/memory.ts';
import { STRATEGIES } from '../../server/settings/settings.service.ts';
import type { MemoryType } from '../generated/graphql.ts';
import { httpTransport, mcpClient } from '../helpers/mcp.ts';
import { RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
let client: Client;

beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  client = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
});

afterAll(async () => {
  await client?.close();
  await app?.close();
});

const WORDS = ['helix', 'vim', 'editor', 'tabs', 'spaces', 'fish', 'shell', 'rust', 'python', 'coffee', 'deploy', 'friday', 'review'];
// Words a user may type that mean something to FTS5.
const SYNTAX = ['"', 'AND', 'OR', 'NOT', 'NEAR(', '*', '^', 'content:', '(', ')'];
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const memoryArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  type: fc.constantFrom(...MEMORY_TYPES),
  sessionId: optional(fc.constantFrom('s1', 's2')),
});

const searchArb = fc.record({
  query: optional(fc.array(fc.constantFrom(...WORDS, ...SYNTAX), { maxLength: 5 }).map((w) => w.join(' '))),
  sessionId: optional(fc.constantFrom('s1', 's2')),
  type: optional(fc.constantFrom(...MEMORY_TYPES)),
  maxTokens: optional(fc.integer({ min: 0, max: 400 })),
  limit: optional(fc.integer({ min: 1, max: 30 })),
  strategy: optional(fc.constantFrom(...STRATEGIES)),
});

let run = 0;

// The profile fill orders standing facts by their last use, which every retrieval moves: the generated memories have
// no profile category, so both calls see the same state whichever goes first.
it('memory_search returns the same memories, in the same order, with the same block, as GraphQL retrieve', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(memoryArb, { maxLength: 25 }), searchArb, async (stored, search) => {
      const apiKeyId = `prop-${run++}`;
      for (const m of stored) {
        await createMemory(app.services, { apiKeyId, type: m.type, sessionId: m.sessionId, content: m.words.join(' ') });
      }
      const { type, ...rest } = search;
      const result = (await client.callTool({ name: memorySearch.name, arguments: { apiKeyId, ...search } })) as CallToolResult;
      const viaMcp = result.structuredContent as z.input<typeof memorySearch.output>;
      const { retrieve } = await app.ok(RETRIEVE, {
        input: { apiKeyId, ...rest, types: type ? [type.toUpperCase() as MemoryType] : null },
      });

      expect(viaMcp.memories.map((m) => [m.id, m.tier, m.score, m.tokens, m.content, m.truncated])).toEqual(
        retrieve.items.map((i) => [i.memory.id, i.tier.toLowerCase(), i.score, i.tokens, i.content, i.truncated]),
      );
      expect([viaMcp.tokensUsed, viaMcp.maxTokens, viaMcp.skipped]).toEqual([
        retrieve.tokensUsed,
        retrieve.maxTokens,
        retrieve.skipped?.toLowerCase() ?? null,
      ]);
      if (retrieve.block !== null) expect(result.content).toEqual([{ type: 'text', text: retrieve.block }]);
    }),
    { numRuns: 40 },
  );
});
