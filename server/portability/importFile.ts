import { type ImportReport, importMemories } from '../memory/import.service.ts';
import { findMemoryRowsByKey, presentKeys } from '../memory/memory.repository.ts';
import { type MemoryDeps, writing } from '../memory/memory.service.ts';
import {
  applyTombstones,
  type ImportedMemory,
  type RestoredMemory,
  type RestoredTombstone,
  restoreMemory,
} from '../memory/restore.service.ts';
import { LIMITS } from '../validation.ts';
import { readCsv } from './formats/csv.ts';
import { readJsonl } from './formats/jsonl.ts';
import { readLetta } from './formats/letta.ts';
import { readMem0 } from './formats/mem0.ts';
import { readOmniRoute } from './formats/omniroute.ts';
import type { ImportFormat, Placement, SourceReader, SourceRow } from './sourceRows.ts';

/** Each format's reader. */
export const READERS: Record<ImportFormat, SourceReader> = {
  omniroute: readOmniRoute,
  mem0: readMem0,
  letta: readLetta,
  jsonl: readJsonl,
  csv: readCsv,
};

/** A row that was not stored, and why; the report keeps the first SKIPPED_KEPT of them and counts the rest. */
export interface SkippedRow {
  at: string;
  reason: string;
}
const SKIPPED_KEPT = 100;

const RESTORE_ROWS = 100;

export interface FileImportReport {
  dryRun: boolean;
  /** Rows read from the file. */
  read: number;
  imported: number;
  updated: number;
  /** Rows without a key that said what a memory already says in other words, merged into it (import.service.ts). */
  merged: number;
  skipped: number;
  /** The first skipped rows, in file order, with their reasons. */
  skippedRows: SkippedRow[];
  outsideRetention: number;
  expired: number;
  /** Memory is switched off: the rows are stored, but nothing retrieves them until it is on. */
  disabled: boolean;
  /** Versions the imported memories keep from their source's history (none in a dry run). */
  versions: number;
  /** Tombstones read (mnemo's bundle), recorded unless a dry run. */
  tombstones: number;
  /** Memories of this store deleted by those tombstones: deleted in the source after they were last written here. */
  deletedByTombstones: number;
}

export interface FileImport {
  format: ImportFormat;
  file: string;
  placement: Placement;
  dryRun: boolean;
  /** After each batch: rows read so far. */
  onProgress?: (report: FileImportReport) => void;
}

/**
 * Imports a file of another memory system (or mnemo's own lines) in batches of what one importMemories call takes:
 * rows the reader could not make sense of and rows the import refused are skipped with their reason, never failing
 * the rest. Every row carries a key derived from the source's own id, so importing the same file again updates the
 * same memories. A dry run writes nothing; it checks each batch on its own, so a row repeated across batches counts
 * as new in each. Once every row is in, what a source kept beyond the memories is restored (restore.service.ts): each
 * memory's history and supersession, read again from the file, and the tombstones of mnemo's bundle.
 */
