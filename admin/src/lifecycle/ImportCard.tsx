import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Bar } from '../components/Bar';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { ErrorNote } from '../components/ErrorNote';
import {
  type FileImportJobFieldsFragment,
  type ImportFormat,
  type Mem0Field,
  StartFileImportDocument,
  type StartFileImportMutation,
  type StartFileImportMutationVariables,
  useFileImportQuery,
} from '../generated/graphql';
import { sendFile } from '../lib/fetcher';
import { formatNumber, plural } from '../memories/format';

const FORMATS: Record<ImportFormat, string> = {
  OMNIROUTE: 'OmniRoute memory database (SQLite)',
  MEM0: 'mem0 export (JSON)',
  LETTA: 'Letta agent file (.af)',
  JSONL: 'mnemo JSON lines',
  CSV: 'CSV with a header row',
};

/** What each format's file is, and where its rows go: the same words as `mnemo import --help`. */
const FORMAT_NOTES: Record<ImportFormat, string> = {
  OMNIROUTE: "The memories table of OmniRoute's SQLite file; each row keeps its API key, session, type, key and times.",
  MEM0: 'What get_all() returns, { "results": [...] } or a list; each memory goes to the key its user_id names, or to the one below.',
  LETTA: "An agent's core memory blocks and archival passages; they go to a key named after each agent, or to the one below.",
  JSONL: "One memory per line, in the Memory type's fields, as mnemo exports them.",
  CSV: 'A header row naming apiKeyId, content and any of sessionId, type, key, metadata, createdAt, expiresAt, validFrom, validTo.',
};

const MEM0_FIELDS: Record<Mem0Field, string> = { USER_ID: 'user_id', AGENT_ID: 'agent_id', RUN_ID: 'run_id' };

/** Skipped rows shown under a report; the server keeps the first 100. */
const SKIPPED_SHOWN = 10;

type Job = FileImportJobFieldsFragment;

/** A job as the server has it now, polled while it runs. */
function useImportJob(id: string | null) {
  return useFileImportQuery(
    { id: id ?? '' },
    { enabled: id !== null, refetchInterval: (q) => (q.state.data?.fileImport.status === 'RUNNING' ? 400 : false) },
  );
}

/**
 * Moving in from another memory system: a file of one of `mnemo import`'s formats, sent to the server and read there.
 * A dry run comes first and shows what each row would become; only then can the rows be imported, with a progress bar
 * measured against the dry run's row count.
 */
export function ImportCard() {
  const queryClient = useQueryClient();
  const [format, setFormat] = useState<ImportFormat>('JSONL');
  const [file, setFile] = useState<File | null>(null);
  const [apiKeyId, setApiKeyId] = useState('');
  const [keyFrom, setKeyFrom] = useState<Mem0Field | ''>('');
  const [sessionFrom, setSessionFrom] = useState<Mem0Field | ''>('');
  const [dryRunId, setDryRunId] = useState<string | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (variables: StartFileImportMutationVariables) =>
      sendFile<StartFileImportMutation, StartFileImportMutationVariables>(StartFileImportDocument.toString(), variables),
  });
  const dryRun = useImportJob(dryRunId).data?.fileImport ?? null;
  const imported = useImportJob(importId).data?.fileImport ?? null;
  const running = start.isPending || dryRun?.status === 'RUNNING' || imported?.status === 'RUNNING';

  // Another file or other options: the dry run no longer says what an import would do.
  const changed = () => {
    setDryRunId(null);
    setImportId(null);
    start.reset();
  };
  const run = (asDryRun: boolean) => {
    if (!file) return;
    const mem0 = format === 'MEM0';
    const variables: StartFileImportMutationVariables = {
      file,
      format,
      dryRun: asDryRun,
      apiKeyId: (mem0 || format === 'LETTA') && apiKeyId.trim() !== '' ? apiKeyId.trim() : null,
      keyFrom: mem0 && keyFrom !== '' ? keyFrom : null,
      sessionFrom: mem0 && sessionFrom !== '' ? sessionFrom : null,
    };
    start.mutate(variables, {
      onSuccess: ({ startFileImport: job }) => {
        if (asDryRun) setDryRunId(job.id);
        else setImportId(job.id);
      },
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    changed();
    run(true);
  };
  // The rows are in: every count and list the other tabs show may have changed.
  const done = imported !== null && imported.status !== 'RUNNING';
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'FileImport' });
  }, [done, queryClient]);

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import memories</h2>
      <p className="muted">
        Moving in from another memory system: choose its format and the file. A dry run reads every row first and stores nothing; the same
        file imported again updates the memories it made. Files up to 25 MB go through here; <code>mnemo import</code> reads any size.
      </p>
      <form className="row import-form" onSubmit={submit} aria-labelledby="import-title" noValidate>
        <ChoiceSelect
          label="Format"
          labels={FORMATS}
          value={format}
          onChange={(v) => {
            setFormat(v === '' ? 'JSONL' : v);
            changed();
          }}
        />
        <label className="field import-file">
          <span>File</span>
          <input
            type="file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              changed();
            }}
          />
        </label>
        {(format === 'MEM0' || format === 'LETTA') && (
          <label className="field">
            <span>API key (optional)</span>
            <input
              value={apiKeyId}
              placeholder="every row to this key"
              onChange={(e) => {
                setApiKeyId(e.target.value);
                changed();
              }}
            />
          </label>
        )}
        {format === 'MEM0' && (
          <>
            <ChoiceSelect
              label="API key from"
              labels={MEM0_FIELDS}
              any="user_id"
              value={keyFrom}
              onChange={(v) => {
                setKeyFrom(v);
                changed();
              }}
            />
            <ChoiceSelect
              label="Session from"
              labels={MEM0_FIELDS}
              any="none (key-wide)"
              value={sessionFrom}
              onChange={(v) => {
                setSessionFrom(v);
                changed();
              }}
            />
          </>
        )}
        <button type="submit" className="primary" disabled={file === null || running}>
          Dry run
        </button>
      </form>
      <p className="field-hint muted">{FORMAT_NOTES[format]}</p>
      <ErrorNote error={start.error} prefix="The file was not taken" />
      {dryRun && <JobReport job={dryRun} />}
      {dryRun?.status === 'COMPLETED' && importId === null && (
        <div className="actions">
          <button type="button" className="primary" onClick={() => run(false)} disabled={running || dryRun.report.read === 0}>
            Import {plural(dryRun.report.read, 'row')}
          </button>
        </div>
      )}
      {imported && (
        <>
          {imported.status === 'RUNNING' && (
            <Bar
              role="progressbar"
              label="Import progress"
              value={imported.report.read}
              max={dryRun?.report.read ?? 0}
              valueText={`${formatNumber(imported.report.read)} of ${formatNumber(dryRun?.report.read ?? 0)} rows`}
            />
          )}
          <JobReport job={imported} />
        </>
      )}
    </section>
  );
}

