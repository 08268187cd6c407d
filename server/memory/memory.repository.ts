import { type SelectQueryBuilder, sql, type UpdateObject } from 'kysely';
import type { Db } from '../db/open.ts';
import type { Database, MemoryTypeValue, NewMemoryRow } from '../db/schema.ts';
import { isActive, type Validity, validAt } from '../db/scope.ts';
import { storeDialect } from '../db/storeDialect.ts';
import { keywordSearch } from '../search/keywordSearch.ts';
import { storedFactSignatures } from './factIndex.ts';
import { CAPTURE_SOURCE, type MemorySource } from './memory.ts';

/** Every read of memories goes through this filter; the service resolves tenancy before it gets here. */
export interface MemoryFilter {
  /** null: every key (admins only; the service decides). */
  apiKeyId: string | null;
  sessionId?: string | null;
  types?: readonly MemoryTypeValue[] | null;
  /**
   * An admin's search: the memories holding every word, the last one as a prefix, in apiKeyId's own words (every key's
   * without one), by the store's keyword index (listSearchMatches, search/keywordSearch.ts). A text without a searchable
   * word matches nothing.
   */
  search?: string | null;
  createdAfter?: number | null;
  createdBefore?: number | null;
  /** When set, leaves out expired memories and those last written before the retention cutoff. */
  activeAt?: { now: number; retentionCutoff: number } | null;
  /** Archived memories (replaced by a summary) are left out unless asked for. */
  includeArchived?: boolean;
  /**
   * Which validity: the memories current now (the default), those that held at an instant (written by then, and valid
   * then), or every one (includeSuperseded).
   */
  validity?: Validity;
  /** Captured chat turns only (TURNS), everything else only (FACTS), or both (ALL, the default). */
  source?: MemorySource | null;
}

export type MemoryOrderColumn = 'created_at' | 'updated_at' | 'access_count' | 'key' | 'tokens';

type MemorySelect<O> = SelectQueryBuilder<Database, 'memories', O>;

function applyFilter<O>(db: Db, qb: MemorySelect<O>, f: MemoryFilter): MemorySelect<O> {
  let q = qb;
  if (f.apiKeyId !== null) q = q.where('memories.api_key_id', '=', f.apiKeyId);
  if (f.sessionId) q = q.where('memories.session_id', '=', f.sessionId);
  if (f.types && f.types.length > 0) q = q.where('memories.type', 'in', f.types);
  if (f.createdAfter != null) q = q.where('memories.created_at', '>', f.createdAfter);
  if (f.createdBefore != null) q = q.where('memories.created_at', '<', f.createdBefore);
  if (f.activeAt) q = q.where(isActive(f.activeAt.now, f.activeAt.retentionCutoff));
  if (!f.includeArchived) q = q.where('memories.archived_by', 'is', null);
  const validity = f.validity ?? { asOf: null };
  if (validity !== 'all') q = q.where((eb) => validAt(eb, validity.asOf));
  if (f.source === 'TURNS' || f.source === 'FACTS') {
    const source = storeDialect(db).jsonValue('memories.metadata', ['source']);
    q = q.where(
      f.source === 'TURNS' ? sql<boolean>`${source} = ${CAPTURE_SOURCE}` : sql<boolean>`coalesce(${source}, '') <> ${CAPTURE_SOURCE}`,
    );
  }
  if (f.search) {
    const matches = keywordSearch(db).listSearchMatches(f.search, f.apiKeyId);
    q = matches === null ? q.where((eb) => eb.lit(false)) : q.where('memories.pk', 'in', matches);
  }
  return q;
}

