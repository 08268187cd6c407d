import { z } from 'zod';
import type { MemoryTypeValue } from '../db/schema.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { BLOCK_FRAME_TOKENS, lineTokens } from '../memory/blockTokens.ts';
import { formatMemoryBlock, type InjectableMemory } from '../memory/injection.ts';
import { MEMORY_TYPES, type Memory, rowToMemory } from '../memory/memory.ts';
import { type RetentionSettings, retentionCutoff, STRATEGIES } from '../settings/settings.service.ts';
import { truncateToTokens } from '../tokenCount.ts';
import { apiKeyIdSchema, limitSchema, maxTokensSchema, memoryDate, parseInput, sessionIdSchema } from '../validation.ts';
import { ADJACENT_SOURCES, answersEachOther, boostNeighbours } from './adjacency.ts';
import { BlockRepeats } from './blockRepeats.ts';
import { fitToBudget } from './budget.ts';
import { turnsAtTheirFactsPlace } from './factsInTurns.ts';
import { type FusionShares, fuseTiers } from './fusion.ts';
import { bestSentences, queryStems, stemWeights } from './matchingSentences.ts';
import { type Receipt, ReceiptRecorder, skippedReceipt } from './receipt.ts';
import { aboveRelevanceFloor } from './relevanceFloor.ts';
import * as repo from './retrieval.repository.ts';
import type { Resolution, RetrievalDeps, RetrievalResult, RetrievedMemory, RetrieveInput, Strategy, Tier } from './retrieval.ts';
import { askedSpeaker, preferSpeaker } from './speaker.ts';
import { nested, type StageClock } from './stageClock.ts';
import { candidate, keywordTier, type TierResult, vectorTier } from './tiers.ts';

const DEFAULT_LIMIT = 50;
/**
 * Ranked candidates considered by the budget walk, per item wanted: the spares replace memories too large for
 * what is left of the budget. Every candidate is a row read and converted, so not more than the walk can use.
 */
const CANDIDATE_FACTOR = 1.5;
const ENFORCED_LIMIT = 50;
/** Only the head of the ranking is worth a reranker's time on the request path. */
const RERANK_DEPTH = 50;

const inputSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  sessionId: sessionIdSchema.nullish(),
  query: z.string().nullish(),
  strategy: z.enum(STRATEGIES).nullish(),
  maxTokens: maxTokensSchema.nullish(),
  limit: limitSchema.nullish(),
  types: z.array(z.enum(MEMORY_TYPES)).nullish(),
  excludeKeys: z.array(z.string()).nullish(),
  asOf: memoryDate('asOf').nullish(),
});

/**
 * Finds the memories to inject for a query and fits them into the token budget.
 * `record` counts the retrieval (access counters, hit rate), as the gateway call does; a preview does not.
 * `clock` is charged the time of each stage (stageClock.ts).
 * `receipt` keeps what became of every candidate (receipt.ts); without it nothing of that is collected.
 */
