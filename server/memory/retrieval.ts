import { z } from 'zod';
import type { MemoryTypeValue } from '../db/schema.ts';
import { STRATEGIES } from '../settings/settings.ts';
import { parseInput } from '../validation.ts';
import { fitToBudget } from './budget.ts';
import { toFtsQuery } from './ftsQuery.ts';
import { formatMemoryBlock, formatMemoryLine } from './injection.ts';
import { MEMORY_TYPES, type Memory, retentionCutoff, rowToMemory } from './memory.ts';
import type { MemoryDeps } from './memory.service.ts';
import * as repo from './retrieval.repository.ts';
import { STOP_WORDS } from './stopWords.ts';
import { countTokens, truncateToTokens } from './tokenCount.ts';

export type Strategy = (typeof STRATEGIES)[number];
export type Tier = 'enforced' | 'exact' | 'keyword';

export interface RetrieveInput {
  apiKeyId: string;
  sessionId?: string | null;
  query?: string | null;
  strategy?: Strategy | null;
  maxTokens?: number | null;
  limit?: number | null;
  types?: readonly MemoryTypeValue[] | null;
}

export interface RetrievedMemory {
  memory: Memory;
  /** The text injected: the memory's content, shortened only when it alone exceeds the budget. */
  content: string;
  truncated: boolean;
  tier: Tier;
  /** Higher is better; comparable within one result. */
  score: number;
  keywordScore: number | null;
  keywordRank: number | null;
  /** Tokens this memory costs in the injected block. */
  tokens: number;
}

export interface Resolution {
  requestedStrategy: Strategy;
  /** The tiers that produced candidates, in the order they ran. */
  tiers: Tier[];
  /** Why a lower tier answered instead of the requested one, or null. */
  fallbackReason: string | null;
}

export interface RetrievalResult {
  items: RetrievedMemory[];
  tokensUsed: number;
  maxTokens: number;
  candidates: number;
  resolution: Resolution;
  /** Set when nothing was retrieved on purpose: memory is disabled, or the budget is 0. */
  skipped: 'disabled' | 'zero_budget' | null;
}

const DEFAULT_LIMIT = 50;
/** Ranked candidates considered by the budget walk; generous, since ranking already put the best first. */
const CANDIDATE_FACTOR = 4;
const ENFORCED_LIMIT = 50;

const inputSchema = z.object({
  apiKeyId: z.string().trim().min(1, 'apiKeyId must not be empty').max(256),
  sessionId: z.string().trim().min(1, 'sessionId must not be empty').max(256).nullish(),
  query: z.string().nullish(),
  strategy: z.enum(STRATEGIES).nullish(),
  maxTokens: z.number().int('maxTokens must be a whole number').min(0, 'maxTokens must be at least 0').max(16_000, 'maxTokens must be at most 16000').nullish(),
  limit: z.number().int('limit must be a whole number').min(1, 'limit must be at least 1').max(500, 'limit must be at most 500').nullish(),
  types: z.array(z.enum(MEMORY_TYPES)).nullish(),
});

/**
 * Finds the memories to inject for a query and fits them into the token budget.
 * `record` counts the retrieval (access counters, hit rate), as the gateway call does; a preview does not.
 */
