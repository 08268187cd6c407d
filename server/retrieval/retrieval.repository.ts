import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import { inScope, type RetrievalScope } from '../db/scope.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { keywordSearch } from '../search/keywordSearch.ts';

export type { RetrievalScope } from '../db/scope.ts';

/**
 * BM25-ranked keyword candidates in scope, best first, each with its score: the words (searchWords) ranked with the
 * key's own statistics, by the store's keyword index (search/keywordSearch.ts).
 */
export async function keywordCandidates(db: Db, scope: RetrievalScope, words: readonly string[], limit: number) {
  return keywordSearch(db).keywordCandidates(db, scope, words, limit);
}

/** The newest memories in scope, for the EXACT strategy, as each store reads them best (db/sqlite and db/postgres newestInScope.ts). */
export async function recentCandidates(db: Db, scope: RetrievalScope, limit: number) {
  return storeDialect(db).newestInScope(db, scope, limit);
}

/**
 * Enforced memories ride along with every retrieval, ahead of ranked ones. Newest created first: that order
 * lets SQLite read them straight from the (api_key_id, type, created_at) index instead of scanning the tenant.
 */
export async function enforcedMemories(db: Db, scope: RetrievalScope, limit: number) {
  return db
    .selectFrom('memories')
    .selectAll()
    .where((eb) => inScope(eb, { ...scope, types: null }))
    .where('type', '=', 'enforced')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Extraction categories that describe the user for good (gateway/extraction.ts), not one conversation: what a profile
 * fill may add to any retrieval. The partial index memories_profile lists exactly these, so keep the two equal.
 */
export const PROFILE_CATEGORIES = ['preference', 'habit', 'identity', 'decision'] as const;

/**
 * The key's standing facts in scope, most recently used or written first, then most accessed: read from the
 * partial index memories_profile, so their cost does not grow with the key's other memories.
 */
export async function profileMemories(db: Db, scope: RetrievalScope, limit: number) {
  return db
    .selectFrom('memories')
    .selectAll()
    .where((eb) => inScope(eb, scope))
    .where(storeDialect(db).isProfileMemory)
    .orderBy(sql`case when coalesce(last_accessed_at, 0) > updated_at then last_accessed_at else updated_at end`, 'desc')
    .orderBy('access_count', 'desc')
    .orderBy('pk', 'desc')
    .limit(limit)
    .execute();
}

/** Rows for vector hits, re-checked against the scope in SQL: the index's filters are never the only guard. */
export async function memoriesInScope(db: Db, scope: RetrievalScope, pks: readonly number[]) {
  if (pks.length === 0) return [];
  return db
    .selectFrom('memories')
    .selectAll()
    .where('pk', 'in', pks)
    .where((eb) => inScope(eb, scope, { byPk: true }))
    .execute();
}

/** A real query against the keyword index, and the number of memories it holds; for the engine status. */
export async function probeKeywordIndex(db: Db): Promise<number> {
  return keywordSearch(db).probeKeywordIndex(db);
}

/**
 * For each hit, the memory in scope written just before it and the one just after it in the same session (by
 * created_at, then pk), with the hit's pk as `neighbour_of`. One statement whatever the number of hits; each
 * neighbour is one read of the (api_key_id, session_id, created_at) index, whatever the key's size.
 */
export async function sessionNeighbours(
  db: Db,
  scope: RetrievalScope,
  hits: readonly { pk: number; sessionId: string; createdAt: number }[],
) {
  if (hits.length === 0) return [];
  const json = JSON.stringify(hits.map((h) => [h.pk, h.sessionId, h.createdAt]));
  const nearest = (direction: 'before' | 'after') => {
    const [op, order] = direction === 'before' ? (['<', 'desc'] as const) : (['>', 'asc'] as const);
    return db
      .selectFrom('memories')
      .select('memories.pk')
      .where('memories.session_id', '=', sql<string>`hits.value ->> 1`)
      .where(
        sql<boolean>`(memories.created_at, memories.pk) ${sql.raw(op)} (cast(hits.value ->> 2 as bigint), cast(hits.value ->> 0 as bigint))`,
      )
      .where((eb) => inScope(eb, scope))
      .orderBy('memories.created_at', order)
      .orderBy('memories.pk', order)
      .limit(1);
  };
  const pairs = (direction: 'before' | 'after') =>
    db
      .selectFrom(sql<{ value: string }>`${storeDialect(db).jsonArrayRows(json)}`.as('hits'))
      .select([nearest(direction).as('pk'), sql<number>`cast(hits.value ->> 0 as bigint)`.as('neighbour_of')]);
  // The limit drops no pair (there are two per hit) but tells PostgreSQL's planner how few there are: it takes a JSON
  // array for 100 rows, and joined the neighbours by hashing the whole memories table (14 ms at 10,000 memories).
  return (
    db
      .selectFrom(
        pairs('before')
          .unionAll(pairs('after'))
          .limit(2 * hits.length)
          .as('pairs'),
      )
      .innerJoin('memories as neighbour', 'neighbour.pk', 'pairs.pk')
      .selectAll('neighbour')
      .select('pairs.neighbour_of')
      // Neighbours boosted to the same score keep this order: the same on every call, whatever plan the store picks.
      .orderBy('pairs.neighbour_of')
      .orderBy('neighbour.pk')
      .execute()
  );
}