export async function retrieve(
  deps: RetrievalDeps,
  rawInput: RetrieveInput,
  options: { record: boolean; clock?: StageClock; receipt?: boolean },
): Promise<RetrievalResult> {
  const { clock } = options;
  const input = parseInput(inputSchema, rawInput);
  const settings = await deps.settings.get();
  clock?.lap('settings', 1);
  const strategy = input.strategy ?? settings.strategy;
  const maxTokens = input.maxTokens ?? settings.maxTokens;
  const resolution: Resolution = {
    requestedStrategy: strategy,
    tiers: [],
    fallbackReason: null,
    embedding: null,
    vectorStore: null,
    fusion: null,
    rerank: null,
    nearDuplicates: 0,
    belowFloor: 0,
    speaker: null,
  };
  const empty = (skipped: RetrievalResult['skipped']): RetrievalResult => ({
    items: [],
    tokensUsed: 0,
    maxTokens,
    candidates: 0,
    resolution,
    skipped,
    block: null,
    receipt: options.receipt && skipped ? skippedReceipt(skipped, maxTokens, resolution) : null,
  });
  if (options.record && !settings.enabled) return observed(deps, empty('disabled'));
  if (options.record && maxTokens === 0) return observed(deps, empty('zero_budget'));

  // A preview shows the counters as they are; the gateway call never waits for a write.
  if (!options.record) {
    await deps.access.flush();
    clock?.lap('recording', 0);
  }
  const scope = retrievalScope(deps.now(), settings, input);
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rankRun = () =>
    rank(deps, scope, input.query ?? '', strategy, Math.ceil(limit * CANDIDATE_FACTOR), {
      maintainIndex: options.record,
      fusionVectorShare: settings.fusionVectorShare,
      clock,
    });
  const enforcedRun = () => repo.enforcedMemories(deps.db, scope, ENFORCED_LIMIT);
  // The enforced memories do not depend on the ranking: where the store runs reads side by side, they are read beside
  // it; with a clock each stage is timed alone.
  const [ranked, enforcedRows] =
    !clock && storeDialect(deps.db).parallelReads ? await Promise.all([rankRun(), enforcedRun()]) : [await rankRun(), await enforcedRun()];
  const enforced = enforcedRows.map((row, i) => candidate(rowToMemory(row), 'enforced', ENFORCED_LIMIT - i));
  clock?.lap('enforced', enforced.length);
  const enforcedIds = new Set(enforced.map((c) => c.memory.id));
  const all = turnsAtTheirFactsPlace([...enforced, ...ranked.candidates.filter((c) => !enforcedIds.has(c.memory.id))]);

  const recorder = options.receipt ? new ReceiptRecorder() : null;
  recorder?.considered(all);
  if (recorder && ranked.belowFloor) {
    recorder.considered(ranked.belowFloor);
    for (const c of ranked.belowFloor) recorder.leftOut(c, 'below_floor');
  }
  const taken = new BlockRepeats();
  const fitted = fitBlock(all, { maxTokens, limit, taken, recorder, clock, query: queryStems(input.query ?? '') });
  clock?.lap('budget', all.length);
  const { items, used, considered } = await withProfile(deps, scope, fitted, {
    maxTokens,
    limit,
    percent: settings.profileBudgetPercent,
    taken,
    clock,
    recorder,
  });
  clock?.lap('profile', considered);
  if (options.record)
    deps.access.record(
      input.apiKeyId,
      items.map((i) => i.memory.pk),
      scope.now,
    );
  const result = new Retrieved(items, {
    tokensUsed: used,
    maxTokens,
    candidates: all.length + considered,
    resolution: {
      ...ranked.resolution,
      requestedStrategy: strategy,
      tiers: [
        ...(enforced.length > 0 ? (['enforced'] as Tier[]) : []),
        ...ranked.resolution.tiers,
        ...(items.some((i) => i.tier === 'adjacent') ? (['adjacent'] as Tier[]) : []),
        ...(items.some((i) => i.tier === 'profile') ? (['profile'] as Tier[]) : []),
      ],
      nearDuplicates: taken.nearDuplicates,
    },
  });
  if (recorder) result.receipt = recorder.receipt(result);
  if (options.record) observed(deps, result);
  clock?.lap('recording', items.length);
  return result;
}

/**
 * A retrieval's result, its block formatted when first read. A class, not an object literal with a getter (which V8
 * makes a dictionary-mode object): with the literal, every result and the items it held outlived young-generation
 * collections into the old generation, 50–70 KB a call in a loop of EXACT retrieves; under 1 KB as a class.
 */
class Retrieved implements RetrievalResult {
  readonly skipped = null;
  receipt: Receipt | null = null;
  readonly tokensUsed: number;
  readonly maxTokens: number;
  readonly candidates: number;
  readonly resolution: Resolution;
  #block: string | null | undefined;

  constructor(
    readonly items: RetrievedMemory[],
    o: Pick<RetrievalResult, 'tokensUsed' | 'maxTokens' | 'candidates' | 'resolution'>,
  ) {
    this.tokensUsed = o.tokensUsed;
    this.maxTokens = o.maxTokens;
    this.candidates = o.candidates;
    this.resolution = o.resolution;
  }

  get block(): string | null {
    this.#block ??= this.items.length > 0 ? formatMemoryBlock(this.items.map(injectable)) : null;
    return this.#block;
  }
}

/**
 * What a retrieval of this key (and session and types, when given) may return at `now`: its current memories (or those
 * that held at `asOf`) that are not archived, expired or out of retention under these settings. The admin's Qdrant
 * search has the same.
 */
