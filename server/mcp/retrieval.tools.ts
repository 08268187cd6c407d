import { z } from 'zod';
import { exactlyOneKey } from '../auth/viewer.ts';
import { MEMORY_TYPES } from '../memory/memory.ts';
import { receiptRecordSchema, toReceiptRecord } from '../retrieval/receiptRecord.ts';
import { retrieve } from '../retrieval/retrieval.service.ts';
import { type RetrievalResult, TIERS } from '../retrieval/retrieval.ts';
import { STRATEGIES } from '../settings/settings.service.ts';
import { limitSchema, maxTokensSchema, rangeText } from '../validation.ts';
import { apiKeyIdArg, MEMORY_OFF, memoryTypeArg, sessionIdArg } from './memory.tools.ts';
import { defineTool, READS } from './tool.ts';

/** Why a retrieval returned nothing, in words a model can pass on; null when it returned memories. */
function emptyReason(result: RetrievalResult): string | null {
  if (result.skipped === 'disabled') return `Nothing was retrieved: ${MEMORY_OFF}`;
  if (result.skipped === 'zero_budget') return 'maxTokens is 0: there is no room for any memory.';
  return result.items.length === 0 ? 'No stored memory matched.' : null;
}

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memories',
  description:
    "Finds what is remembered about the user or the task, ranked by relevance to `query` and fitted into a token budget: the same retrieval a gateway injects before a chat request. The text answer is the memory block exactly as it would be injected; the structured answer lists each memory with its score and tier. Counts as a retrieval in the key's statistics (access counts, hit rate); changes no memory.",
  input: z.strictObject({
    apiKeyId: apiKeyIdArg,
    query: z
      .string()
      .optional()
      .describe("What to look for, in plain words (usually the user's last message). Without it: the newest memories."),
    sessionId: sessionIdArg.optional().describe("Limit to this session's memories and the key-wide ones."),
    type: memoryTypeArg.optional().describe('Only memories of this type.'),
    maxTokens: maxTokensSchema
      .optional()
      .describe(`Token budget of the memory block, ${rangeText(maxTokensSchema)}; defaults to the settings.`),
    limit: limitSchema.optional().describe(`At most this many memories, ${rangeText(limitSchema)} (default 50).`),
    strategy: z
      .enum(STRATEGIES)
      .optional()
      .describe('EXACT: newest first; SEMANTIC: by meaning; HYBRID: keywords and meaning combined. Defaults to the settings.'),
    receipt: z
      .boolean()
      .optional()
      .describe('Also answer a receipt: every memory considered, with its scores and rank, injected or left out and why.'),
  }),
  output: z.object({
    memories: z.array(
      z.object({
        id: z.string(),
        key: z.string(),
        type: z.enum(MEMORY_TYPES),
        content: z.string().describe('The text injected; shorter than the memory only when truncated.'),
        truncated: z.boolean(),
        score: z.number().describe('Higher is better; comparable within one answer.'),
        tier: z.enum(TIERS).describe('Which part of retrieval found it.'),
        tokens: z.int().describe('Tokens this memory costs in the block.'),
      }),
    ),
    tokensUsed: z.int().describe('Tokens of the memory block (o200k_base); never above maxTokens.'),
    maxTokens: z.int(),
    strategy: z.enum(STRATEGIES),
    skipped: z.enum(['disabled', 'zero_budget']).nullable().describe('Set when nothing was retrieved on purpose.'),
    reason: z.string().nullable().describe('Why nothing was returned; null when memories were.'),
    fallbackReason: z.string().nullable().describe('Why a tier the strategy wanted did not answer (e.g. no embedding model).'),
    receipt: receiptRecordSchema.optional().describe('When asked for: what became of every memory considered, by id.'),
  }),
  annotations: READS,
  run: async (args, ctx) => {
    const { type, receipt, ...input } = args;
    const result = await retrieve(
      ctx.services,
      { ...input, types: type ? [type] : null, apiKeyId: exactlyOneKey(ctx.viewer, args.apiKeyId) },
      { record: true, receipt: receipt ?? false },
    );
    const reason = emptyReason(result);
    return {
      structured: {
        memories: result.items.map((item) => ({
          id: item.memory.id,
          key: item.memory.key,
          type: item.memory.type,
          content: item.content,
          truncated: item.truncated,
          score: item.score,
          tier: item.tier,
          tokens: item.tokens,
        })),
        tokensUsed: result.tokensUsed,
        maxTokens: result.maxTokens,
        strategy: result.resolution.requestedStrategy,
        skipped: result.skipped,
        reason,
        fallbackReason: result.resolution.fallbackReason,
        ...(result.receipt && { receipt: toReceiptRecord(result.receipt) }),
      },
      text: result.block ?? reason ?? '',
    };
  },
});
