import type { Memory } from '../memory/memory.ts';
import type { Resolution, RetrievedMemory, Tier } from './retrieval.ts';

/**
 * Why a candidate the pipeline saw was left out of the block, recorded where it was dropped. A stage that drops
 * candidates for another reason (a relevance floor, a superseded memory) adds its reason here and records it at the
 * point of the drop with `ReceiptRecorder.leftOut`; the GraphQL enum then asks for its description.
 */
export const LEFT_OUT_REASONS = [
  /** Its line did not fit in what the budget had left. */
  'over_budget',
  /** It nearly repeats a memory already in the block (nearDuplicates.ts). */
  'near_duplicate',
  /** The block already held as many memories as the limit allows: it was never priced. */
  'over_limit',
  /** A hit no keyword evidence backs, under HYBRID's relevance floor (relevanceFloor.ts): never priced. */
  'below_floor',
  /** A fact extracted from a captured turn that the block holds (factsInTurns.ts): the turn says it already. */
  'in_its_turn',
] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** Why nothing was retrieved at all: memory is off, the request opted out, or the budget is 0. */
export type ReceiptSkip = 'disabled' | 'opted_out' | 'zero_budget';

/** A candidate as the budget walk saw it. */
export interface ReceiptEntry {
  memoryId: string;
  /** The memory; null only in a logged receipt whose memory was deleted since. */
  memory: Memory | null;
  tier: Tier;
  /** Its place (from 1) in the order the walk went through: enforced memories, the ranking, then standing facts. */
  rank: number;
  /** The fused score (rerank score when reranked), with any session-adjacency boost. */
  score: number;
  keywordScore: number | null;
  vectorScore: number | null;
}

export interface InjectedEntry extends ReceiptEntry {
  tokens: number;
  truncated: boolean;
}

export interface LeftOutEntry extends ReceiptEntry {
  reason: LeftOutReason;
}

/** What one retrieval did with every candidate it saw: exactly the pipeline's own decisions, nothing re-derived. */
export interface Receipt {
  skipped: ReceiptSkip | null;
  /** The budget; null when the request opted out before any was chosen. */
  maxTokens: number | null;
  tokensUsed: number;
  /** Strategy, tiers, fallback and fusion shares; null when the request opted out. */
  resolution: Resolution | null;
  injected: InjectedEntry[];
  leftOut: LeftOutEntry[];
}

/**
 * Collects a receipt while one retrieval runs; made only when a receipt is asked for, so a retrieval without one pays
 * nothing. A candidate may be seen twice (a standing fact too large for the relevant hits' walk is tried again by the
 * profile's): its first place is its rank, its last refusal its reason, and being injected in the end clears it.
 */
export class ReceiptRecorder {
  private readonly seen = new Map<number, { rank: number; candidate: RetrievedMemory; reason: LeftOutReason | null }>();

  /** The candidates a walk is about to go through, in its order. */
  considered(candidates: readonly RetrievedMemory[]): void {
    for (const candidate of candidates)
      if (!this.seen.has(candidate.memory.pk)) this.seen.set(candidate.memory.pk, { rank: this.seen.size + 1, candidate, reason: null });
  }

  /** A considered candidate the walk refused, and why. */
  leftOut(candidate: RetrievedMemory, reason: LeftOutReason): void {
    const entry = this.seen.get(candidate.memory.pk);
    if (entry) entry.reason = reason;
  }

  receipt(result: { items: readonly RetrievedMemory[]; tokensUsed: number; maxTokens: number; resolution: Resolution }): Receipt {
    const injectedPks = new Set(result.items.map((i) => i.memory.pk));
    const leftOut: LeftOutEntry[] = [];
    for (const { rank, candidate, reason } of this.seen.values())
      if (reason !== null && !injectedPks.has(candidate.memory.pk)) leftOut.push({ ...entryOf(candidate, rank), reason });
    return {
      skipped: null,
      maxTokens: result.maxTokens,
      tokensUsed: result.tokensUsed,
      resolution: result.resolution,
      injected: result.items.map((i) => ({
        ...entryOf(i, this.seen.get(i.memory.pk)?.rank ?? 0),
        tokens: i.tokens,
        truncated: i.truncated,
      })),
      leftOut,
    };
  }
}

/** The receipt of a retrieval that did not run. */
export function skippedReceipt(skipped: ReceiptSkip, maxTokens: number | null, resolution: Resolution | null): Receipt {
  return { skipped, maxTokens, tokensUsed: 0, resolution, injected: [], leftOut: [] };
}

function entryOf(c: RetrievedMemory, rank: number): ReceiptEntry {
  return {
    memoryId: c.memory.id,
    memory: c.memory,
    tier: c.tier,
    rank,
    score: c.score,
    keywordScore: c.keywordScore,
    vectorScore: c.vectorScore,
  };
}