export function retrievalScope(
  now: number,
  settings: RetentionSettings,
  of: {
    apiKeyId: string;
    sessionId?: string | null;
    types?: readonly MemoryTypeValue[] | null;
    asOf?: Date | null;
    excludeKeys?: readonly string[] | null;
  },
): repo.RetrievalScope {
  return {
    apiKeyId: of.apiKeyId,
    sessionId: of.sessionId ?? null,
    types: of.types ?? null,
    excludeKeys: of.excludeKeys ?? [],
    now,
    retentionCutoff: retentionCutoff(now, settings),
    asOf: of.asOf?.getTime() ?? null,
  };
}

/** Counts a gateway retrieval in the metrics (a preview is not one). */
function observed(deps: RetrievalDeps, result: RetrievalResult): RetrievalResult {
  deps.metrics?.observeRetrieval({
    strategy: result.resolution.requestedStrategy,
    tiers: result.resolution.tiers,
    fallbackReason: result.resolution.fallbackReason,
    skipped: result.skipped,
    tokensUsed: result.tokensUsed,
    items: result.items.length,
  });
  return result;
}

type Ranked = {
  candidates: RetrievedMemory[];
  resolution: Omit<Resolution, 'requestedStrategy' | 'nearDuplicates'>;
  /** HYBRID's vector hits left out under the relevance floor, for a receipt. */
  belowFloor?: RetrievedMemory[];
};

async function rank(
  deps: RetrievalDeps,
  scope: repo.RetrievalScope,
  query: string,
  strategy: Strategy,
  limit: number,
  opts: { maintainIndex: boolean; fusionVectorShare: number | null; clock: StageClock | undefined },
): Promise<Ranked> {
  const { clock } = opts;
  const speaker = askedSpeaker(query);
  const base = { fallbackReason: null, embedding: null, vectorStore: null, fusion: null, rerank: null, belowFloor: 0, speaker: null };
  if (strategy === 'EXACT') {
    const rows = await repo.recentCandidates(deps.db, scope, limit);
    const candidates = rows.map((row, i) => candidate(rowToMemory(row), 'exact', 1 / (i + 1)));
    clock?.lap('exact', rows.length);
    return { candidates, resolution: { ...base, tiers: ['exact'] } };
  }
  const keywordRun = () => (strategy === 'HYBRID' ? keywordTier(deps, scope, query, limit) : Promise.resolve(null));
  const vectorRun = () => vectorTier(deps, scope, query, limit, opts);
  // Both tiers run on their own: a failure of one never discards what the other found.
  const [keyword, vector] = clock ? await lapTiers(clock, keywordRun, vectorRun) : await Promise.all([keywordRun(), vectorRun()]);
  const resolution = { ...base, embedding: vector.embedding, vectorStore: vector.store };
  if (strategy === 'SEMANTIC') {
    if (vector.ok) {
      const candidates = breakTies(preferSpeaker(vector.candidates, speaker));
      clock?.lap('fusion', candidates.length);
      return rerank(deps, query, clock, {
        candidates,
        resolution: { ...resolution, tiers: ['vector'], fallbackReason: vector.note ?? null, speaker },
      });
    }
    const fallback = await keywordTier(deps, scope, query, limit);
    clock?.lap('keyword', fallback.ok ? fallback.candidates.length : 0);
    const candidates = fallback.ok ? await inContext(deps, scope, preferSpeaker(fallback.candidates, speaker)) : [];
    clock?.lap('adjacency', candidates.length);
    return {
      candidates,
      resolution: {
        ...resolution,
        speaker,
        tiers: ['keyword'],
        fallbackReason: `vector search unavailable (${vector.reason}); keyword search answered`,
      },
    };
  }
  const tiers: Tier[] = [];
  const reasons: string[] = [];
  if (keyword?.ok) tiers.push('keyword');
  else reasons.push(`keyword search failed (${keyword?.reason})`);
  if (vector.ok) tiers.push('vector');
  else reasons.push(`vector search unavailable (${vector.reason})`);
  const failures =
    reasons.length > 0 ? `${reasons.join('; ')}; ${tiers.length > 0 ? `${tiers.join(' and ')} answered` : 'nothing answered'}` : null;
  const fallbackReason = [vector.note, failures].filter(Boolean).join('; ') || null;
  const keywordHits = keyword?.ok ? keyword.candidates : [];
  const vectorHits = vector.ok ? vector.candidates : [];
  const similarityFloor = deps.vectors?.minSimilarity ?? 0;
  const fused = fuse(keywordHits, vectorHits, { manual: opts.fusionVectorShare, floor: similarityFloor });
  const weakMatches = keyword?.ok ? (keyword.weakMatches ?? new Set<number>()) : new Set<number>();
  const { kept, belowFloor } = aboveRelevanceFloor(fused.candidates, {
    keyword: keywordHits,
    weakMatches,
    vector: vectorHits,
    weakModel: vector.weak ?? false,
    similarityFloor,
  });
  clock?.lap('fusion', fused.candidates.length);
  // Shares are only worth showing when there were two tiers to weigh.
  const fusion = keyword?.ok && vector.ok ? fused.shares : null;
  // Session neighbours make up for words a turn does not repeat: for rankings keyword evidence took part in.
  const spoken = preferSpeaker(kept, speaker);
  const matched = keywordHits.some((c) => !weakMatches.has(c.memory.pk));
  const candidates = matched ? await inContext(deps, scope, spoken) : breakTies(spoken);
  clock?.lap('adjacency', candidates.length);
  return rerank(deps, query, clock, {
    candidates,
    resolution: { ...resolution, tiers, fallbackReason, fusion, belowFloor: belowFloor.length, speaker },
    belowFloor,
  });
}

