import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { inSavepoint, rowRefusal } from '../db/storeErrors.ts';
import { badInput } from '../errors.ts';
import type { Settings } from '../settings/settings.service.ts';
import { checkInputAt, LIMITS } from '../validation.ts';
import { AUTHORS, changing } from './change.ts';
import * as repo from './memory.repository.ts';
import { type KeyGuard, type MemoryDeps, nextPurgeAt, writing } from './memory.service.ts';
import { type Memory, type MemoryInput, memoryInputSchema, memoryRow, memoryStatus, rowToMemory, type WriteOutcome } from './memory.ts';
import { findParaphrase, holdsWording, mergeParaphrase, type ParaphraseMatch } from './merge.ts';
import { factSignature } from './paraphrase.ts';
import { purgeDueAt } from './purgeRules.ts';

/** Imports: many memories at once, each row checked, stored or merged on its own. */

export interface ImportReport {
  /** Nothing was stored: the report says what the import would do. */
  dryRun: boolean;
  imported: number;
  updated: number;
  /** Rows without a key merged into a memory that says the same in other words (merge.ts), of the store or of the import. */
  merged: number;
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

type Row = ReturnType<typeof memoryRow>;

/** A valid row waiting to be written; `keyless`: its key was derived from its text, so it may be merged. */
interface Pending {
  index: number;
  key: string | null;
  row: Row;
  keyless: boolean;
}

/**
 * Where a row is merged: a stored memory, or the memory an earlier row of the same import was stored as; `held`: a
 * stored memory that already took in this very wording (the file imported before), so nothing is written.
 */
type MergeInto = ParaphraseMatch | { row: number } | { held: MemoryRow };

/**
 * The merges of an import's keyless rows: into a stored memory of the same scope that says the same (merge.ts; only
 * for keys that already hold memories, so an import into a new key makes no lookups), else into an earlier row of the
 * import with the same content words. Rows with a key are stored under it, so an export imported again is the same.
 */
async function plannedMerges(deps: MemoryDeps, pending: readonly Pending[], settings: Settings): Promise<Map<number, MergeInto>> {
  const merges = new Map<number, MergeInto>();
  const seen = new Map<string, number>();
  const keysWithMemories = await repo.keysHoldingMemories(deps.db, [
    ...new Set(pending.filter((p) => p.keyless).map((p) => p.row.api_key_id)),
  ]);
  for (const [at, p] of pending.entries()) {
    if (!p.keyless) continue;
    const stored = keysWithMemories.has(p.row.api_key_id) ? (await findParaphrase(deps, p.row, { keyGiven: false, settings })).match : null;
    if (stored) {
      merges.set(at, (await holdsWording(deps.db, stored.target, p.row.content)) ? { held: stored.target } : stored);
      continue;
    }
    const signature = factSignature(p.row.content);
    if (signature === null) continue;
    const scoped = [p.row.api_key_id, p.row.session_id ?? '', p.row.type, signature].join('\u0000');
    const earlier = seen.get(scoped);
    if (earlier === undefined) seen.set(scoped, at);
    else merges.set(at, { row: earlier });
  }
  return merges;
}

/** Writes one row: merged where planned (when what it merges into was stored), else upserted under its key. */
async function storeRow(
  deps: MemoryDeps,
  row: Row,
  merge: MergeInto | undefined,
  o: { storedPks: Map<number, number>; historyVersionsKept: number },
): Promise<Memory & { outcome: WriteOutcome }> {
  const { storedPks } = o;
  if (merge && 'held' in merge) return { ...rowToMemory(merge.held), outcome: 'merged' };
  const into = merge && 'row' in merge ? storedPks.get(merge.row) : merge?.target.pk;
  if (into !== undefined) {
    const match = { target: { pk: into }, keepIncoming: merge !== undefined && 'keepIncoming' in merge && merge.keepIncoming };
    const merged = await mergeParaphrase(deps, match, row, { by: AUTHORS.import, historyVersionsKept: o.historyVersionsKept });
    return { ...merged, outcome: 'merged' };
  }
  const stored = await repo.upsertMemoryRow(deps.db, row);
  return { ...rowToMemory(stored), outcome: stored.id === row.id ? 'created' : 'updated' };
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
    merged: 0,
    rejected: [],
    outsideRetention: 0,
    expired: 0,
    nextPurgeAt: null,
    disabled: !settings.enabled,
  };
  const now = deps.now();
  let firstDue = Number.POSITIVE_INFINITY;
  const pending: Pending[] = [];
  for (const [index, input] of rows.entries()) {
    const checked = checkInputAt(memoryInputSchema, input, now);
    const key = typeof input.key === 'string' ? input.key : null;
    if (!checked.ok) report.rejected.push({ index, key, reason: checked.problems });
    else if (!canWrite(checked.value.apiKeyId)) {
      report.rejected.push({ index, key, reason: `this token may not write to API key "${checked.value.apiKeyId}"` });
    } else pending.push({ index, key, row: memoryRow(checked.value, now), keyless: checked.value.key == null });
  }
  // Decided before the transaction, whose first statement must be a write (below).
  const merges = settings.mergeParaphrases ? await plannedMerges(deps, pending, settings) : new Map<number, MergeInto>();
  const count = (stored: Memory & { outcome: WriteOutcome }) => {
    if (stored.outcome === 'merged') {
      report.merged++;
      return;
    }
    if (stored.outcome === 'created') report.imported++;
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
  // The pk each row was stored under (by its place in `pending`), for the rows of the import merged into it.
  const storedPks = new Map<number, number>();
  const importRows = async (trx: Db) => {
    for (let start = 0; start < pending.length; start += IMPORT_CHUNK_ROWS) {
      const chunk = pending.slice(start, start + IMPORT_CHUNK_ROWS).map((p, i) => ({ ...p, at: start + i }));
      let stored: (Memory & { outcome: WriteOutcome })[] = [];
      const write = async (p: (typeof chunk)[number]) => {
        const memory = await storeRow({ ...deps, db: trx }, p.row, merges.get(p.at), {
          storedPks,
          historyVersionsKept: settings.historyVersionsKept,
        });
        storedPks.set(p.at, memory.pk);
        return memory;
      };
      try {
        stored = await inSavepoint(trx, async () => {
          const done = [];
          for (const p of chunk) done.push(await write(p));
          return done;
        });
      } catch (error) {
        if (rowRefusal(error) === null) throw error;
        stored = [];
        // What the refused chunk stored was undone with it.
        for (const p of chunk) storedPks.delete(p.at);
        for (const p of chunk) {
          const { index, key } = p;
          try {
            stored.push(await inSavepoint(trx, () => write(p)));
          } catch (rowError) {
            const reason = rowRefusal(rowError);
            if (reason === null) throw rowError;
            report.rejected.push({ index, key, reason });
          }
        }
      }
      for (const memory of stored) count(memory);
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
