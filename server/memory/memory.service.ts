import { z } from 'zod';
import { SYSTEM_ACTOR } from '../audit/audit.service.ts';
import { afterErase } from '../db/maintenance.ts';
import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { searchWords } from '../db/searchWords.ts';
import { badInput, notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { retentionCutoff, type Settings, type SettingsReader } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import { apiKeyIdSchema, LIMITS, limitSchema, offsetSchema, parseInput, parseInputAt } from '../validation.ts';
import type { AccessRecorder } from './accessRecorder.ts';
import { AUTHORS, type Change, changing } from './change.ts';
import { rebuildStaleSummaries } from './coveringSummaries.ts';
import { storedFactSignatures } from './factIndex.ts';
import * as repo from './memory.repository.ts';
import {
  type Memory,
  type MemoryInput,
  type MemoryPatch,
  type MemorySource,
  type MemoryStatus,
  type MemoryType,
  memoryInputSchema,
  memoryPatchSchema,
  memoryRow,
  memoryStatus,
  rowToMemory,
  type WriteOutcome,
} from './memory.ts';
import { findParaphrase, mergeParaphrase } from './merge.ts';
import { purgeDueAt } from './purgeRules.ts';
import { type AuditBy, CALLER_RULE, supersedeAll } from './supersession.service.ts';
import { recordDeletions } from './tombstones.ts';

export interface MemoryDeps {
  db: Db;
  settings: SettingsReader;
  logger?: Logger;
  /** Access counts of gateway retrievals, written behind; flushed before anything shows them. */
  access: AccessRecorder;
  /** The services' clock (ms since the epoch). */
  now: () => number;
  /** The background purge's schedule, when this process runs one: when what is due gets deleted. */
  purge?: { firstPassFrom(due: number): number };
}

/** Whether the caller may see a memory of this API key; decided by auth, applied here. */
export type KeyGuard = (apiKeyId: string) => boolean;

export interface MemoryQuery {
  /** null lists every key; the caller has already checked that it may. */
  apiKeyId: string | null;
  sessionId?: string | null;
  types?: readonly MemoryType[] | null;
  search?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  includeExpired?: boolean | null;
  includeArchived?: boolean | null;
  /** Superseded memories too (by default only current ones are listed). */
  includeSuperseded?: boolean | null;
  /** The memories that held at this instant instead of the current ones. */
  asOf?: Date | null;
  source?: MemorySource | null;
}

export interface MemoryPageRequest {
  limit?: number | null;
  offset?: number | null;
  orderBy?: repo.MemoryOrderColumn | null;
  direction?: 'asc' | 'desc' | null;
}

export interface MemoryStats {
  totalEntries: number;
  /** The retention window the counts were made with. */
  retentionDays: number;
  tokensUsed: number;
  /** Share of retrievals that returned at least one memory; null before the first retrieval. */
  hitRate: number | null;
  retrievals: number;
  byType: { type: MemoryType; count: number }[];
  /** Memories per ISO week of creation (weeks start on Monday, UTC), oldest first; empty weeks left out. */
  byWeek: { weekStart: Date; count: number }[];
  /** Memories of the filter that retrieval never returns because they expired (listed only with includeExpired). */
  hiddenByExpiry: number;
  /** The same, because they were last written before the retention window (and have not expired). */
  hiddenByRetention: number;
  /** When the purge deletes the first of them (see nextPurgeAt); null when none is hidden. */
  nextPurgeAt: Date | null;
}

const clock = (deps: MemoryDeps) => deps.now();
const uuidSchema = z.uuid('id must be a UUID');
const pageSchema = z.object({ limit: limitSchema, offset: offsetSchema });

/**
 * Whether memory is switched off in the settings (enabled: false). Memories written by hand or imported are stored
 * all the same, for an admin and a gateway token alike: curating before switching memory on is legitimate. But
 * nothing retrieves them meanwhile, and the answers that report a write (an import's, memory_add's) say so.
 */
export async function memoryDisabled(deps: Pick<MemoryDeps, 'settings'>): Promise<boolean> {
  return !(await deps.settings.get()).enabled;
}

/**
 * Stores a memory: merged into the memory of its scope that says the same in other words (merge.ts), else upserted
 * under its key. `change` is who writes and why, as the memory's history names them (change.ts); `keyFromText` says
 * that the key was derived from the text (extraction's fact keys), not chosen by the caller, and `keyHeld` that the
 * caller knows a memory holds it already (the write is its upsert, never a merge). A caller inside a
 * transaction passes the settings, read before it. `supersedes` names memories of the same key that it replaces: each
 * is marked superseded by it (supersession.service.ts), in the write's transaction, so an id of another key
 * (NOT_FOUND) or one that cannot be superseded leaves nothing written; `by` names the caller in the audit entries of
 * those supersessions, and `change.by` in their histories. A write that supersedes says what replaces what, and is never merged into a paraphrase.
 */
export async function createMemory(
  deps: MemoryDeps,
  input: MemoryInput,
  change: Change = { by: AUTHORS.system, why: 'createMemory' },
  o: { keyFromText?: boolean; keyHeld?: boolean; settings?: Settings; supersedes?: readonly string[] | null; by?: AuditBy } = {},
): Promise<Memory & { outcome: WriteOutcome }> {
  const valid = parseInputAt(memoryInputSchema, input, clock(deps));
  const row = memoryRow(valid, clock(deps));
  const supersedes = [...new Set(o.supersedes ?? [])];
  if (supersedes.length > LIMITS.supersedesIds) throw badInput(`supersedes names at most ${LIMITS.supersedesIds} memories`);
  const outcome = (stored: MemoryRow): Memory & { outcome: WriteOutcome } => ({
    ...rowToMemory(stored),
    outcome: stored.id === row.id ? 'created' : 'updated',
  });
  if (supersedes.length > 0) {
    // The write's author is the author of what it supersedes, in the history of each.
    const by = { actor: SYSTEM_ACTOR, ...o.by, author: change.by };
    return writing(deps.db, async (trx) => {
      const stored = await changing(trx, { ...change, at: clock(deps) }, (t) => repo.upsertMemoryRow(t, row));
      const requests = supersedes.map((oldId) => ({ apiKeyId: stored.api_key_id, oldId, newId: stored.id, rule: CALLER_RULE }));
      await supersedeAll({ db: trx, now: deps.now }, requests, by);
      return outcome(stored);
    });
  }
  const settings = o.settings ?? (await settingsOutside(deps.db, deps.settings));
  const { match, keyFree } = o.keyHeld
    ? { match: null, keyFree: false }
    : await findParaphrase(deps, row, { keyGiven: valid.key != null && !o.keyFromText, settings });
  if (match) {
    const merged = await mergeParaphrase(deps, match, row, { by: change.by, historyVersionsKept: settings.historyVersionsKept });
    return { ...merged, outcome: 'merged' };
  }
  // A key the paraphrase lookup found free is written with a plain insert, which keeps no version, so it needs no
  // change context (on PostgreSQL two round trips, to set it and put it back) and brings no archived memory back; one
  // taken meanwhile is upserted after all. Else the write is an upsert in one statement, no transaction (changing holds
  // the connection for it, with the change context the history trigger reads): writers on other connections never
  // wait for a lock held across awaits. New content under the key of an archived memory brought it back and queued its
  // summary, which is rebuilt right after.
  const created = keyFree ? await repo.insertMemoryRowIfAbsent(deps.db, row) : undefined;
  if (created) return outcome(created);
  const stored = await changing(deps.db, { ...change, at: clock(deps) }, (trx) => repo.upsertMemoryRow(trx, row));
  await rebuildStaleSummaries(deps.db);
  return outcome(stored);
}

/**
 * The settings, read by a write that is not inside a transaction. Inside one, SQLite's single connection would make the
 * settings' own read (once their cached version is stale) wait for the transaction that waits for it: a caller that
 * opens a transaction reads the settings before and passes them.
 */
function settingsOutside(db: Db, settings: SettingsReader): Promise<Settings> {
  if (db.isTransaction) throw new Error('a write inside a transaction is given the settings read before it opened');
  return settings.get();
}

/**
 * Runs a write and the rebuild of the summaries it touched (coveringSummaries.ts) in one transaction: the caller's,
 * when it already is one. A summary never outlives, by a commit, the text of an original that was deleted or changed.
 */
export async function writing<T>(db: Db, write: (trx: Db) => Promise<T>): Promise<T> {
  const run = async (trx: Db) => {
    const result = await write(trx);
    await rebuildStaleSummaries(trx);
    return result;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

export async function getMemory(deps: MemoryDeps, id: string, canSee: KeyGuard): Promise<Memory | null> {
  await deps.access.flush();
  const row = await repo.findMemoryRowById(deps.db, parseInput(uuidSchema, id));
  // A memory of another tenant is reported as absent, so ids reveal nothing across keys.
  return row && canSee(row.api_key_id) ? rowToMemory(row) : null;
}

export async function updateMemory(
  deps: MemoryDeps,
  id: string,
  patch: MemoryPatch,
  canSee: KeyGuard,
  change: Change = { by: AUTHORS.system, why: 'updateMemory' },
): Promise<Memory> {
  const existing = await requireMemory(deps, id, canSee);
  const valid = parseInput(memoryPatchSchema, patch);
  const set: Parameters<typeof repo.updateMemoryRow>[2] = { updated_at: clock(deps) };
  if (valid.content !== undefined && valid.content !== existing.content) {
    Object.assign(set, { content: valid.content, tokens: countTokens(valid.content), needs_reindex: 1 });
  }
  if (valid.key !== undefined && valid.key !== existing.key) {
    if (await repo.memoryKeyExists(deps.db, existing.apiKeyId, valid.key)) {
      throw badInput(`key "${valid.key}" is already used by another memory of this API key`);
    }
    set.key = valid.key;
  }
  if (valid.type !== undefined) set.type = valid.type;
  if (valid.sessionId !== undefined) set.session_id = valid.sessionId;
  if (valid.metadata !== undefined) set.metadata = JSON.stringify(valid.metadata);
  if (valid.expiresAt !== undefined) set.expires_at = valid.expiresAt?.getTime() ?? null;
  // An edit of what a summary shows (the text, its type, its session) is a new fact: the memory comes back, and the
  // summary is rebuilt without it, so the old text is not injected any more.
  const summaryShows =
    set.content !== undefined ||
    (set.type !== undefined && set.type !== existing.type) ||
    (set.session_id !== undefined && set.session_id !== existing.sessionId);
  if (existing.archivedBy !== null && summaryShows) set.archived_by = null;
  if (set.content !== undefined || valid.type !== undefined || valid.metadata !== undefined) {
    set.fact_signatures = storedFactSignatures({
      api_key_id: existing.apiKeyId,
      type: valid.type ?? existing.type,
      content: valid.content ?? existing.content,
      metadata: JSON.stringify(valid.metadata ?? existing.metadata),
    });
  }
  const write = (trx: Db) => changing(trx, { ...change, at: clock(deps) }, () => repo.updateMemoryRow(trx, existing.pk, set));
  return rowToMemory(await writing(deps.db, write));
}

/**
 * Deletes a memory, its keyword entries and vector (its Qdrant point through the outbox), leaves its tombstone (by:
 * the caller's token, change.ts), and empties the write-ahead log.
 */
export async function deleteMemory(deps: MemoryDeps, id: string, canSee: KeyGuard, by: string): Promise<Memory> {
  const existing = await requireMemory(deps, id, canSee);
  await writing(deps.db, async (trx) => {
    const deleted = await repo.deleteMemoryRowReturning(trx, existing.pk);
    await recordDeletions(trx, deleted ? [deleted] : [], by, clock(deps));
  });
  await afterErase(deps.db);
  return existing;
}

export interface ClearFilter {
  apiKeyId: string;
  types?: readonly MemoryType[] | null;
  createdBefore?: Date | null;
}

/** Deletes the memories of one key that the filter names, each leaving its tombstone (by: the caller's token); returns how many. */
export async function clearMemories(deps: MemoryDeps, f: ClearFilter, by: string): Promise<number> {
  // A blank key names no tenant: answering 0 would hide the caller's mistake.
  const apiKeyId = parseInput(apiKeyIdSchema, f.apiKeyId);
  const deleted = await writing(deps.db, async (trx) => {
    const rows = await repo.deleteMemoryRows(trx, { apiKeyId, types: f.types, createdBefore: f.createdBefore?.getTime() });
    await recordDeletions(trx, rows, by, clock(deps));
    return rows.length;
  });
  if (deleted > 0) await afterErase(deps.db);
  return deleted;
}

export async function listMemories(deps: MemoryDeps, query: MemoryQuery, page: MemoryPageRequest = {}) {
  await deps.access.flush();
  const filter = await toFilter(deps, query);
  if (filter === null) return { items: [] as Memory[], totalCount: 0 };
  const { limit, offset } = parseInput(pageSchema, { limit: page.limit ?? 20, offset: page.offset ?? 0 });
  const [rows, totalCount] = await Promise.all([
    repo.listMemoryRows(deps.db, filter, {
      limit,
      offset,
      orderBy: page.orderBy ?? 'created_at',
      direction: page.direction ?? 'desc',
    }),
    repo.countMemoryRows(deps.db, filter),
  ]);
  return { items: rows.map(rowToMemory), totalCount };
}

export async function exportMemories(deps: MemoryDeps, query: MemoryQuery): Promise<Memory[]> {
  await deps.access.flush();
  const filter = await toFilter(deps, query);
  if (filter === null) return [];
  const out: Memory[] = [];
  for await (const row of repo.streamMemoryRows(deps.db, filter)) out.push(rowToMemory(row));
  return out;
}

export async function memoryStats(deps: MemoryDeps, query: MemoryQuery): Promise<MemoryStats> {
  await deps.access.flush();
  const filter = await toFilter(deps, query);
  const now = clock(deps);
  const settings = await deps.settings.get();
  const [byType, byWeek, totals, hidden] = await Promise.all([
    filter === null ? [] : repo.memoryTotalsByType(deps.db, filter),
    filter === null ? [] : repo.memoryCountsByWeek(deps.db, filter),
    repo.retrievalTotals(deps.db, query.apiKeyId),
    filter === null ? null : repo.hiddenTotals(deps.db, filter, { now, retentionCutoff: retentionCutoff(now, settings) }),
  ]);
  const hiddenCount = (hidden?.expired ?? 0) + (hidden?.out_of_retention ?? 0);
  const due = hidden && hiddenCount > 0 ? purgeDueAt({ expiresAt: hidden.first_expiry, updatedAt: hidden.first_write }, settings) : null;
  return {
    totalEntries: byType.reduce((n, r) => n + r.count, 0),
    retentionDays: settings.retentionDays,
    tokensUsed: byType.reduce((n, r) => n + Number(r.tokens ?? 0), 0),
    hitRate: totals.retrievals > 0 ? totals.hits / totals.retrievals : null,
    retrievals: totals.retrievals,
    byType: byType.map((r) => ({ type: r.type, count: r.count })),
    byWeek: byWeek.map((r) => ({ weekStart: new Date(r.week_start), count: r.count })),
    hiddenByExpiry: hidden?.expired ?? 0,
    hiddenByRetention: hidden?.out_of_retention ?? 0,
    nextPurgeAt: nextPurgeAt(deps, due),
  };
}

const apiKeysSchema = z.object({
  contains: z.string().trim().max(LIMITS.idChars, `contains is longer than ${LIMITS.idChars} characters`).nullish(),
  limit: limitSchema,
  offset: offsetSchema,
});

/** The API keys that have memories, with how many each (archived and expired ones too), by name; for admins. */
export async function listApiKeys(deps: MemoryDeps, page: { contains?: string | null; limit?: number | null; offset?: number | null }) {
  const valid = parseInput(apiKeysSchema, { contains: page.contains, limit: page.limit ?? 50, offset: page.offset ?? 0 });
  const { rows, totalCount } = await repo.apiKeyCounts(deps.db, {
    contains: valid.contains || null,
    limit: valid.limit,
    offset: valid.offset,
  });
  return {
    items: rows.map((r) => ({ apiKeyId: r.api_key_id, memories: r.memories })),
    totalCount,
    limit: valid.limit,
    offset: valid.offset,
  };
}

/**
 * The first purge pass that deletes what is due at `due` (purgeRules.ts): the background purge's next scheduled pass
 * from then, or `due` itself without one in this process.
 */
export function nextPurgeAt(deps: MemoryDeps, due: number | null): Date | null {
  return due === null ? null : new Date(deps.purge?.firstPassFrom(due) ?? due);
}

/** A memory's status at the services' clock, under the settings in force. */
export async function currentStatus(deps: Pick<MemoryDeps, 'settings' | 'now'>, m: Memory): Promise<MemoryStatus> {
  return memoryStatus(m, deps.now(), await deps.settings.get());
}

/** The memory with this id, if the caller may see it; NOT_FOUND otherwise (another key's memory looks absent). */
export async function requireMemory(deps: MemoryDeps, id: string, canSee: KeyGuard): Promise<Memory> {
  const memory = await getMemory(deps, id, canSee);
  if (!memory) throw notFound(`no memory with id ${id}`);
  return memory;
}

/** The search of a memory list as the index reads it (see toFilter): every word, the last one as a prefix. */
export function listSearchWords(search: string | null | undefined): string[] {
  return search ? searchWords(search, { prefixLast: true }) : [];
}

/** Returns null when the search text has no searchable word: such a search matches nothing, and is not sent. */
async function toFilter(deps: MemoryDeps, q: MemoryQuery): Promise<repo.MemoryFilter | null> {
  const search = q.search != null && q.search.trim() !== '' ? q.search : null;
  if (search !== null && listSearchWords(search).length === 0) return null;
  const now = clock(deps);
  const settings = await deps.settings.get();
  return {
    apiKeyId: q.apiKeyId,
    sessionId: q.sessionId,
    types: q.types,
    search,
    createdAfter: q.createdAfter?.getTime(),
    createdBefore: q.createdBefore?.getTime(),
    activeAt: q.includeExpired ? null : { now, retentionCutoff: retentionCutoff(now, settings) },
    includeArchived: q.includeArchived ?? false,
    validity: q.includeSuperseded ? 'all' : { asOf: q.asOf?.getTime() ?? null },
    source: q.source,
  };
}
