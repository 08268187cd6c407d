import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database, MemoryTypeValue } from '../db/schema.ts';
import { tenantBm25Weights } from './bm25.ts';
import { ftsMatch } from './ftsQuery.ts';
import { isActive } from './memory.repository.ts';

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
 * BM25-ranked keyword candidates. Each phrase (ftsPhrases for this key) is matched in the key's own terms and
 * weighted to rank with the key's own statistics (bm25.ts); SQLite sums the weighted scores per row and reads
 * only the best rows from the memories table. When the scope filters (expired memories, other sessions') drop
 * too much of that head, a longer one is taken. No candidate cap: an old memory that matches well is found
 * however many memories the key has.
 */
export async function keywordCandidates(db: Db, scope: RetrievalScope, phrases: readonly string[], limit: number) {
  const matches = phrases.map((phrase) => ftsMatch([phrase], { match: 'any', apiKeyId: scope.apiKeyId }));
  const stats = await termStatistics(db, scope.apiKeyId, matches);
  const weights = tenantBm25Weights(stats);
  const terms = matches.map((match, i) => ({ match, weight: weights[i]! })).filter((t) => t.weight > 0);
  const matched = stats.termRows.reduce((sum, n) => sum + n, 0);
  if (terms.length === 0) return [];
  for (let head = limit + Math.ceil(limit / 10) + 4; ; head *= 4) {
    const rows = await rankedInScope(db, scope, terms, head);
    if (rows.length >= limit || head >= matched) return rows.slice(0, limit);
  }
}

/** Rows in the FTS table, the key's rows, and the key's rows holding each term, in one round trip. */
async function termStatistics(db: Db, apiKeyId: string, matches: readonly string[]) {
  const counts = matches.map(
    (match, i) => sql`(select count(*) from memories_fts where memories_fts match ${match}) as ${sql.ref(`t${i}`)}`,
  );
  const { rows } = await sql<Record<string, number> & { averages: Uint8Array | null; tenant: number | null }>`select
      (select block from memories_fts_data where id = 1) as averages,
      (select memories from memory_counts where api_key_id = ${apiKeyId}) as tenant,
      ${sql.join(counts)}`.execute(db);
  const row = rows[0]!;
  return {
    ftsRows: row.averages ? readVarint(row.averages) : 0,
    tenantRows: row.tenant ?? 0,
    termRows: matches.map((_, i) => row[`t${i}`] as number),
  };
}

/** The `head` best-ranked rows of the key, then only those of them in scope, best first. */
async function rankedInScope(db: Db, scope: RetrievalScope, terms: readonly { match: string; weight: number }[], head: number) {
  // Weights: the key's content 1, its key 0.4; the all-keys columns are not searched here.
  const scored = terms.map(
    (t) =>
      sql`select rowid, bm25(memories_fts, 0.0, 0.0, 1.0, 0.4) * ${t.weight} as s from memories_fts where memories_fts match ${t.match}`,
  );
  // "limit -1" (no limit) keeps SQLite from flattening the scores into the aggregate, where FTS5 refuses to
  // run a lone term's bm25(); it is cheaper than materializing them.
  const ranked = sql<{ pk: number; bm25: number }>`(select rowid as pk, sum(s) as bm25 from (${sql.join(scored, sql` union all `)} limit -1)
    group by rowid order by bm25, rowid desc limit ${head})`;
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .innerJoin('memories', 'memories.pk', 'ranked.pk')
    .selectAll('memories')
    .select('ranked.bm25')
    .where((eb) => inScope(eb, scope, { byPk: true }))
    .orderBy('ranked.bm25')
    .orderBy('ranked.pk', 'desc')
    .execute();
  return rows.map(({ bm25, ...row }) => ({ ...row, score: -bm25 }));
}

/**
 * The FTS table's row count sits in its averages record (rowid 1 of the _data table: a varint row count,
 * then each column's token count), which FTS5 keeps current; count(*) would visit every row. SQLite's
 * varint: big-endian groups of 7 bits, high bit set on all but the last; a ninth byte carries 8 bits.
 */
function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 9 && i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
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

/**
 * Extraction categories that describe the user for good (extraction.ts), not one conversation: what a profile
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
    .where(sql<boolean>`json_extract(metadata, '$.category') in ('preference', 'habit', 'identity', 'decision')`)
    .orderBy(sql`max(updated_at, coalesce(last_accessed_at, 0))`, 'desc')
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

/** A real FTS5 query against the keyword index, and the number of memories it holds; for the engine status. */
export async function probeKeywordIndex(db: Db): Promise<number> {
  await sql`select count(*) from memories_fts where memories_fts match '"mnemoprobe"'`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from memories_fts_docsize`.execute(db);
  return rows[0]?.n ?? 0;
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
      .where(sql<boolean>`(memories.created_at, memories.pk) ${sql.raw(op)} (hits.value ->> 2, hits.value ->> 0)`)
      .where((eb) => inScope(eb, scope))
      .orderBy('memories.created_at', order)
      .orderBy('memories.pk', order)
      .limit(1);
  };
  return db
    .selectFrom([sql<{ value: string }>`json_each(${json})`.as('hits'), 'memories as neighbour'])
    .selectAll('neighbour')
    .select(sql<number>`hits.value ->> 0`.as('neighbour_of'))
    .where(sql<boolean>`neighbour.pk in (${nearest('before')}, ${nearest('after')})`)
    .execute();
}