export async function importFile(deps: MemoryDeps, job: FileImport): Promise<FileImportReport> {
  const report = emptyReport(job.dryRun);
  // Each skipped row with its place in the file: a batch's refusals are known after rows read later were skipped.
  const skipped: (SkippedRow & { seq: number })[] = [];
  const skip = (row: SkippedRow, seq: number) => {
    report.skipped++;
    skipped.push({ ...row, seq });
    // Only the first SKIPPED_KEPT in file order are kept: the latest ones go.
    if (skipped.length > SKIPPED_KEPT) skipped.sort((a, b) => a.seq - b.seq).pop();
  };
  // What the rows with a history were stored as (by their place in the file), and the source's ids of every row
  // stored: a history is restored once all are in, as supersession links may name a memory further down the file.
  const restored = new Map<number, ImportedMemory>();
  const ids = new Map<string, string>();
  const tombstones: RestoredTombstone[] = [];
  let batch: Pending[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const before = job.dryRun ? new Map<string, Set<string>>() : await keysPresent(deps, batch);
    const done = await importMemories(
      deps,
      batch.map((b) => b.input),
      () => true,
      { dryRun: job.dryRun },
    );
    add(report, done);
    for (const r of done.rejected) skip({ at: batch[r.index]!.at, reason: r.reason }, batch[r.index]!.seq);
    if (!job.dryRun) await noteStored(deps, batch, new Set(done.rejected.map((r) => r.index)), before, { restored, ids });
    batch = [];
    job.onProgress?.(report);
  };
  const reader = READERS[job.format];
  for await (const row of reader(job.file, job.placement)) {
    const seq = report.read++;
    if ('problem' in row) skip({ at: row.at, reason: row.problem }, seq);
    else if ('tombstone' in row) tombstones.push(row.tombstone);
    else batch.push({ ...row, seq });
    if (batch.length === LIMITS.importRows) await flush();
  }
  await flush();
  if (!job.dryRun && restored.size > 0) {
    // RESTORE_ROWS memories a transaction: one each would cost a commit per memory, most of the import's time.
    let pending: { target: ImportedMemory; restore: RestoredMemory }[] = [];
    const { historyVersionsKept } = await deps.settings.get();
    const restoreAll = async () => {
      const rows = pending;
      pending = [];
      report.versions += await writing(deps.db, async (trx) => {
        let versions = 0;
        for (const r of rows) versions += await restoreMemory({ ...deps, db: trx }, r.target, r.restore, { ids, historyVersionsKept });
        return versions;
      });
    };
    let seq = 0;
    for await (const row of reader(job.file, job.placement)) {
      const target = restored.get(seq++);
      if (target && 'restore' in row && row.restore) pending.push({ target, restore: row.restore });
      if (pending.length === RESTORE_ROWS) await restoreAll();
    }
    if (pending.length > 0) await restoreAll();
  }
  if (tombstones.length > 0) {
    report.tombstones = tombstones.length;
    if (!job.dryRun) report.deletedByTombstones = await applyTombstones(deps, tombstones, new Set(ids.values()));
  }
  report.skippedRows = skipped.sort((a, b) => a.seq - b.seq).map(({ at, reason }) => ({ at, reason }));
  return report;
}

/** The report before the first row is read. */
export function emptyReport(dryRun: boolean): FileImportReport {
  return {
    dryRun,
    read: 0,
    imported: 0,
    updated: 0,
    merged: 0,
    skipped: 0,
    skippedRows: [],
    outsideRetention: 0,
    expired: 0,
    disabled: false,
    versions: 0,
    tombstones: 0,
    deletedByTombstones: 0,
  };
}

type Pending = Extract<SourceRow, { input: unknown }> & { seq: number };

/** The keys of the batch's API keys that are stored already: a row stored under one of them did not create its memory. */
async function keysPresent(deps: MemoryDeps, batch: readonly Pending[]) {
  const present = new Map<string, Set<string>>();
  for (const [apiKeyId, rows] of byApiKey(batch)) {
    present.set(
      apiKeyId,
      await presentKeys(
        deps.db,
        apiKeyId,
        rows.flatMap((r) => (r.input.key ? [r.input.key] : [])),
      ),
    );
  }
  return present;
}

/** Notes what each stored row of a batch with an id or a history of its source became. */
async function noteStored(
  deps: MemoryDeps,
  batch: readonly Pending[],
  rejected: ReadonlySet<number>,
  before: ReadonlyMap<string, ReadonlySet<string>>,
  into: { restored: Map<number, ImportedMemory>; ids: Map<string, string> },
) {
  const wanted = batch.filter((r, i) => !rejected.has(i) && r.input.key && (r.restore || r.sourceId));
  for (const [apiKeyId, rows] of byApiKey(wanted)) {
    const stored = new Map(
      (
        await findMemoryRowsByKey(
          deps.db,
          apiKeyId,
          rows.map((r) => r.input.key!),
        )
      ).map((m) => [m.key, m]),
    );
    for (const r of rows) {
      const m = stored.get(r.input.key!);
      if (!m) continue;
      if (r.sourceId) into.ids.set(r.sourceId, m.id);
      const created = !before.get(apiKeyId)?.has(m.key);
      if (r.restore)
        into.restored.set(r.seq, { pk: m.pk, id: m.id, apiKeyId, validTo: m.valid_to, supersededBy: m.superseded_by, created });
    }
  }
}

function byApiKey(rows: readonly Pending[]) {
  const grouped = new Map<string, Pending[]>();
  for (const r of rows) grouped.set(r.input.apiKeyId, [...(grouped.get(r.input.apiKeyId) ?? []), r]);
  return grouped;
}

function add(report: FileImportReport, done: ImportReport) {
  report.imported += done.imported;
  report.updated += done.updated;
  report.merged += done.merged;
  report.outsideRetention += done.outsideRetention;
  report.expired += done.expired;
  report.disabled = done.disabled;
}
