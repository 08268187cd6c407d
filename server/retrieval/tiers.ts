import { searchWords } from '../db/searchWords.ts';
import { type Memory, rowToMemory } from '../memory/memory.ts';
import { STOP_WORDS } from '../search/stopWords.ts';
import { weakKeywordMatches } from './keywordEvidence.ts';
import * as repo from './retrieval.repository.ts';
import type { Resolution, RetrievalDeps, RetrievedMemory, Tier } from './retrieval.ts';

/** What a tier (keyword or vector) found, or why it could not answer: each ranks on its own and fails on its own. */
export type TierResult = ({ ok: true; candidates: RetrievedMemory[] } | { ok: false; reason: string }) & {
  embedding: Resolution['embedding'];
  store: string | null;
  /** Set when another store than the selected one answered (Qdrant down), and why. */
  note?: string | null;
  /** The vector tier's model is a weak one (EmbeddingChoice.weak). */
  weak?: boolean;
  /** The keyword tier's hits whose match is no evidence for the query (keywordEvidence.ts), by pk. */
  weakMatches?: ReadonlySet<number>;
};

export async function keywordTier(deps: RetrievalDeps, scope: repo.RetrievalScope, query: string, limit: number): Promise<TierResult> {
  const words = searchWords(query, { skip: STOP_WORDS });
  const base = { embedding: null, store: null };
  if (words.length === 0) return { ...base, ok: true, candidates: [] };
  try {
    const hits = await repo.keywordCandidates(deps.db, scope, words, limit);
    const candidates = hits.rows.map((row, i) => ({
      ...candidate(rowToMemory(row), 'keyword', row.score),
      keywordScore: row.score,
      keywordRank: i + 1,
    }));
    return { ...base, ok: true, candidates, weakMatches: weakKeywordMatches(query, words, hits) };
  } catch (error) {
    deps.logger?.error({ err: error }, 'keyword tier failed');
    return { ...base, ok: false, reason: 'the keyword index returned an error' };
  }
}

export async function vectorTier(
  deps: RetrievalDeps,
  scope: repo.RetrievalScope,
  query: string,
  limit: number,
  opts: { maintainIndex: boolean },
): Promise<TierResult> {
  const vectors = deps.vectors;
  if (!vectors) return { ok: false, reason: 'no vector search is configured', embedding: null, store: null };
  const { choice } = await vectors.embedding();
  const info = {
    embedding: { source: choice.source, model: choice.model, reason: choice.reason },
    store: vectors.index.backend,
    weak: choice.weak ?? false,
  };
  const readiness = await vectors.readiness();
  if (!readiness.ready) return { ...info, ok: false, reason: readiness.reason };
  if (query.trim() === '') return { ...info, ok: true, candidates: [] };
  try {
    // Lazy backfill: memories written since the worker last ran get their vectors before the search.
    if (opts.maintainIndex) await vectors.embedPending({ limit: vectors.backfillLimit, apiKeyId: scope.apiKeyId });
    // The index knows no keys: it is asked for as many more hits as there are keys to leave out, which the rows'
    // scope then drops.
    const k = limit + (scope.excludeKeys?.length ?? 0);
    const { hits, store, note } = await vectors.search(readiness.embedder, query, scope, k, { prepare: opts.maintainIndex });
    const rows = new Map(
      (
        await repo.memoriesInScope(
          deps.db,
          scope,
          hits.map((h) => h.pk),
        )
      ).map((r) => [r.pk, r]),
    );
    const candidates = hits.flatMap((hit, i) => {
      const row = rows.get(hit.pk);
      return row ? [{ ...candidate(rowToMemory(row), 'vector', hit.similarity), vectorScore: hit.similarity, vectorRank: i + 1 }] : [];
    });
    return { ...info, store, note, ok: true, candidates };
  } catch (error) {
    deps.logger?.warn({ err: error }, 'vector tier failed');
    return { ...info, ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** A ranked memory as a tier found it, before fusion and the budget. */
export function candidate(memory: Memory, tier: Tier, score: number): RetrievedMemory {
  return {
    memory,
    content: memory.content,
    truncated: false,
    tier,
    score,
    keywordScore: null,
    keywordRank: null,
    vectorScore: null,
    vectorRank: null,
    tokens: 0,
    adjacentTo: null,
  };
}
