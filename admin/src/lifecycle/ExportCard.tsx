import { useState } from 'react';
import { ApiKeyInput } from '../components/ApiKeyInput';
import { ErrorNote } from '../components/ErrorNote';
import { saveBlob } from '../lib/saveBlob';
import { formatNumber, plural } from '../memories/format';
import { type BundleProgress, type DownloadedBundle, downloadBundle } from './downloadBundle';

type Run =
  | { state: 'idle' }
  | { state: 'running'; progress: BundleProgress }
  | { state: 'done'; bundle: DownloadedBundle }
  | { state: 'failed'; error: unknown };

const size = (bytes: number) => (bytes < 1024 ? plural(bytes, 'byte') : `${formatNumber(Math.round(bytes / 1024))} KB`);

/**
 * Export everything, or one key, as mnemo's bundle: every memory with its versions, validity and supersession, and the
 * tombstones of deleted ones (the same file as `mnemo export`). The bar counts the bytes received of those the server
 * announced; the result line is read from the file's own header.
 */
export function ExportCard() {
  const [apiKeyId, setApiKeyId] = useState('');
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const key = apiKeyId.trim();
  const running = run.state === 'running';

  const start = async () => {
    setRun({ state: 'running', progress: null });
    try {
      const bundle = await downloadBundle(key === '' ? null : key, (progress) => setRun({ state: 'running', progress }));
      saveBlob(bundle.blob, bundle.fileName);
      setRun({ state: 'done', bundle });
    } catch (error) {
      setRun({ state: 'failed', error });
    }
  };

  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Export a bundle</h2>
      <p className="muted">
        Every memory with its earlier versions, when it held and what replaced it, and a tombstone for each deleted one (when and by whom,
        never its text), in one file of JSON lines whose first line counts them and carries a checksum.{' '}
        <code>mnemo import --from jsonl</code> reads it back into any mnemo.
      </p>
      <form
        className="row"
        aria-labelledby="export-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) void start();
        }}
      >
        <label className="field export-key">
          <span>API key</span>
          <ApiKeyInput value={apiKeyId} onChange={(e) => setApiKeyId(e.target.value)} placeholder="All keys" disabled={running} />
        </label>
        <button type="submit" className="primary" disabled={running}>
          {running ? 'Exporting…' : key === '' ? 'Export everything' : 'Export this key'}
        </button>
      </form>
      {running && <ExportProgress progress={run.progress} />}
      {run.state === 'failed' && <ErrorNote error={run.error} prefix="The export failed" />}
      {run.state === 'done' && <ExportResult bundle={run.bundle} />}
    </section>
  );
}

function ExportProgress({ progress }: { progress: BundleProgress }) {
  if (progress === null) {
    return (
      <div className="export-progress">
        <div
          className="progress indeterminate"
          role="progressbar"
          aria-label="Export progress"
          aria-valuetext="The server is making the bundle"
        >
          <div />
        </div>
        <p className="muted" role="status">
          The server is reading the memories into the bundle…
        </p>
      </div>
    );
  }
  const { received, total } = progress;
  return (
    <div className="export-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={received}
      >
        <div style={{ width: `${total === 0 ? 100 : (received / total) * 100}%` }} />
      </div>
      <p className="muted" role="status">
        Downloading: {size(received)} of {size(total)}
      </p>
    </div>
  );
}

function ExportResult({ bundle }: { bundle: DownloadedBundle }) {
  const { counts, apiKeyId, checksum } = bundle.header;
  return (
    <p role="status" className="ok export-result">
      Exported {plural(counts.memories, 'memory', 'memories')} ({plural(counts.versions, 'earlier version')}) and{' '}
      {plural(counts.tombstones, 'tombstone')} of {apiKeyId === null ? 'every key' : <code>{apiKeyId}</code>} to{' '}
      <code>{bundle.fileName}</code> ({size(bundle.bytes)}, sha256 <code className="checksum">{checksum.slice(0, 12)}…</code>).
    </p>
  );
}
