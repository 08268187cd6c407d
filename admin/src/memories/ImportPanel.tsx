import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useImportMemoriesMutation } from '../generated/graphql';
import { formatNumber, plural } from './format';
import { ImportReport, type ImportSummary } from './ImportReport';
import { batches, IMPORT_BATCH_ROWS, type ParsedImport, parseImportFile } from './importFile';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  id: string;
  onClose: () => void;
}

type Run = { state: 'idle' } | { state: 'running'; batch: number; of: number } | { state: 'done'; report: ImportSummary; error: unknown };

/**
 * Reads a JSON file (the export's format), then upserts it in batches of at most 10,000 rows (the server's
 * limit per call) and reports imported, updated and rejected rows with reasons. Rows whose fields have the
 * wrong JSON types are rejected here: GraphQL would refuse their whole batch.
 */
export function ImportPanel({ id, onClose }: Props) {
  const invalidate = useInvalidateMemories();
  const importBatch = useImportMemoriesMutation();
  const [file, setFile] = useState<{ name: string; parsed: ParsedImport } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setRun({ state: 'idle' });
    setFile(null);
    setFileError(null);
    if (!chosen) return;
    try {
      setFile({ name: chosen.name, parsed: parseImportFile(await chosen.text()) });
    } catch (e) {
      setFileError(e instanceof Error ? e.message : String(e));
    }
  }

  async function start() {
    if (!file) return;
    const { rows, rejected } = file.parsed;
    const report: ImportSummary = { imported: 0, updated: 0, rejected: [...rejected] };
    const parts = batches(rows, IMPORT_BATCH_ROWS);
    let error: unknown = null;
    for (const [i, part] of parts.entries()) {
      setRun({ state: 'running', batch: i + 1, of: parts.length });
      try {
        const { importMemories: r } = await importBatch.mutateAsync({ memories: part.map((row) => row.input) });
        report.imported += r.imported;
        report.updated += r.updated;
        // The server numbers rows within the batch; the report numbers them within the file.
        for (const rej of r.rejected) report.rejected.push({ ...rej, index: part[rej.index]?.index ?? rej.index });
      } catch (e) {
        error = e;
        break;
      }
    }
    report.rejected.sort((a, b) => a.index - b.index);
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
        {formatNumber(IMPORT_BATCH_ROWS)} per request; a bad row is reported and never stops the others.
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
        </p>
      )}
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
