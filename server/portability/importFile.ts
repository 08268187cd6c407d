import { type ImportReport, importMemories } from '../memory/import.service.ts';
import type { MemoryDeps } from '../memory/memory.service.ts';
import type { MemoryInput } from '../memory/memory.ts';
import { LIMITS } from '../validation.ts';
import { readCsv } from './formats/csv.ts';
import { readJsonl } from './formats/jsonl.ts';
import { readLetta } from './formats/letta.ts';
import { readMem0 } from './formats/mem0.ts';
import { readOmniRoute } from './formats/omniroute.ts';
import type { ImportFormat, Placement, SourceReader } from './sourceRows.ts';

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
 * as new in each.
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
  let batch: { at: string; seq: number; input: MemoryInput }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const done = await importMemories(
      deps,
      batch.map((b) => b.input),
      () => true,
      { dryRun: job.dryRun },
    );
    add(report, done);
    for (const r of done.rejected) skip({ at: batch[r.index]!.at, reason: r.reason }, batch[r.index]!.seq);
    batch = [];
    job.onProgress?.(report);
  };
  for await (const row of READERS[job.format](job.file, job.placement)) {
    const seq = report.read++;
    if ('problem' in row) skip({ at: row.at, reason: row.problem }, seq);
    else batch.push({ ...row, seq });
    if (batch.length === LIMITS.importRows) await flush();
  }
  await flush();
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
  };
}

function add(report: FileImportReport, done: ImportReport) {
  report.imported += done.imported;
  report.updated += done.updated;
  report.merged += done.merged;
  report.outsideRetention += done.outsideRetention;
  report.expired += done.expired;
  report.disabled = done.disabled;
}