/** A dry run's or an import's counts, as the server reports them, and the first skipped rows with their reasons. */
function JobReport({ job }: { job: Job }) {
  const r = job.report;
  const title =
    job.status === 'RUNNING'
      ? `${job.dryRun ? 'Dry run of' : 'Importing'} ${job.fileName}: ${plural(r.read, 'row')} read so far…`
      : job.status === 'FAILED'
        ? `${job.dryRun ? 'The dry run of' : 'The import of'} ${job.fileName} stopped after ${plural(r.read, 'row')}`
        : job.dryRun
          ? `Dry run of ${job.fileName}: ${plural(r.read, 'row')} read, nothing stored`
          : `Imported ${job.fileName}: ${plural(r.read, 'row')} read`;
  const outcomes: [string, number, string][] = [
    ['New', r.imported, 'memories of their own'],
    ['Updated', r.updated, 'memories already stored under the same key, rewritten'],
    ['Merged', r.merged, 'restate a memory in other words, merged into it'],
    ['Skipped', r.skipped, 'not stored, each for the reason below'],
  ];
  return (
    <section className="import-report" aria-labelledby={`import-report-${job.id}`} aria-live="polite">
      <h3 id={`import-report-${job.id}`}>{title}</h3>
      {job.error && (
        <p role="alert" className="error">
          {job.error.message}
          {job.error.code !== 'INTERNAL_SERVER_ERROR' && <span className="code"> {job.error.code}</span>}
        </p>
      )}
      <table className="import-outcomes">
        <caption className="sr-only">{job.dryRun ? 'What each row would become' : 'What each row became'}</caption>
        <tbody>
          {outcomes.map(([label, n, what]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="num">{formatNumber(n)}</td>
              <td className="muted">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(r.expired > 0 || r.outsideRetention > 0) && (
        <p className="muted small-note">
          Stored but never injected: {formatNumber(r.expired)} already expired, {formatNumber(r.outsideRetention)} older than the retention
          window.
        </p>
      )}
      {r.versions > 0 && (
        <p className="muted small-note">{plural(r.versions, 'earlier version')} kept in the memories' history, from the file's own.</p>
      )}
      {r.tombstones > 0 && (
        <p className="muted small-note">
          {job.dryRun
            ? `${plural(r.tombstones, 'tombstone')} of deleted memories in the file.`
            : `${plural(r.tombstones, 'tombstone')} of deleted memories recorded; ${plural(r.deletedByTombstones, 'memory', 'memories')} of this store deleted by them.`}
        </p>
      )}
      {r.disabled && <p className="muted small-note">Memory is switched off in the settings: nothing is injected until it is on.</p>}
      {r.skippedRows.length > 0 && (
        <>
          <h4>{r.skipped > SKIPPED_SHOWN ? `The first ${SKIPPED_SHOWN} skipped rows` : 'Skipped rows'}</h4>
          <ul className="import-skipped">
            {r.skippedRows.slice(0, SKIPPED_SHOWN).map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are in file order and never reordered; their places may repeat ("agent a1").
              <li key={i}>
                <strong>{s.at}</strong>: {s.reason}
              </li>
            ))}
          </ul>
          {r.skipped > SKIPPED_SHOWN && <p className="muted small-note">… and {plural(r.skipped - SKIPPED_SHOWN, 'more row')}.</p>}
        </>
      )}
      {!job.dryRun && job.status === 'COMPLETED' && (
        <p className="small-note">
          <a href="#/memories">See them in Memories</a> · <a href="#/audit?action=MEMORIES_IMPORT">the import in the audit log</a>
        </p>
      )}
    </section>
  );
}
