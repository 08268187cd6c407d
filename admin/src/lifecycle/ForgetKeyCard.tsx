import { useQueryClient } from '@tanstack/react-query';
import { Fragment, type Ref, useEffect, useRef, useState } from 'react';
import { useApiKeySuggestions } from '../components/ApiKeyInput';
import { DraftField } from '../components/DraftField';
import { usePurgeStatusQuery } from '../generated/graphql';
import { useDraftForm } from '../lib/useDraftForm';
import { ForgetKeyDialog, type ForgetReport } from '../memories/ForgetKeyDialog';
import { formatNumber, plural } from '../memories/format';

interface Draft {
  apiKeyId: string;
}

/**
 * Forget an API key: pick it, confirm by typing its name again (ForgetKeyDialog, as the Memories tab does), and see
 * everything the server removed, each count from its report.
 */
export function ForgetKeyCard() {
  const queryClient = useQueryClient();
  const [forgetting, setForgetting] = useState<string | null>(null);
  const [report, setReport] = useState<ForgetReport | null>(null);
  const reportRef = useRef<HTMLElement>(null);
  const form = useDraftForm<Draft>({
    source: { apiKeyId: '' },
    error: null,
    check: (d) => ({ apiKeyId: d.apiKeyId.trim() === '' ? 'Choose the API key to forget.' : undefined }),
    onSubmit: (d) => setForgetting(d.apiKeyId.trim()),
  });
  const key = form.draft?.apiKeyId.trim() ?? '';
  const suggestions = useApiKeySuggestions(key);
  const known = suggestions.items.find((k) => k.apiKeyId === key);

  // The key's rows are gone: once the dialog has closed (its effect runs first and returns the focus to the opener),
  // the focus moves on to what was removed.
  useEffect(() => {
    if (report) reportRef.current?.focus();
  }, [report]);

  return (
    <section className="card" aria-labelledby="forget-title">
      <h2 id="forget-title">Forget an API key</h2>
      <p className="muted">
        Erases every trace of one key: its memories with their summaries and archived originals, keyword entries, vectors and Qdrant points,
        its counts and retrieval statistics, the tombstones of its deleted memories. The audit log keeps who did what and when, under a
        pseudonym instead of the key. It cannot be undone: export the key first (Export a bundle, above) if you may need its memories.
      </p>
      <form className="row" onSubmit={form.submit} aria-labelledby="forget-title" noValidate>
        <DraftField form={form} name="apiKeyId" label="API key" apiKey placeholder="the key to erase" className="forget-key" />
        <button type="submit" className="danger">
          Forget this key…
        </button>
      </form>
      <p className="field-hint muted" aria-live="polite">
        {key === ''
          ? 'Keys that have memories are suggested as you type.'
          : known
            ? `${plural(known.memories, 'memory', 'memories')} stored under ${key}.`
            : suggestions.settled
              ? `No memories are stored under ${key}; its statistics and counters are still erased.`
              : ' '}
      </p>
      {report && <RemovedReport report={report} ref={reportRef} />}
      <ForgetKeyDialog
        apiKeyId={forgetting}
        onClose={() => setForgetting(null)}
        onForgotten={(r) => {
          setForgetting(null);
          form.saved();
          setReport(r);
          void queryClient.invalidateQueries({ queryKey: usePurgeStatusQuery.getKey() });
        }}
      />
    </section>
  );
}

/** Every count of the server's ForgetReport, as it gave them. */
function RemovedReport({ report: r, ref }: { report: ForgetReport; ref: Ref<HTMLElement> }) {
  const rows: [string, string][] = [
    ['Memories', formatNumber(r.memories)],
    ['Summaries', formatNumber(r.summaries)],
    ['Archived originals', formatNumber(r.archivedOriginals)],
    ['Keyword entries', formatNumber(r.keywordEntries)],
    ['Vectors', formatNumber(r.vectors)],
    ['Qdrant removals queued', formatNumber(r.qdrantDeletesQueued)],
    ['Retrievals in its statistics', formatNumber(r.retrievals)],
    ['Tombstones of deleted memories', formatNumber(r.tombstones)],
  ];
  const audit = `#/audit?key=${encodeURIComponent(r.auditApiKeyId)}`;
  return (
    <section ref={ref} tabIndex={-1} className="forget-report" aria-labelledby="forget-report-title">
      <h3 id="forget-report-title">
        Forgot <code>{r.apiKeyId}</code>: what was removed
      </h3>
      <dl className="kv compact">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        <dt>In the audit log now</dt>
        <dd>
          <code>{r.auditApiKeyId}</code> (<a href={audit}>its entries</a>)
        </dd>
        <dt>Write-ahead log</dt>
        <dd>
          {r.walEmptied
            ? 'emptied at once'
            : 'not emptied at once: SQLite empties it at the hourly maintenance (another process was reading it); PostgreSQL keeps the old rows until its log segments are recycled'}
        </dd>
      </dl>
    </section>
  );
}
