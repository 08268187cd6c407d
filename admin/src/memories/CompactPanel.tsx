import { useEffect, useRef, useState } from 'react';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { FormError } from '../components/FormError';
import { type CompactMemoriesMutation, useCompactMemoriesMutation, useRestoreSummaryMutation } from '../generated/graphql';
import { numberOf, numberProblem } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import { formatNumber, plural } from './format';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  id: string;
  defaultApiKey: string;
  onClose: () => void;
}

/** A compaction that would not make the block smaller is never run: Confirm is not offered. */
const grows = (r: Outcome) => r.tokensSaved <= 0 || r.tokensAfter >= r.tokensBefore;

type Outcome = CompactMemoriesMutation['summarize'];
type Step =
  | { step: 'choose' }
  | { step: 'preview'; apiKeyId: string; days: number | null; result: Outcome }
  | { step: 'done'; result: Outcome }
  | { step: 'undone'; restored: number };

const PREVIEW_ROWS = 6;

/**
 * "Compact old": one API key's memories last written more than N days ago (by default half the retention window)
 * become one summary per session. A dry run comes first and shows what would be archived and the tokens saved, or
 * why nothing would be; Confirm runs it; Undo restores the originals.
 */
export function CompactPanel({ id, defaultApiKey, onClose }: Props) {
  const invalidate = useInvalidateMemories();
  const compact = useCompactMemoriesMutation();
  const restore = useRestoreSummaryMutation();
  const [step, setStep] = useState<Step>({ step: 'choose' });
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const form = useDraftForm<{ apiKeyId: string; olderThanDays: string }>({
    // Empty days: the server's default, half the retention window.
    source: { apiKeyId: defaultApiKey, olderThanDays: '' },
    error: compact.error,
    // Changing the question makes the previous answer stale.
    onEdit: () => {
      compact.reset();
      restore.reset();
      setStep((s) => (s.step === 'preview' ? { step: 'choose' } : s));
    },
    check: (d) => ({
      apiKeyId: d.apiKeyId.trim() === '' ? 'API key is required.' : undefined,
      olderThanDays: numberProblem('Days', d.olderThanDays, { required: false }),
    }),
    onSubmit: (d) => {
      const apiKeyId = d.apiKeyId.trim();
      const days = numberOf(d.olderThanDays);
      compact.mutate(
        { apiKeyId, olderThanDays: days, dryRun: true },
        { onSuccess: (data) => setStep({ step: 'preview', apiKeyId, days, result: data.summarize }) },
      );
    },
  });

  function confirm() {
    if (step.step !== 'preview' || grows(step.result)) return;
    compact.mutate(
      { apiKeyId: step.apiKeyId, olderThanDays: step.days, dryRun: false },
      {
        onSuccess: async (data) => {
          setStep({ step: 'done', result: data.summarize });
          await invalidate();
        },
      },
    );
  }

  async function undo() {
    if (step.step !== 'done' || step.result.summaries.length === 0) return;
    let restored = 0;
    try {
      for (const summary of step.result.summaries)
        restored += (await restore.mutateAsync({ summaryId: summary.id })).restoreSummary.restored;
      setStep({ step: 'undone', restored });
    } finally {
      await invalidate();
    }
  }

  return (
    <section id={id} className="card mem-panel" aria-label="Compact old memories">
      <div className="mem-panel-head">
        <h2>Compact old memories</h2>
        <button type="button" className="ghost small" onClick={onClose} disabled={compact.isPending || restore.isPending}>
          Close
        </button>
      </div>
      <p className="muted">
        Summarizes one API key&apos;s memories last written before the cut-off into a single summary memory. The originals are archived, not
        deleted, and Undo brings them back. Enforced memories are never compacted.
      </p>
      <form className="row" onSubmit={form.submit} aria-label="Choose memories to compact" noValidate>
        <DraftField form={form} name="apiKeyId" label="API key" apiKey ref={firstRef} />
        <DraftField
          form={form}
          name="olderThanDays"
          label="Older than (days)"
          className="mem-days"
          inputMode="numeric"
          placeholder="half the retention"
        />
        <button type="submit" disabled={compact.isPending}>
          {compact.isPending && step.step === 'choose' ? 'Checking…' : 'Preview (dry run)'}
        </button>
      </form>
      <FormError error={compact.error} form={form} prefix="Compaction failed" />
      <ErrorNote error={restore.error} prefix="Undo failed" />

      {step.step === 'preview' && (
        <Preview step={step} busy={compact.isPending} onConfirm={confirm} onCancel={() => setStep({ step: 'choose' })} />
      )}

      {step.step === 'done' &&
        (step.result.summaries.length > 0 ? (
          <div className="mem-outcome">
            <p className="ok" role="status">
              Compacted {plural(step.result.candidateCount, 'memory', 'memories')} into{' '}
              {step.result.summaries.length === 1 ? 'one summary' : plural(step.result.summaries.length, 'summary', 'summaries')}:{' '}
              {formatNumber(step.result.tokensBefore)} tokens became {formatNumber(step.result.tokensAfter)},{' '}
              {plural(step.result.tokensSaved, 'token')} fewer.
            </p>
            <div className="actions">
              <code className="muted">{step.result.summaries.map((s) => s.key).join(', ')}</code>
              <button type="button" onClick={() => void undo()} disabled={restore.isPending}>
                {restore.isPending ? 'Undoing…' : 'Undo'}
              </button>
            </div>
          </div>
        ) : (
          <p role="status" className="muted">
            Nothing was compacted: {step.result.refusedReason ?? 'the memories changed since the preview. Preview again.'}
          </p>
        ))}

      {step.step === 'undone' && (
        <p role="status" className="ok">
          Undone: {plural(step.restored, 'memory', 'memories')} restored and the summary removed.
        </p>
      )}
    </section>
  );
}

