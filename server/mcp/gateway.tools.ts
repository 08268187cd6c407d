import { z } from 'zod';
import { exactlyOneKey } from '../auth/viewer.ts';
import { MAX_EXTRACTION_INPUT } from '../gateway/extraction.ts';
import { extractAndStore } from '../gateway/gateway.service.ts';
import { MEMORY_TYPES } from '../memory/memory.ts';
import { dateTimeSchema } from '../validation.ts';
import { apiKeyIdArg, MEMORY_OFF, memoryJson, memoryOutput, sessionIdArg } from './memory.tools.ts';
import { defineTool, WRITES } from './tool.ts';

export const memoryExtract = defineTool({
  name: 'memory_extract',
  title: 'Learn facts from a message',
  description:
    'Reads a message for durable facts about the user (preferences, decisions, habits, identity, goals) and stores each under its own key, replacing what was stored under that key before (so "I now prefer Helix" replaces "I prefer Vim"). The message itself is kept too, as a memory of its session, when the captureTurns setting keeps its role; sending it again stores nothing new. Secrets are never stored. With memory switched off nothing is stored, and the answer says so.',
  input: z.strictObject({
    apiKeyId: apiKeyIdArg,
    text: z.string().describe(`The message text; only its last ${MAX_EXTRACTION_INPUT} characters are read.`),
    role: z.enum(['user', 'assistant']).optional().describe('Who wrote the text (default user).'),
    includeAssistant: z
      .boolean()
      .optional()
      .describe("Read assistant text too; off by default, because the assistant's plans are not the user's facts."),
    sessionId: sessionIdArg.optional().describe("Recorded in the facts' metadata; the facts themselves are key-wide."),
    occurredAt: dateTimeSchema
      .optional()
      .describe("When the message was said (ISO 8601): its captured turn's date, and when its facts start to hold. Default: now."),
  }),
  output: z.object({
    facts: z.array(
      z.object({
        key: z.string(),
        content: z.string(),
        type: z.enum(MEMORY_TYPES),
        category: z.enum(['preference', 'decision', 'habit', 'identity', 'goal']),
        polarity: z.enum(['positive', 'negative']),
        source: z.string().describe('The sentence the fact came from.'),
      }),
    ),
    memories: z.array(memoryOutput).describe('The memories written, one per fact.'),
    merged: z
      .int()
      .describe('How many of the facts were merged into a memory that says the same in other words, rather than created or updated.'),
    captured: z
      .array(memoryOutput)
      .describe(
        'The message itself, kept as an episodic memory of its session (secrets redacted; one memory per part of a long message) when the captureTurns setting keeps its role; stored now or, for the same message in the same session, before.',
      ),
    skipped: z.enum(['disabled', 'opted_out']).nullable().describe('Why nothing was extracted, when that was on purpose.'),
    reason: z.string().nullable().describe('What was skipped and why; null otherwise.'),
    storeError: z.string().nullable().describe('Set when storing failed; the facts are still reported.'),
  }),
  annotations: WRITES,
  run: async (args, ctx) => {
    const outcome = await extractAndStore(ctx.services, {
      ...args,
      role: args.role ?? 'user',
      apiKeyId: exactlyOneKey(ctx.viewer, args.apiKeyId),
    });
    return {
      structured: {
        facts: outcome.facts,
        memories: await Promise.all(outcome.memories.map((m) => memoryJson(ctx.services, m))),
        merged: outcome.memories.filter((m) => m.outcome === 'merged').length,
        captured: await Promise.all(outcome.captured.map((m) => memoryJson(ctx.services, m))),
        skipped: outcome.skipped,
        reason: outcome.skipped === 'disabled' ? `Nothing was extracted or stored: ${MEMORY_OFF}` : null,
        storeError: outcome.error,
      },
    };
  },
});
