import type { MemoryTypeValue } from '../db/schema.ts';
import type { MemoryDeps } from '../memory/memory.service.ts';
import type { Memory } from '../memory/memory.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { STRATEGIES } from '../settings/settings.service.ts';
import type { VectorService } from '../vector/vector.service.ts';
import type { FusionShares } from './fusion.ts';
import type { Receipt } from './receipt.ts';
import type { RerankService } from './rerank.service.ts';
import type { Speaker } from './speaker.ts';

/** What ranking needs beyond the memories' own services. */
export interface RetrievalDeps extends MemoryDeps {
  /** Vector search; without it SEMANTIC and HYBRID answer from keyword search and say so. */
  vectors?: VectorService;
  /** The reranker the settings choose; without it the ranking stays as fused. */
  rerank?: RerankService;
  /** Counts gateway retrievals; tools and tests may go without. */
  metrics?: Metrics;
}

export type Strategy = (typeof STRATEGIES)[number];
/**
 * Where a memory came from: `hybrid` when both the keyword and the vector tier found it; `adjacent` when no tier
 * found it but it was written next to a hit in the same session (adjacency.ts); `profile` when it is one of the
 * key's standing facts added after the relevant hits (see withProfile).
 */
export const TIERS = ['enforced', 'exact', 'keyword', 'vector', 'hybrid', 'adjacent', 'profile'] as const;
export type Tier = (typeof TIERS)[number];

export interface RetrieveInput {
  apiKeyId: string;
  sessionId?: string | null;
  query?: string | null;
  strategy?: Strategy | null;
  maxTokens?: number | null;
  limit?: number | null;
  types?: readonly MemoryTypeValue[] | null;
  /**
   * Keys of memories never to return: injectMemory passes the captured turns of the request's own conversation, which
   * the model reads in the request already. Not a GraphQL argument.
   */
  excludeKeys?: readonly string[] | null;
  /** What held at this instant instead of what holds now: the memories written by then and valid then. */
  asOf?: Date | null;
}

export interface RetrievedMemory {
  memory: Memory;
  /** The text injected: the memory's content, shortened only when it alone exceeds the budget. */
  content: string;
  truncated: boolean;
  tier: Tier;
  /**
   * Higher is better; comparable within one result (the fused score for HYBRID, rerank score when reranked),
   * including the session-adjacency boost.
   */
  score: number;
  keywordScore: number | null;
  keywordRank: number | null;
  /** Cosine similarity to the query. */
  vectorScore: number | null;
  vectorRank: number | null;
  /** Tokens this memory costs in the injected block. */
  tokens: number;
  /** The id of the hit this memory was written next to in the same session, when that raised its rank. */
  adjacentTo: string | null;
}

export interface Resolution {
  requestedStrategy: Strategy;
  /** The tiers that produced candidates, in the order they ran. */
  tiers: Tier[];
  /** Why a tier that the strategy wanted did not answer, or null. */
  fallbackReason: string | null;
  embedding: { source: string | null; model: string | null; reason: string } | null;
  vectorStore: string | null;
  /** HYBRID with both tiers answering: the shares the tiers were fused with, and why. */
  fusion: FusionShares | null;
  rerank: { applied: boolean; model: string | null; reason: string } | null;
  /** Memories the budget walk left out because they nearly repeat one already in the block (nearDuplicates.ts). */
  nearDuplicates: number;
  /** HYBRID: vector hits left out under the relevance floor, with no keyword match behind them (relevanceFloor.ts). */
  belowFloor: number;
  /** Whose words the query asks about; that speaker's memories were ranked higher (speaker.ts). */
  speaker: Speaker | null;
}

export interface RetrievalResult {
  items: RetrievedMemory[];
  tokensUsed: number;
  maxTokens: number;
  candidates: number;
  resolution: Resolution;
  /** Set when nothing was retrieved on purpose: memory is disabled, or the budget is 0. */
  skipped: 'disabled' | 'zero_budget' | null;
  /**
   * The memory block exactly as it is injected (tokensUsed is its cost); null when nothing was retrieved. Made when
   * first read, so a caller that only wants the items (most gateways) does not pay for formatting it.
   */
  readonly block: string | null;
  /** What became of every candidate, when a receipt was asked for (or the injection log keeps one); null otherwise. */
  receipt: Receipt | null;
}
