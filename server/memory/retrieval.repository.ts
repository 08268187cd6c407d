import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database, MemoryTypeValue } from '../db/schema.ts';
import { ftsMatch, isActive } from './memory.repository.ts';

/** What every retrieval tier filters by: one tenant, its session scope, types, expiry, retention, not archived. */
export interface RetrievalScope {
  apiKeyId: string;
  /** A session sees its own memories and the key-wide ones (no session), never another session's. */
  sessionId: string | null;
  types: readonly MemoryTypeValue[] | null;
  now: number;
  retentionCutoff: number;
}

/**
 * `byPk`: the rows are already chosen by primary key (a ranked head, vector hits). The unary `+` then keeps
 * SQLite from walking the tenant's api_key_id index instead, which it does when it has no statistics yet.
 */
function inScope(eb: ExpressionBuilder<Database, 'memories'>, s: RetrievalScope, opts: { byPk?: boolean } = {}) {
  const conditions = [
    opts.byPk ? eb(sql`+memories.api_key_id`, '=', s.apiKeyId) : eb('memories.api_key_id', '=', s.apiKeyId),
    eb('memories.archived_by', 'is', null),
    isActive(eb, s.now, s.retentionCutoff),
  ];
  if (s.types && s.types.length > 0) conditions.push(eb('memories.type', 'in', s.types));
  if (s.sessionId !== null) {
    conditions.push(eb.or([eb('memories.session_id', '=', s.sessionId), eb('memories.session_id', 'is', null)]));
  }
  return eb.and(conditions);
}

/**
 * BM25-ranked keyword candidates. FTS5 ranks every match of the tenant and hands over only the head, so an
 * old memory that matches well is found however many newer ones exist, and only a few rows are read from
 * the memories table. The scope filters run on that head; when they drop too much of it (expired or other
 * sessions' memories), a longer head is taken.
 */
export async function keywordCandidates(db: Db, scope: RetrievalScope, ftsTerms: string, limit: number) {
  const match = ftsMatch(ftsTerms, scope.apiKeyId);
  for (let head = Math.max(limit * 2, 50); ; head *= 4) {
    // Weights: content 1, key 0.4, tenant token 0 (it only filters).
    const { rows: ranked } = await sql<{ rowid: number; bm25: number }>`select rowid, bm25(memories_fts, 1.0, 0.4, 0.0) as bm25
      from memories_fts where memories_fts match ${match} order by bm25 limit ${head}`.execute(db);
    const rank = new Map(ranked.map((r) => [r.rowid, r.bm25]));
    const rows = (await memoriesInScope(db, scope, [...rank.keys()]))
      .map((row) => ({ ...row, bm25: rank.get(row.pk)! }))
      .sort((a, b) => a.bm25 - b.bm25)
      .slice(0, limit);
    if (rows.length >= limit || ranked.length < head) return rows;
  }
}

/** The newest memories in scope, for the EXACT strategy. */
export async function recentCandidates(db: Db, scope: RetrievalScope, limit: number) {
  return db
    .selectFrom('memories')
    .selectAll()
    .where((eb) => inScope(eb, scope))
    .orderBy('updated_at', 'desc')
    .orderBy('pk', 'desc')
    .limit(limit)
    .execute();
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

/** Counts a gateway retrieval: access counters on what was returned, and the key's hit statistics. */
export async function recordRetrieval(db: Db, apiKeyId: string, pks: readonly number[], now: number) {
  await db.transaction().execute(async (trx) => {
    if (pks.length > 0) {
      await trx
        .updateTable('memories')
        .set((eb) => ({ access_count: eb('access_count', '+', 1), last_accessed_at: now }))
        .where('pk', 'in', pks)
        .execute();
    }
    const hit = pks.length > 0 ? 1 : 0;
    await trx
      .insertInto('retrieval_stats')
      .values({ api_key_id: apiKeyId, retrievals: 1, hits: hit })
      .onConflict((oc) =>
        oc.column('api_key_id').doUpdateSet((eb) => ({
          retrievals: eb('retrieval_stats.retrievals', '+', 1),
          hits: eb('retrieval_stats.hits', '+', hit),
        })),
      )
      .execute();
  });
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
