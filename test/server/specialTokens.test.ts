import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../server/tokenCount.ts';
import {
  CREATE_MEMORY,
  EXTRACT_FACTS,
  GET_MEMORY,
  IMPORT_MEMORIES,
  MEMORY_STATS,
  RETRIEVE,
  SUMMARIZE,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { ALL_SPECIAL_TOKENS } from '../helpers/specialTokens.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 365 } });
});
afterAll(() => app.close());

describe('text that names model special tokens', () => {
  it('covers every special token of the tokenizer', () => {
    expect(ALL_SPECIAL_TOKENS).toEqual(expect.arrayContaining(['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|endofprompt|>']));
  });

  it('is stored by createMemory and counted as plain text', async () => {
    const content = 'Wrap each turn in <|im_start|>user … <|im_end|> and stop at <|endoftext|>';
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'st-create', content } });
    expect(createMemory.content).toBe(content);
    expect(createMemory.tokens).toBe(countTokens(content));
    expect(createMemory.tokens).toBeGreaterThan(ALL_SPECIAL_TOKENS.length);
  });

  it('is stored by updateMemory', async () => {
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'st-update', content: 'Uses chat markup' } });
    const content = 'Uses chat markup: <|im_start|>system<|im_sep|>';
    const { updateMemory } = await app.ok(UPDATE_MEMORY, { id: createMemory.id, input: { content } });
    expect(updateMemory).toMatchObject({ content, tokens: countTokens(content) });
  });

  it('is imported with the rest of its batch', async () => {
    const memories = ALL_SPECIAL_TOKENS.map((token, i) => ({
      apiKeyId: 'st-import',
      key: `k${i}`,
      content: `The model emits ${token} here`,
    }));
    const { importMemories } = await app.ok(IMPORT_MEMORIES, { memories });
    expect(importMemories).toEqual({ imported: ALL_SPECIAL_TOKENS.length, updated: 0, rejected: [] });
    const { memories: page } = await app.ok(MEMORY_STATS, { apiKeyId: 'st-import' });
    expect(page.stats.totalEntries).toBe(ALL_SPECIAL_TOKENS.length);
    expect(page.stats.tokensUsed).toBe(memories.reduce((n, m) => n + countTokens(m.content), 0));
  });

  it('keeps the facts of a message that mentions one', async () => {
    const { extractFacts } = await app.ok(EXTRACT_FACTS, {
      input: { apiKeyId: 'st-extract', role: 'USER', text: 'I prefer ending prompts with <|endoftext|>. I like Rust.' },
    });
    expect(extractFacts.error).toBeNull();
    expect(extractFacts.facts.map((f) => f.content).join(' ')).toMatch(/<\|endoftext\|>/);
    expect(extractFacts.memories).toHaveLength(extractFacts.facts.length);
    expect(extractFacts.facts.length).toBeGreaterThanOrEqual(2);
  });

  it('is injected within the budget, priced exactly as the block it ends up in', async () => {
    for (const token of ALL_SPECIAL_TOKENS) {
      await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'st-retrieve', content: `Prompt template ends with ${token}` } });
    }
    const { retrieve } = await app.ok(RETRIEVE, { input: { apiKeyId: 'st-retrieve', strategy: 'EXACT', maxTokens: 60 } });
    expect(retrieve.items.length).toBeGreaterThan(0);
    expect(retrieve.tokensUsed).toBe(countTokens(retrieve.block!));
    expect(retrieve.tokensUsed).toBeLessThanOrEqual(60);
  });

  it('is summarized into a summary whose token count is its text', async () => {
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const memories = ALL_SPECIAL_TOKENS.map((token, i) => ({
      apiKeyId: 'st-summary',
      key: `s${i}`,
      content: `Old note ${token}`,
      createdAt: old,
    }));
    await app.ok(IMPORT_MEMORIES, { memories });
    const { summarize } = await app.ok(SUMMARIZE, { apiKeyId: 'st-summary', olderThanDays: 30, dryRun: false });
    const [summary] = summarize.summaries;
    expect(summary!.content).toContain('<|endoftext|>');
    expect(summary!.tokens).toBe(countTokens(summary!.content));
  });
});

/** Arbitrary text with special-token spellings spliced in anywhere, which must survive a round trip through the API. */
const textWithSpecialTokens = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom(...ALL_SPECIAL_TOKENS, '<|', '|>', '<|im_')), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(''))
  .filter((s) => s.trim() !== '');

describe('any text with special tokens in it', () => {
  it('is stored unchanged, counted as plain text and injected within the budget', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(textWithSpecialTokens, async (content) => {
        const apiKeyId = `st-prop-${n++}`;
        const created = await app.gql(CREATE_MEMORY, { input: { apiKeyId, content } });
        expect(created.errors).toBeUndefined();
        const { memory } = await app.ok(GET_MEMORY, { id: created.data.createMemory.id });
        expect(memory).toMatchObject({ content, tokens: countTokens(content) });
        const { retrieve } = await app.ok(RETRIEVE, { input: { apiKeyId, strategy: 'EXACT', maxTokens: 16_000 } });
        expect(retrieve.items).toHaveLength(1);
        expect(retrieve.tokensUsed).toBe(countTokens(retrieve.block!));
      }),
      { numRuns: 60 },
    );
  });
});