function Preview({
  step,
  busy,
  onConfirm,
  onCancel,
}: {
  step: Extract<Step, { step: 'preview' }>;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const r = step.result;
  if (r.candidateCount === 0) {
    return (
      <p role="status" className="muted mem-outcome">
        Nothing to compact for <code>{step.apiKeyId}</code> (memories older than {plural(r.olderThanDays, 'day')}): {r.refusedReason}.
      </p>
    );
  }
  const compacting = r.groups.filter((g) => g.refusedReason === null).length;
  const refused = r.groups.filter((g) => g.refusedReason !== null);
  return (
    <section className="mem-outcome" aria-label="Dry run">
      <p role="status">
        <strong>Dry run:</strong> {plural(r.candidateCount, 'memory', 'memories')} of <code>{step.apiKeyId}</code> older than{' '}
        {plural(r.olderThanDays, 'day')} would become {compacting === 1 ? 'one summary' : `${compacting} summaries, one per session`}.
      </p>
      <dl className="mem-report-counts">
        <div>
          <dt>Candidates</dt>
          <dd>{formatNumber(r.candidateCount)}</dd>
        </div>
        <div>
          <dt>Tokens now</dt>
          <dd>{formatNumber(r.tokensBefore)}</dd>
        </div>
        <div>
          <dt>After</dt>
          <dd>{formatNumber(r.tokensAfter)}</dd>
        </div>
        <div className={r.tokensSaved > 0 ? 'good' : undefined}>
          <dt>Tokens saved</dt>
          <dd>{formatNumber(r.tokensSaved)}</dd>
        </div>
      </dl>
      {refused.length > 0 && (
        <ul className="muted">
          {refused.map((g) => (
            <li key={g.sessionId ?? ''}>
              Left as they are, {g.sessionId === null ? 'the memories of no session' : <code>{g.sessionId}</code>}: {g.refusedReason}.
            </li>
          ))}
        </ul>
      )}
      <ul className="mem-candidates">
        {r.candidates.slice(0, PREVIEW_ROWS).map((m) => (
          <li key={m.id}>
            <code>{m.key}</code> <span className="muted">{m.content}</span>
          </li>
        ))}
        {r.candidates.length > PREVIEW_ROWS && <li className="muted">…and {formatNumber(r.candidates.length - PREVIEW_ROWS)} more</li>}
      </ul>
      {grows(r) ? (
        <p role="note" className="warning">
          Not worth it: the summaries ({formatNumber(r.tokensAfter)} tokens) would not be smaller than the memories they replace (
          {formatNumber(r.tokensBefore)} tokens), so there is nothing to confirm.
        </p>
      ) : null}
      <div className="actions">
        {!grows(r) && (
          <button type="button" className="primary" onClick={onConfirm} disabled={busy}>
            {busy ? 'Compacting…' : 'Confirm'}
          </button>
        )}
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </section>
  );
}