/** The tiers one after the other, each its own lap. */
async function lapTiers(clock: StageClock, keywordRun: () => Promise<TierResult | null>, vectorRun: () => Promise<TierResult>) {
  const found = (t: TierResult | null) => (t?.ok ? t.candidates.length : 0);
  const keyword = await keywordRun();
  clock.lap('keyword', found(keyword));
  const vector = await vectorRun();
  clock.lap('vector', found(vector));
  return [keyword, vector] as const;
}

function fuse(
  keyword: RetrievedMemory[],
  vector: RetrievedMemory[],
  o: { manual: number | null; floor: number },
): { candidates: RetrievedMemory[]; shares: FusionShares } {
  const { fused, shares } = fuseTiers(
    keyword.map((c) => ({ item: c, score: c.keywordScore ?? 0 })),
    vector.map((c) => ({ item: c, score: c.vectorScore ?? 0 })),
    (c) => c.memory.pk,
    o,
  );
  const byVector = new Map(vector.map((c) => [c.memory.pk, c]));
  const byKeyword = new Map(keyword.map((c) => [c.memory.pk, c]));
  const candidates = fused.map(({ item, score }) => {
    const k = byKeyword.get(item.memory.pk);
    const v = byVector.get(item.memory.pk);
    return {
      ...item,
      tier: k && v ? 'hybrid' : k ? 'keyword' : 'vector',
      score,
      keywordScore: k?.keywordScore ?? null,
      keywordRank: k?.keywordRank ?? null,
      vectorScore: v?.vectorScore ?? null,
      vectorRank: v?.vectorRank ?? null,
      adjacentTo: null,
    } satisfies RetrievedMemory;
  });
  return { candidates, shares };
}

/** Reorders the head of the ranking with the configured reranker; on any failure the order stays as it was. */
async function rerank(deps: RetrievalDeps, query: string, clock: StageClock | undefined, ranked: Ranked): Promise<Ranked> {
  const reranked = await rerankHead(deps, query, ranked);
  clock?.lap('rerank', reranked.resolution.rerank?.applied ? Math.min(RERANK_DEPTH, ranked.candidates.length) : 0);
  return reranked;
}

async function rerankHead(deps: RetrievalDeps, query: string, ranked: Ranked): Promise<Ranked> {
  if (!deps.rerank || ranked.candidates.length < 2 || query.trim() === '') return ranked;
  const { reranker, reason } = await deps.rerank.reranker();
  if (!reranker) return { ...ranked, resolution: { ...ranked.resolution, rerank: { applied: false, model: null, reason } } };
  const head = ranked.candidates.slice(0, RERANK_DEPTH);
  try {
    const order = await reranker.rerank(
      query,
      head.map((c) => c.memory.content),
      head.length,
    );
    const seen = new Set(order.map((o) => o.index));
    const reordered = [...order.map((o) => ({ ...head[o.index]!, score: o.score })), ...head.filter((_, i) => !seen.has(i))];
    return {
      ...ranked,
      candidates: [...reordered, ...ranked.candidates.slice(RERANK_DEPTH)],
      resolution: { ...ranked.resolution, rerank: { applied: true, model: reranker.model, reason } },
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ...ranked,
      resolution: {
        ...ranked.resolution,
        rerank: { applied: false, model: reranker.model, reason: `rerank failed (${why}); fused order kept` },
      },
    };
  }
}

