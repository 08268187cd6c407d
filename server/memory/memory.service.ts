import { z } from 'zod';
import { afterErase } from '../db/maintenance.ts';
import type { Db } from '../db/open.ts';
import { searchWords } from '../db/searchWords.ts';
import { inSavepoint, rowRefusal } from '../db/storeErrors.ts';
import { badInput, notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { retentionCutoff, type SettingsService } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import { apiKeyIdSchema, checkInput, LIMITS, limitSchema, offsetSchema, parseInput } from '../validation.ts';
import type { AccessRecorder } from './accessRecorder.ts';
import { AUTHORS, type Change, changing } from './change.ts';
import { rebuildStaleSummaries } from './coveringSummaries.ts';
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
} from './memory.ts';
import { purgeDueAt } from './purgeRules.ts';

export interface MemoryDeps {
  db: Db;
  settings: SettingsService;
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

export interface ImportReport {
  /** Nothing was stored: the report says what the import would do. */
  dryRun: boolean;
  imported: number;
  updated: number;
  rejected: { index: number; key: string | null; reason: string }[];
  /** Stored, but last written (createdAt) before the retention window: never retrieved, and purged after the grace days. */
  outsideRetention: number;
  /** Stored, but with an expiresAt already past. */
  expired: number;
  /** When the purge deletes the first of those (see nextPurgeAt); null when there are none. */
  nextPurgeAt: Date | null;
  /** Memory is switched off in the settings: the rows are stored all the same, but nothing retrieves them until it is on. */
  disabled: boolean;
}

/** Rows of an import written under one savepoint (see importMemories). */
const IMPORT_CHUNK_ROWS = 100;

/** Thrown inside a dry run's transaction so that it rolls back. */
class DryRun extends Error {}

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

/** `change` is who writes and why, as the memory's history names them (change.ts). */
export async function createMemory(
  deps: MemoryDeps,
  input: MemoryInput,
  change: Change = { by: AUTHORS.system, why: 'createMemory' },
): Promise<Memory> {
  const valid = parseInput(memoryInputSchema(clock(deps)), input);
  // The upsert alone in its transaction (with the change context the history trigger reads): writers on other
  // connections never wait for a lock held across other work. New content under the key of an archived memory brought
  // it back and queued its summary, which is rebuilt right after.
  const row = await changing(deps.db, { ...change, at: clock(deps) }, (trx) => repo.upsertMemoryRow(trx, memoryRow(valid, clock(deps))));
  await rebuildStaleSummaries(deps.db);
  return rowToMemory(row);
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
  const write = (trx: Db) => changing(trx, { ...change, at: clock(deps) }, () => repo.updateMemoryRow(trx, existing.pk, set));
  return rowToMemory(await writing(deps.db, write));
}

/** Deletes a memory, its keyword entries and vector (its Qdrant point through the outbox), and empties the write-ahead log. */
export async function deleteMemory(deps: MemoryDeps, id: string, canSee: KeyGuard): Promise<Memory> {
  const existing = await requireMemory(deps, id, canSee);
  await writing(deps.db, (trx) => repo.deleteMemoryRow(trx, existing.pk));
  await afterErase(deps.db);
  return existing;
}

export interface ClearFilter {
  apiKeyId: string;
  types?: readonly MemoryType[] | null;
  createdBefore?: Date | null;
}

export async function clearMemories(deps: MemoryDeps, f: ClearFilter): Promise<number> {
  // A blank key names no tenant: answering 0 would hide the caller's mistake.
  const apiKeyId = parseInput(apiKeyIdSchema, f.apiKeyId);
  const deleted = await writing(deps.db, (trx) =>
    repo.deleteMemoryRows(trx, { apiKeyId, types: f.types, createdBefore: f.createdBefore?.getTime() }),
  );
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
 * Upserts every valid row and reports the others; one bad row never stops the rest, and rows stored where retrieval
 * will not see them (expired, or older than the retention window) are counted. Runs in one transaction, so an import
 * is fast and a crash leaves no half-written batch; a row that the database refuses (a constraint, a trigger) is undone
 * alone and reported (savepoints, below); a dry run rolls it all back, so its report is exactly what the import would do.
 */
export async function importMemories(
  deps: MemoryDeps,
  rows: readonly MemoryInput[],
  canWrite: KeyGuard,
  opts: { dryRun?: boolean } = {},
): Promise<ImportReport> {
  // Only the call's size refuses it whole: each row is checked on its own, so one bad row is reported, not fatal.
  if (rows.length > LIMITS.importRows) throw badInput(`import at most ${LIMITS.importRows} rows per call; split the file`);
  const dryRun = opts.dryRun ?? false;
  const settings = await deps.settings.get();
  const report: ImportReport = {
    dryRun,
    imported: 0,
    updated: 0,
    rejected: [],
    outsideRetention: 0,
    expired: 0,
    nextPurgeAt: null,
    disabled: !settings.enabled,
  };
  const now = clock(deps);
  const schema = memoryInputSchema(now);
  let firstDue = Number.POSITIVE_INFINITY;
  const pending: { index: number; key: string | null; row: ReturnType<typeof memoryRow> }[] = [];
  for (const [index, input] of rows.entries()) {
    const checked = checkInput(schema, input);
    const key = typeof input.key === 'string' ? input.key : null;
    if (!checked.ok) report.rejected.push({ index, key, reason: checked.problems });
    else if (!canWrite(checked.value.apiKeyId)) {
      report.rejected.push({ index, key, reason: `this token may not write to API key "${checked.value.apiKeyId}"` });
    } else pending.push({ index, key, row: memoryRow(checked.value, now) });
  }
  const count = (stored: Memory, row: ReturnType<typeof memoryRow>) => {
    if (stored.id === row.id) report.imported++;
    else report.updated++;
    const status = memoryStatus(stored, now, settings);
    if (status === 'expired') report.expired++;
    else if (status === 'out_of_retention') report.outsideRetention++;
    else return;
    const due = purgeDueAt({ expiresAt: stored.expiresAt?.getTime() ?? null, updatedAt: stored.updatedAt.getTime() }, settings);
    firstDue = Math.min(firstDue, due ?? firstDue);
  };
  // No read before the writes: a transaction that has read cannot wait for another process's write lock (SQLite
  // returns SQLITE_BUSY at once), while one whose first statement writes honours busy_timeout. An upsert that hit an
  // existing key keeps that memory's id, so the id tells new from updated. Rows go in chunks of one savepoint each, and
  // only a chunk that the database refused is redone row by row, each in its own savepoint, to undo and report that row
  // alone: a savepoint per row of 10,000 costs PostgreSQL quadratic time (each release hands every lock taken so far to
  // the parent transaction), minutes for one import.
  const importRows = async (trx: Db) => {
    for (let start = 0; start < pending.length; start += IMPORT_CHUNK_ROWS) {
      const chunk = pending.slice(start, start + IMPORT_CHUNK_ROWS);
      let stored: { memory: Memory; row: ReturnType<typeof memoryRow> }[] = [];
      try {
        stored = await inSavepoint(trx, async () => {
          const done = [];
          for (const { row } of chunk) done.push({ memory: rowToMemory(await repo.upsertMemoryRow(trx, row)), row });
          return done;
        });
      } catch (error) {
        if (rowRefusal(error) === null) throw error;
        stored = [];
        for (const { index, key, row } of chunk) {
          try {
            stored.push({ memory: rowToMemory(await inSavepoint(trx, () => repo.upsertMemoryRow(trx, row))), row });
          } catch (rowError) {
            const reason = rowRefusal(rowError);
            if (reason === null) throw rowError;
            report.rejected.push({ index, key, reason });
          }
        }
      }
      for (const { memory, row } of stored) count(memory, row);
    }
    report.rejected.sort((x, y) => x.index - y.index);
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      await changing(trx, { by: AUTHORS.import, why: 'importMemories', at: now }, () => writing(trx, importRows));
      if (dryRun) throw new DryRun();
    });
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
  if (Number.isFinite(firstDue)) report.nextPurgeAt = nextPurgeAt(deps, firstDue);
  return report;
}

/**
 * The first purge pass that deletes what is due at `due` (purgeRules.ts): the background purge's next scheduled pass
 * from then, or `due` itself without one in this process.
 */
function nextPurgeAt(deps: MemoryDeps, due: number | null): Date | null {
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
    source: q.source,
  };
}
