import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, MemoryTypeValue } from './schema.ts';

/**
 * What every retrieval tier filters by: one tenant, its session scope, types, expiry, retention, not archived, current,
 * and not one of the keys left out.
 */
export interface RetrievalScope {
  apiKeyId: string;
  /** A session sees its own memories and the key-wide ones (no session), never another session's. */
  sessionId: string | null;
  types: readonly MemoryTypeValue[] | null;
  now: number;
  retentionCutoff: number;
  /** Memories left out by key: the captured turns of the conversation a request already carries. */
  excludeKeys?: readonly string[];
  /** The memories that held at this instant (epoch ms) instead of the current ones. */
  asOf?: number | null;
}

/** Which memories a list reads by their validity: the current ones, those that held at an instant, or all of them. */
export type Validity = { asOf: number | null } | 'all';

/**
 * `byPk`: the rows are already chosen by primary key (a ranked head, vector hits). Comparing an expression of
 * api_key_id instead of the column then keeps SQLite from walking the tenant's api_key_id index instead, which it
 * does when it has no statistics yet; `|| ''` is that expression on both stores (SQLite's unary `+` is an error on
 * text in PostgreSQL).
 */
export function inScope(eb: ExpressionBuilder<Database, 'memories'>, s: RetrievalScope, opts: { byPk?: boolean } = {}) {
  const conditions = [
    opts.byPk ? eb(sql`memories.api_key_id || ''`, '=', s.apiKeyId) : eb('memories.api_key_id', '=', s.apiKeyId),
    eb('memories.archived_by', 'is', null),
    validAt(eb, s.asOf ?? null),
    isActive(s.now, s.retentionCutoff),
  ];
  if (s.types && s.types.length > 0) conditions.push(eb('memories.type', 'in', s.types));
  if (s.excludeKeys && s.excludeKeys.length > 0) conditions.push(eb('memories.key', 'not in', s.excludeKeys));
  if (s.sessionId !== null) {
    conditions.push(eb.or([eb('memories.session_id', '=', s.sessionId), eb('memories.session_id', 'is', null)]));
  }
  return eb.and(conditions);
}

/**
 * Not expired and inside the retention window. The unary `+` keeps SQLite from choosing the updated_at or
 * expiry index for these range checks: nearly every row passes them, and picking that index instead of
 * (api_key_id, created_at) turned "newest 20 of a key" into a sort of the whole tenant (120 ms at 34k rows).
 */
export function isActive(now: number, retentionCutoff: number) {
  return sql<boolean>`((memories.expires_at is null or +memories.expires_at > ${now}) and +memories.updated_at >= ${retentionCutoff})`;
}

/**
 * Current (no validTo) when `asOf` is null; else what held at `asOf`: written by then, valid from then or before, and
 * not ended by then. A memory that was current then and was superseded later is in; one superseded before is out.
 */
export function validAt(eb: ExpressionBuilder<Database, 'memories'>, asOf: number | null) {
  if (asOf === null) return eb('memories.valid_to', 'is', null);
  return eb.and([
    eb('memories.created_at', '<=', asOf),
    eb('memories.valid_from', '<=', asOf),
    eb.or([eb('memories.valid_to', 'is', null), eb('memories.valid_to', '>', asOf)]),
  ]);
}