export async function listMemoryRows(
  db: Db,
  filter: MemoryFilter,
  page: { limit: number; offset: number; orderBy: MemoryOrderColumn; direction: 'asc' | 'desc' },
) {
  return applyFilter(db, db.selectFrom('memories').selectAll('memories'), filter)
    .orderBy(page.orderBy, page.direction)
    .orderBy('pk', page.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** All matching rows, newest first, in pages so that an export of any size never holds one giant statement open. */
export async function* streamMemoryRows(db: Db, filter: MemoryFilter, batchSize = 1000) {
  let beforePk = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await applyFilter(db, db.selectFrom('memories').selectAll('memories'), filter)
      .where('pk', '<', beforePk)
      .orderBy('pk', 'desc')
      .limit(batchSize)
      .execute();
    yield* rows;
    if (rows.length < batchSize) return;
    beforePk = rows[rows.length - 1]!.pk;
  }
}

export async function countMemoryRows(db: Db, filter: MemoryFilter) {
  const row = await applyFilter(db, db.selectFrom('memories'), filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function memoryTotalsByType(db: Db, filter: MemoryFilter) {
  return applyFilter(db, db.selectFrom('memories'), filter)
    .select((eb) => ['memories.type', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('memories.tokens').as('tokens')])
    .groupBy('memories.type')
    .execute();
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch: weeks are counted from it. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/**
 * Memories per ISO week of creation: weekStart is the Monday (UTC, epoch ms) on or before created_at.
 * Weeks without memories are left out; oldest first.
 */
export async function memoryCountsByWeek(db: Db, filter: MemoryFilter) {
  // Integer arithmetic both stores do alike: `%` keeps the dividend's sign in each, so ((x % w) + w) % w is the
  // non-negative remainder, which puts instants before 1970 in the right week too. Literals, not parameters, so that
  // PostgreSQL sees the grouped expression and the selected one as the same.
  const sinceMonday = sql`(((memories.created_at - ${sql.lit(FIRST_MONDAY_MS)}) % ${sql.lit(WEEK_MS)}) + ${sql.lit(WEEK_MS)}) % ${sql.lit(WEEK_MS)}`;
  const weekStart = sql<number>`memories.created_at - ${sinceMonday}`;
  return applyFilter(db, db.selectFrom('memories'), filter)
    .select((eb) => [weekStart.as('week_start'), eb.fn.countAll<number>().as('count')])
    .groupBy(weekStart)
    .orderBy(weekStart)
    .execute();
}

/**
 * Of the memories that pass the filter (whatever its activeAt), those retrieval never returns: expired, and out of
 * retention (not expired); with the earliest expiry and the earliest last write among them, from which the first
 * purge is known.
 */
export async function hiddenTotals(db: Db, filter: MemoryFilter, at: { now: number; retentionCutoff: number }) {
  const expired = sql`memories.expires_at <= ${at.now}`;
  const old = sql`memories.updated_at < ${at.retentionCutoff}`;
  return applyFilter(db, db.selectFrom('memories'), { ...filter, activeAt: null })
    .select([
      sql<number>`count(*) filter (where ${expired})`.as('expired'),
      sql<number>`count(*) filter (where not coalesce(${expired}, false) and ${old})`.as('out_of_retention'),
      sql<number | null>`min(memories.expires_at) filter (where ${expired} or ${old})`.as('first_expiry'),
      sql<number | null>`min(memories.updated_at) filter (where ${expired} or ${old})`.as('first_write'),
    ])
    .executeTakeFirstOrThrow();
}

export async function retrievalTotals(db: Db, apiKeyId: string | null) {
  let q = db
    .selectFrom('retrieval_stats')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('retrievals'), sql<number>`0`).as('retrievals'),
      eb.fn.coalesce(eb.fn.sum<number>('hits'), sql<number>`0`).as('hits'),
    ]);
  if (apiKeyId !== null) q = q.where('api_key_id', '=', apiKeyId);
  return q.executeTakeFirstOrThrow();
}

/** The key's memories among these ids, in any state; another key's are not among them. */
export function memoryRowsOfKey(db: Db, apiKeyId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('memories').selectAll().where('api_key_id', '=', apiKeyId).where('id', 'in', ids).execute();
}

export async function findMemoryRowById(db: Db, id: string) {
  return db.selectFrom('memories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Which of these API keys hold memories (of any state). */
export async function keysHoldingMemories(db: Db, apiKeyIds: readonly string[]): Promise<Set<string>> {
  if (apiKeyIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memory_counts')
    .select('api_key_id')
    .where('api_key_id', 'in', apiKeyIds)
    .where('memories', '>', 0)
    .execute();
  return new Set(rows.map((r) => r.api_key_id));
}

export async function memoryKeyExists(db: Db, apiKeyId: string, key: string) {
  const row = await db.selectFrom('memories').select('pk').where('api_key_id', '=', apiKeyId).where('key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/**
 * Inserts, or on a clash of (api key, key) updates, in one statement, so concurrent writers can never
 * duplicate a key. Metadata is merged shallowly: top-level keys of the new object replace the old ones.
 */
export async function upsertMemoryRow(db: Db, row: NewMemoryRow) {
  const { mergedMetadata } = storeDialect(db);
  return db
    .insertInto('memories')
    .values(indexed(row))
    .onConflict((oc) =>
      oc.columns(['api_key_id', 'key']).doUpdateSet((eb) => ({
        session_id: eb.ref('excluded.session_id'),
        type: eb.ref('excluded.type'),
        content: eb.ref('excluded.content'),
        fact_signatures: eb.ref('excluded.fact_signatures'),
        tokens: eb.ref('excluded.tokens'),
        expires_at: eb.ref('excluded.expires_at'),
        updated_at: eb.ref('excluded.updated_at'),
        metadata: mergedMetadata,
        needs_reindex: sql<number>`case when memories.content is not distinct from excluded.content then memories.needs_reindex else 1 end`,
        // A memory archived by a summary and then written with new content holds a fact the summary does not have:
        // left archived, the newer fact would never be retrieved. Restating the same content keeps it archived,
        // since the summary already carries it.
        archived_by: sql<
          string | null
        >`case when memories.content is not distinct from excluded.content then memories.archived_by else null end`,
        // A write of a memory says that it holds now (or over the validity it carries): a superseded one comes back as
        // current. A current fact restated as it is keeps holding since it started.
        valid_from: sql<number>`case when memories.valid_to is null and excluded.valid_to is null
          and memories.content is not distinct from excluded.content then memories.valid_from else excluded.valid_from end`,
        valid_to: eb.ref('excluded.valid_to'),
        superseded_by: sql<string | null>`case when excluded.valid_to is null then null else memories.superseded_by end`,
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts the row unless its (api key, key) is taken; the stored memory is then left exactly as it is. The new row, or undefined. */
export async function insertMemoryRowIfAbsent(db: Db, row: NewMemoryRow) {
  return db
    .insertInto('memories')
    .values(indexed(row))
    .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findMemoryRowsByKey(db: Db, apiKeyId: string, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return db.selectFrom('memories').selectAll().where('api_key_id', '=', apiKeyId).where('key', 'in', keys).execute();
}

/** Which of `keys` the API key's memories hold. */
export async function presentKeys(db: Db, apiKeyId: string, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('memories').select('key').where('api_key_id', '=', apiKeyId).where('key', 'in', keys).execute();
  return new Set(rows.map((r) => r.key));
}

/** A new row with the hashes of its fact signatures (factIndex.ts), which the store's triggers index with it. */
function indexed(row: NewMemoryRow): NewMemoryRow {
  return { ...row, fact_signatures: storedFactSignatures(row) };
}

/**
 * `patch` may compute a column from the row (`mentions + 1`); one that changes the text, type or metadata carries the
 * fact index's hashes for them (factIndex.ts storedFactSignatures).
 */
export async function updateMemoryRow(db: Db, pk: number, patch: UpdateObject<Database, 'memories'>) {
  return db.updateTable('memories').set(patch).where('pk', '=', pk).returningAll().executeTakeFirstOrThrow();
}

export async function deleteMemoryRow(db: Db, pk: number) {
  await db.deleteFrom('memories').where('pk', '=', pk).execute();
}

/** What a delete says of each memory it deleted: what its tombstone records (tombstones.ts). */
export const DELETED_COLUMNS = ['id', 'api_key_id', 'session_id', 'key'] as const;

/** Deletes one memory; returns it as its tombstone records it, undefined when it was gone already. */
export async function deleteMemoryRowReturning(db: Db, pk: number) {
  return db.deleteFrom('memories').where('pk', '=', pk).returning(DELETED_COLUMNS).executeTakeFirst();
}

/** One statement, so a clear of any size is atomic; the FTS trigger removes index entries with the rows. */
export async function deleteMemoryRows(
  db: Db,
  f: { apiKeyId: string; types?: readonly MemoryTypeValue[] | null; createdBefore?: number | null },
) {
  let q = db.deleteFrom('memories').where('api_key_id', '=', f.apiKeyId);
  if (f.types && f.types.length > 0) q = q.where('type', 'in', f.types);
  if (f.createdBefore != null) q = q.where('created_at', '<', f.createdBefore);
  return q.returning(DELETED_COLUMNS).execute();
}

/** Memories of the whole server by state (never per key), in one pass over the table. */
export async function memoriesByState(db: Db, now: number, retentionCutoff: number) {
  const { rows } = await sql<{ total: number; archived: number; expired: number; out_of_retention: number }>`
    select count(*) as total,
      count(*) filter (where archived_by is not null) as archived,
      count(*) filter (where archived_by is null and expires_at is not null and expires_at <= ${now}) as expired,
      count(*) filter (where archived_by is null and (expires_at is null or expires_at > ${now}) and updated_at < ${retentionCutoff}) as out_of_retention
    from memories`.execute(db);
  const { total, archived, expired, out_of_retention } = rows[0]!;
  return { active: total - archived - expired - out_of_retention, expired, out_of_retention, archived };
}

/** Keys whose memories (archived and expired ones too) are stored, with how many, by name; `contains` narrows them. */
export async function apiKeyCounts(db: Db, f: { contains: string | null; limit: number; offset: number }) {
  let q = db.selectFrom('memory_counts').where('memories', '>', 0);
  const { likeIgnoringAsciiCase } = storeDialect(db);
  // LIKE's wildcards in the text are matched as themselves; ASCII letters match in either case, on both stores.
  if (f.contains) q = q.where(likeIgnoringAsciiCase('api_key_id', `%${f.contains.replace(/[\\%_]/g, '\\$&')}%`));
  const [rows, total] = await Promise.all([
    q.select(['api_key_id', 'memories']).orderBy('api_key_id').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalCount: total.count };
}