/** A retrieved memory as the block shows it: its content as fitted to the budget. */
function injectable(i: RetrievedMemory): InjectableMemory {
  return { id: i.memory.id, type: i.memory.type, key: i.memory.key, content: i.content };
}

/**
 * The ranking with the session neighbours of its best hits boosted (adjacency.ts), then its ties broken: of
 * memories with the same score, the one written or used most recently comes first, then the most used.
 */
async function inContext(deps: RetrievalDeps, scope: repo.RetrievalScope, ranked: RetrievedMemory[]): Promise<RetrievedMemory[]> {
  const sources = ranked.slice(0, ADJACENT_SOURCES).filter((c) => c.memory.sessionId !== null);
  if (sources.length === 0) return breakTies(ranked);
  const rows = await repo.sessionNeighbours(
    deps.db,
    scope,
    sources.map((c) => ({ pk: c.memory.pk, sessionId: c.memory.sessionId!, createdAt: c.memory.createdAt.getTime() })),
  );
  const ids = new Map(ranked.map((c) => [c.memory.pk, c.memory.id]));
  const hits = new Map(sources.map((c) => [c.memory.pk, c.memory]));
  const boosted = boostNeighbours(
    ranked.map((c) => ({ item: c, score: c.score })),
    rows.map((row) => {
      const item = candidate(rowToMemory(row), 'adjacent', 0);
      return { id: row.pk, of: row.neighbour_of, item, boost: answersEachOther(hits.get(row.neighbour_of)!, item.memory) };
    }),
    (c) => c.memory.pk,
  );
  return breakTies(
    boosted.map(({ item, score, adjacentTo }) => (adjacentTo === null ? item : { ...item, score, adjacentTo: ids.get(adjacentTo)! })),
  );
}

/** Recency and use only break ties: runs of equal scores are reordered, a difference in score always decides. */
function breakTies(ranked: RetrievedMemory[]): RetrievedMemory[] {
  const lastUsed = (m: Memory) => Math.max(m.updatedAt.getTime(), m.lastAccessedAt?.getTime() ?? 0);
  const out: RetrievedMemory[] = [];
  for (let start = 0; start < ranked.length; ) {
    let end = start + 1;
    while (end < ranked.length && ranked[end]!.score === ranked[start]!.score) end++;
    const run = ranked.slice(start, end);
    if (run.length > 1) run.sort((a, b) => lastUsed(b.memory) - lastUsed(a.memory) || b.memory.accessCount - a.memory.accessCount);
    out.push(...run);
    start = end;
  }
  return out;
}

/**
 * Budget walk over the injected block: each memory costs the tokens of its line, the block's frame is paid once,
 * and the parts add up exactly to the block (memory/blockTokens.ts), so the budget is never exceeded.
 */
function fitBlock(
  ranked: RetrievedMemory[],
  o: {
    maxTokens: number;
    limit: number;
    taken: BlockRepeats;
    recorder: ReceiptRecorder | null;
    clock: StageClock | undefined;
    query: ReadonlySet<string>;
  },
) {
  const { maxTokens, limit, taken, recorder, clock } = o;
  const cost = (c: RetrievedMemory) => (c.truncated ? c.tokens : lineTokens({ type: c.memory.type, content: c.content }));
  const budget = maxTokens - BLOCK_FRAME_TOKENS;
  // Weighed only once something is cut: most blocks never need it.
  let weights: ReadonlyMap<string, number> | null = null;
  const weigh = () => {
    weights ??= stemWeights(
      o.query,
      ranked.map((r) => r.memory.content),
    );
    return weights;
  };
  const { items, used } = fitToBudget(ranked, {
    budget,
    maxItems: limit,
    cost,
    truncate: (c, tokens) => shorten(c, tokens),
    cut: (c, room) => toBestSentences(c, weigh(), room),
    share: Math.floor(budget / BLOCK_SHARES),
    refuse: (c) => nested(clock, 'nearDuplicates', () => taken.refuse(c)),
    leftOut: recorder ? (c, reason) => recorder.leftOut(c, reason) : undefined,
  });
  return { items: items.map((c) => ({ ...c, tokens: cost(c) })), used: items.length > 0 ? used + BLOCK_FRAME_TOKENS : 0 };
}

