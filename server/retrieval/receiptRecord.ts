import { z } from 'zod';
import { STRATEGIES } from '../settings/settings.service.ts';
import { LEFT_OUT_REASONS, type Receipt, type ReceiptEntry } from './receipt.ts';
import { TIERS } from './retrieval.ts';
import { SPEAKERS } from './speaker.ts';

/**
 * A receipt as plain JSON, for the injection log and the MCP answer: memories by id only, never their text or key
 * (a logged receipt must not become another copy of what a key holds), decisions and scores as they were.
 */
const candidateSchema = z.object({
  memoryId: z.string(),
  tier: z.enum(TIERS),
  rank: z.int(),
  score: z.number(),
  keywordScore: z.number().nullable(),
  vectorScore: z.number().nullable(),
});

export const receiptRecordSchema = z.object({
  skipped: z.enum(['disabled', 'opted_out', 'zero_budget']).nullable().describe('Why nothing was retrieved, when so.'),
  maxTokens: z.int().nullable().describe('The budget; null when the request opted out.'),
  tokensUsed: z.int(),
  resolution: z
    .object({
      requestedStrategy: z.enum(STRATEGIES),
      tiers: z.array(z.enum(TIERS)),
      fallbackReason: z.string().nullable(),
      embedding: z.object({ source: z.string().nullable(), model: z.string().nullable(), reason: z.string() }).nullable(),
      vectorStore: z.string().nullable(),
      fusion: z
        .object({
          keywordShare: z.number(),
          vectorShare: z.number(),
          agreement: z.number().nullable(),
          margin: z.number().nullable(),
          reason: z.string(),
        })
        .nullable(),
      rerank: z.object({ applied: z.boolean(), model: z.string().nullable(), reason: z.string() }).nullable(),
      nearDuplicates: z.int(),
      belowFloor: z.int().catch(0),
      // Entries written before the speaker was read from the query have none.
      speaker: z.enum(SPEAKERS).nullable().catch(null),
    })
    .nullable()
    .describe('Strategy, tiers, fallback and fusion shares; null when the request opted out.'),
  injected: z.array(candidateSchema.extend({ tokens: z.int(), truncated: z.boolean() })).describe('In the order of the block.'),
  leftOut: z.array(candidateSchema.extend({ reason: z.enum(LEFT_OUT_REASONS) })).describe('By rank, each with why it was left out.'),
});

export type ReceiptRecord = z.output<typeof receiptRecordSchema>;

export function toReceiptRecord(receipt: Receipt): ReceiptRecord {
  const candidate = ({ memoryId, tier, rank, score, keywordScore, vectorScore }: ReceiptEntry) => ({
    memoryId,
    tier,
    rank,
    score,
    keywordScore,
    vectorScore,
  });
  return {
    skipped: receipt.skipped,
    maxTokens: receipt.maxTokens,
    tokensUsed: receipt.tokensUsed,
    resolution: receipt.resolution,
    injected: receipt.injected.map((i) => ({ ...candidate(i), tokens: i.tokens, truncated: i.truncated })),
    leftOut: receipt.leftOut.map((l) => ({ ...candidate(l), reason: l.reason })),
  };
}