export async function retrieve(deps: MemoryDeps, rawInput: RetrieveInput, options: { record: boolean }): Promise<RetrievalResult> {
  const input = parseInput(inputSchema, rawInput);
  const settings = await deps.settings.get();
  const strategy = input.strategy ?? settings.strategy;
  const maxTokens = input.maxTokens ?? settings.maxTokens;
  const empty = (skipped: RetrievalResult['skipped']): RetrievalResult => ({
    items: [],
    tokensUsed: 0,
    maxTokens,
    candidates: 0,
    resolution: { requestedStrategy: strategy, tiers: [], fallbackReason: null },
    skipped,
  });
  if (options.record && !settings.enabled) return empty('disabled');
  if (options.record && maxTokens === 0) return empty('zero_budget');

  const now = (deps.now ?? Date.now)();
  const scope: repo.RetrievalScope = {
    apiKeyId: input.apiKeyId,
    sessionId: input.sessionId ?? null,
    types: input.types ?? null,
    now,
    retentionCutoff: retentionCutoff(now, settings.retentionDays),
  };
  const limit = input.limit ?? DEFAULT_LIMIT;
  const ranked = await rankCandidates(deps, scope, input.query ?? '', strategy, limit * CANDIDATE_FACTOR);
  const enforced = (await repo.enforcedMemories(deps.db, scope, ENFORCED_LIMIT)).map((row, i) => candidate(rowToMemory(row), 'enforced', ENFORCED_LIMIT - i));
  const enforcedIds = new Set(enforced.map((c) => c.memory.id));
  const all = [...enforced, ...ranked.candidates.filter((c) => !enforcedIds.has(c.memory.id))];

  const { items, used } = fitBlock(all, maxTokens, limit);
  if (options.record) await repo.recordRetrieval(deps.db, input.apiKeyId, items.map((i) => i.memory.pk), now);
  return {
    items,
    tokensUsed: used,
    maxTokens,
    candidates: all.length,
    resolution: { requestedStrategy: strategy, tiers: [...(enforced.length > 0 ? (['enforced'] as Tier[]) : []), ...ranked.tiers], fallbackReason: ranked.fallbackReason },
    skipped: null,
  };
}

async function rankCandidates(deps: MemoryDeps, scope: repo.RetrievalScope, query: string, strategy: Strategy, limit: number) {
  if (strategy === 'EXACT') {
    const rows = await repo.recentCandidates(deps.db, scope, limit);
    return { candidates: rows.map((row, i) => candidate(rowToMemory(row), 'exact', 1 / (i + 1))), tiers: ['exact'] as Tier[], fallbackReason: null };
  }
  const fallbackReason = `${strategy} needs a vector index, which is not available; keyword search answered`;
  const terms = toFtsQuery(query, { match: 'any', skip: STOP_WORDS });
  if (terms === null) return { candidates: [], tiers: ['keyword'] as Tier[], fallbackReason };
  const rows = await repo.keywordCandidates(deps.db, scope, terms, limit);
  const candidates = rows.map((row, i) => ({ ...candidate(rowToMemory(row), 'keyword', -row.bm25), keywordScore: -row.bm25, keywordRank: i + 1 }));
  return { candidates, tiers: ['keyword'] as Tier[], fallbackReason };
}

function candidate(memory: Memory, tier: Tier, score: number): RetrievedMemory {
  return { memory, content: memory.content, truncated: false, tier, score, keywordScore: null, keywordRank: null, tokens: 0 };
}

const asInjectable = (c: RetrievedMemory) => ({ id: c.memory.id, type: c.memory.type, key: c.memory.key, content: c.content });

/**
 * Budget walk over the injected block: each memory costs the tokens of its line, the block's frame
 * is paid once, and the final block is measured exactly so the budget is never exceeded.
 */
function fitBlock(ranked: RetrievedMemory[], maxTokens: number, limit: number) {
  const frame = countTokens(formatMemoryBlock([]));
  const lineCost = (c: RetrievedMemory) => countTokens(formatMemoryLine(asInjectable(c))) + 1;
  const priced = ranked.map((c) => ({ ...c, tokens: lineCost(c) }));
  const { items } = fitToBudget(priced, {
    budget: maxTokens - frame,
    cost: (c) => c.tokens,
    truncate: (c, tokens) => shorten(c, tokens, lineCost),
  });
  const chosen = items.slice(0, limit);
  for (;;) {
    const used = chosen.length > 0 ? countTokens(formatMemoryBlock(chosen.map(asInjectable))) : 0;
    if (used <= maxTokens) return { items: chosen, used };
    chosen.pop();
  }
}

function shorten(c: RetrievedMemory, tokens: number, lineCost: (c: RetrievedMemory) => number): RetrievedMemory | null {
  const overhead = lineCost({ ...c, content: '' });
  // The ellipsis and token merges at the cut can cost a token or two more than planned: step down a little.
  for (let room = tokens - overhead, tries = 0; room > 0 && tries < 8; room--, tries++) {
    const cut = { ...c, content: truncateToTokens(c.memory.content, room), truncated: true };
    const cost = lineCost(cut);
    if (cost <= tokens) return { ...cut, tokens: cost };
  }
  return null;
}