/**
 * After the relevant hits, a bounded share of the budget (profileBudgetPercent of maxTokens) carries the key's
 * standing facts, most recently used first: a question that shares no word with "Prefers Helix over Vim" still
 * gets it. They only take what the relevant hits left, budget and item limit alike, so they never displace one.
 */
async function withProfile(
  deps: RetrievalDeps,
  scope: repo.RetrievalScope,
  fitted: { items: RetrievedMemory[]; used: number },
  o: {
    maxTokens: number;
    limit: number;
    percent: number;
    taken: BlockRepeats;
    recorder: ReceiptRecorder | null;
    clock: StageClock | undefined;
  },
): Promise<{ items: RetrievedMemory[]; used: number; considered: number }> {
  const none = { ...fitted, considered: 0 };
  const slots = o.limit - fitted.items.length;
  // The block's frame is paid once: by the relevant hits if there are any, else by the profile facts.
  const spent = fitted.items.length > 0 ? fitted.used : BLOCK_FRAME_TOKENS;
  const room = Math.min(Math.floor((o.maxTokens * o.percent) / 100), o.maxTokens - spent);
  if (slots <= 0 || room <= 0) return none;
  const taken = new Set(fitted.items.map((i) => i.memory.pk));
  const rows = (await repo.profileMemories(deps.db, scope, slots + taken.size)).filter((r) => !taken.has(r.pk));
  const facts = rows.map((row) => candidate(rowToMemory(row), 'profile', 0));
  o.recorder?.considered(facts);
  const { items, used } = fitToBudget(facts, {
    budget: room,
    maxItems: slots,
    cost: (c) => lineTokens({ type: c.memory.type, content: c.content }),
    truncate: () => null,
    refuse: (c) => nested(o.clock, 'nearDuplicates', () => o.taken.refuse(c)),
    leftOut: o.recorder ? (c, reason) => o.recorder!.leftOut(c, reason) : undefined,
  });
  if (items.length === 0) return { ...none, considered: rows.length };
  return {
    items: [...fitted.items, ...items.map((c) => ({ ...c, tokens: lineTokens({ type: c.memory.type, content: c.content }) }))],
    used: spent + used,
    considered: rows.length,
  };
}

/** Below this much room a cut carries too little of any text to be worth its line. */
const MIN_CUT_ROOM = 24;

/**
 * While the candidates would not all fit whole, a standalone text longer than 1/BLOCK_SHARES of the block is cut to
 * its sentences most about the question, so the block carries about this many hits instead of one or two whole
 * documents. SciFact (abstracts of about 350 tokens, no model) at 500 tokens: 0.660 → 0.767 of questions with
 * evidence, at 2,000 unchanged (0.790); 3 gained less (0.747), 5 a little more (0.783) by cutting more abstracts at
 * 2,000 as well (docs/retrieval-quality.md).
 */
const BLOCK_SHARES = 4;

/**
 * A standalone text cut to its best sentences for the question that fit in `room` (matchingSentences.ts), cut again
 * at the end if even the best sentence does not. A conversation's turn (a memory with a session) is never cut:
 * measured on LongMemEval, cut pieces of long turns ranked above the evidence took the room a whole short turn
 * further down would have had (docs/retrieval-quality.md).
 */
function toBestSentences(c: RetrievedMemory, weights: ReadonlyMap<string, number>, room: number): RetrievedMemory | null {
  if (c.memory.sessionId !== null || room < MIN_CUT_ROOM) return null;
  const fits = (content: string) => lineTokens({ type: c.memory.type, content }) <= room;
  const content = bestSentences(c.memory.content, weights, fits);
  if (content === null) return null;
  const cost = lineTokens({ type: c.memory.type, content });
  return cost <= room ? { ...c, content, truncated: true, tokens: cost } : shorten(c, room, content);
}

function shorten(c: RetrievedMemory, tokens: number, text = c.memory.content): RetrievedMemory | null {
  const overhead = lineTokens({ type: c.memory.type, content: '' });
  // The ellipsis and token merges at the cut can cost a token or two more than planned: step down a little.
  for (let room = tokens - overhead, tries = 0; room > 0 && tries < 8; room--, tries++) {
    const content = truncateToTokens(text, room);
    const cost = lineTokens({ type: c.memory.type, content });
    if (cost <= tokens) return { ...c, content, truncated: true, tokens: cost };
  }
  return null;
}
