import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useImportMemoriesMutation, useImportRowLimitQuery } from '../generated/graphql';
import { formatDate, formatNumber, plural } from './format';
import { ImportReport, type ImportSummary } from './ImportReport';
import { batches, type ParsedImport, parseImportFile } from './importFile';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  id: string;
  onClose: () => void;
}

type Run = { state: 'idle' } | { state: 'running'; batch: number; of: number } | { state: 'done'; report: ImportSummary; error: unknown };
/** The dry run of the chosen file: what retention and expiry would hide once it is stored. */
type Check = { state: 'checking' } | { state: 'checked'; report: ImportSummary } | { state: 'failed'; error: unknown } | null;

/**
 * Reads a JSON file (the export's format) and checks it with a dry run, which warns before anything is stored about
 * rows that retention or expiry would hide (and the purge delete); then upserts it in batches of as many rows as the
 * server takes per call (importRowLimit) and reports imported, updated and rejected rows with reasons. Rows whose
 * fields have the wrong JSON types are rejected here: GraphQL would refuse their whole batch.
 */
export function ImportPanel({ id, onClose }: Props) {
  const invalidate = useInvalidateMemories();
  const queryClient = useQueryClient();
  // The limit does not change while the server runs.
  const rowLimit = useImportRowLimitQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const importBatch = useImportMemoriesMutation();
  const [file, setFile] = useState<{ name: string; parsed: ParsedImport } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const [check, setCheck] = useState<Check>(null);
  /** The file being checked: a check of a file chosen before must not overwrite its result. */
  const checking = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setRun({ state: 'idle' });
    setCheck(null);
    setFile(null);
    setFileError(null);
    if (!chosen) return;
    let parsed: ParsedImport;
    try {
      parsed = parseImportFile(await chosen.text());
    } catch (e) {
      setFileError(e instanceof Error ? e.message : String(e));
      return;
    }
    setFile({ name: chosen.name, parsed });
    if (parsed.rows.length === 0) return;
    const id = ++checking.current;
    setCheck({ state: 'checking' });
    const dry = await importInBatches(parsed, true);
    if (id === checking.current)
      setCheck(dry.error == null ? { state: 'checked', report: dry.report } : { state: 'failed', error: dry.error });
  }

  /** Sends the rows batch by batch; a dry run stores nothing and answers what the import would do. */
  async function importInBatches({ rows, rejected }: ParsedImport, dryRun: boolean, onBatch?: (batch: number, of: number) => void) {
    const report: ImportSummary = { imported: 0, updated: 0, rejected: [...rejected], outsideRetention: 0, expired: 0, nextPurgeAt: null };
    let error: unknown = null;
    try {
      const { importRowLimit } = await queryClient.ensureQueryData({
        queryKey: useImportRowLimitQuery.getKey(),
        queryFn: useImportRowLimitQuery.fetcher(),
      });
      const parts = batches(rows, importRowLimit);
      for (const [i, part] of parts.entries()) {
        onBatch?.(i + 1, parts.length);
        const { importMemories: r } = await importBatch.mutateAsync({ memories: part.map((row) => row.input), dryRun });
        report.imported += r.imported;
        report.updated += r.updated;
        report.outsideRetention += r.outsideRetention;
        report.expired += r.expired;
        if (r.nextPurgeAt && (!report.nextPurgeAt || r.nextPurgeAt < report.nextPurgeAt)) report.nextPurgeAt = r.nextPurgeAt;
        // The server numbers rows within the batch; the report numbers them within the file.
        for (const rej of r.rejected) report.rejected.push({ ...rej, index: part[rej.index]?.index ?? rej.index });
      }
    } catch (e) {
      error = e;
    }
    report.rejected.sort((a, b) => a.index - b.index);
    return { report, error };
  }

  async function start() {
    if (!file) return;
    const { report, error } = await importInBatches(file.parsed, false, (batch, of) => setRun({ state: 'running', batch, of }));
    setRun({ state: 'done', report, error });
    await invalidate();
  }

  const parsed = file?.parsed;
  const running = run.state === 'running';
  return (
    <section id={id} className="card mem-panel" aria-label="Import memories">
      <div className="mem-panel-head">
        <h2>Import memories</h2>
        <button type="button" className="ghost small" onClick={onClose} disabled={running}>
          Close
        </button>
      </div>
      <p className="muted">
        A file from <strong>Export JSON</strong>, or a JSON array of memories. Rows are upserted by API key and key,{' '}
        {rowLimit.data ? `${formatNumber(rowLimit.data.importRowLimit)} per request` : 'in batches'}; a bad row is reported and never stops
        the others.
      </p>
      <div className="row">
        <label className="field">
          <span>JSON file</span>
          <input ref={inputRef} type="file" accept="application/json,.json" onChange={choose} disabled={running} />
        </label>
        <button type="button" className="primary" onClick={start} disabled={!parsed || parsed.total === 0 || running}>
          {running
            ? `Importing batch ${run.batch} of ${run.of}…`
            : parsed
              ? `Import ${plural(parsed.total, 'row')}${run.state === 'done' ? ' again' : ''}`
              : 'Import'}
        </button>
      </div>
      {fileError && (
        <p role="alert" className="error">
          {fileError}
        </p>
      )}
      {parsed && run.state === 'idle' && (
        <p className="muted" role="status">
          {file.name}: {plural(parsed.total, 'row')}
          {parsed.rejected.length > 0 ? `, ${formatNumber(parsed.rejected.length)} of them unreadable (listed after the import)` : ''}.
          {check?.state === 'checking' ? ' Checking what retention would hide…' : ''}
        </p>
      )}
      {run.state === 'idle' && check?.state === 'checked' && <HiddenWarning report={check.report} />}
      {run.state === 'idle' && check?.state === 'failed' && <ErrorNote error={check.error} prefix="The file could not be checked" />}
      {running && (
        <div
          className="progress"
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={run.of}
          aria-valuenow={run.batch - 1}
        >
          <div style={{ width: `${((run.batch - 1) / run.of) * 100}%` }} />
        </div>
      )}
      {run.state === 'done' && (
        <>
          {run.error != null && <ErrorNote error={run.error} prefix="The import stopped; rows before the failed batch were saved" />}
          {run.error == null && (
            <p role="status" className="ok">
              Import finished.
            </p>
          )}
          <ImportReport report={run.report} />
        </>
      )}
    </section>
  );
}

/** Rows the import would store where retrieval never sees them: the warning shown before importing. */
function HiddenWarning({ report }: { report: ImportSummary }) {
  const { outsideRetention, expired, nextPurgeAt } = report;
  if (outsideRetention + expired === 0) return null;
  return (
    <div className="warning" role="alert" aria-label="Rows that would be hidden">
      {outsideRetention > 0 && (
        <p>
          {plural(outsideRetention, 'row was', 'rows were')} last written before the retention window: stored, but never retrieved and
          hidden from the list. To keep them, widen the retention in Settings first, or turn it off (retentionEnabled: false).
        </p>
      )}
      {expired > 0 && <p>{plural(expired, 'row has', 'rows have')} an expiry already past: stored, but never retrieved.</p>}
      {nextPurgeAt && <p>The purge deletes them from {formatDate(nextPurgeAt)}.</p>}
    </div>
  );
}
