import { useState } from 'react';
import { Bar } from '../components/Bar';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { formatTime } from '../components/format';
import { ScrollRegion } from '../components/ScrollRegion';
import {
  type EvaluateRunFragment,
  type EvaluationSettingsDraft,
  type RetrievalStrategy,
  useEvaluateCompareRunsQuery,
  useEvaluateRunsQuery,
  useMemorySettingsQuery,
} from '../generated/graphql';
import { numberOf, numberProblem } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import { STRATEGY_LABELS } from '../settings/strategyLabels';
import { type EvaluationSet, useInvalidateEvaluation } from './EvaluateTab';
import { useEvaluationRun } from './useEvaluationRun';

interface Draft {
  strategy: RetrievalStrategy;
  maxTokens: string;
  /** Empty: the calibrated guard. */
  fusionVectorShare: string;
  profileBudgetPercent: string;
  rerankEnabled: boolean;
  rerankProviderModel: string;
}

const METRICS = [
  { name: 'hitAt1', label: 'Hit@1', share: true },
  { name: 'hitAt5', label: 'Hit@5', share: true },
  { name: 'hitAt10', label: 'Hit@10', share: true },
  { name: 'mrr', label: 'MRR', share: false },
  { name: 'meanTokens', label: 'Tokens', share: false },
  { name: 'p50Ms', label: 'p50 ms', share: false },
] as const;
type Metric = (typeof METRICS)[number];

const CHANGE_LABEL = { NEWLY_HIT: 'newly found', NEWLY_MISSED: 'newly missed', BETTER: 'higher', WORSE: 'lower' } as const;

function formatMetric(m: Metric, value: number, signed = false): string {
  const sign = signed && value > 0 ? '+' : '';
  if (m.share) return `${sign}${(value * 100).toFixed(0)}%`;
  if (m.name === 'mrr') return `${sign}${value.toFixed(3)}`;
  return `${sign}${value.toFixed(m.name === 'p50Ms' ? 1 : 0)}`;
}

/** Run the set, with the saved settings or a draft; its runs, and how two of them differ. */
export function RunsCard({ apiKeyId, set }: { apiKeyId: string; set: EvaluationSet }) {
  const runs = useEvaluateRunsQuery({ apiKeyId, setId: set.id });
  const list = runs.data?.evaluationRuns ?? [];
  return (
    <>
      <RunForm key={set.id} apiKeyId={apiKeyId} set={set} />
      <section className="card" aria-labelledby="ev-runs-title">
        <div className="card-head">
          <h2 id="ev-runs-title">Runs</h2>
          <span className="muted">newest first</span>
        </div>
        <ErrorNote error={runs.error} prefix="The runs could not be loaded" />
        {list.length === 0 ? <p className="muted">No run yet.</p> : <RunTable runs={list} />}
      </section>
      {list.length >= 2 && <Comparison key={set.id} apiKeyId={apiKeyId} runs={list} />}
    </>
  );
}

function RunForm({ apiKeyId, set }: { apiKeyId: string; set: EvaluationSet }) {
  const saved = useMemorySettingsQuery().data?.memorySettings;
  const [useDraft, setUseDraft] = useState(false);
  const invalidate = useInvalidateEvaluation();
  const run = useEvaluationRun(invalidate);
  const running = run.progress !== null;
  const base: Draft | null = saved
    ? {
        strategy: saved.strategy,
        maxTokens: String(saved.maxTokens),
        fusionVectorShare: saved.fusionVectorShare === null ? '' : String(saved.fusionVectorShare),
        profileBudgetPercent: String(saved.profileBudgetPercent),
        rerankEnabled: saved.rerankEnabled,
        rerankProviderModel: saved.rerankProviderModel ?? '',
      }
    : null;
  const form = useDraftForm<Draft>({
    source: base,
    error: run.error,
    check: (d) =>
      useDraft
        ? {
            maxTokens: numberProblem('The token budget', d.maxTokens, { required: true }),
            fusionVectorShare: numberProblem('The vector share', d.fusionVectorShare, { required: false }),
            profileBudgetPercent: numberProblem('The profile share', d.profileBudgetPercent, { required: true }),
          }
        : {},
    onSubmit: (d) => run.start({ apiKeyId, setId: set.id, settingsDraft: useDraft && base ? changes(base, d) : null }),
  });
  const draft = form.draft;
  const edit = form.edit;

  const n = set.questionCount;
  return (
    <form className="card" aria-labelledby="ev-run-title" onSubmit={form.submit} noValidate>
      <h2 id="ev-run-title">Run</h2>
      <fieldset className="field ev-settings">
        <legend>Settings</legend>
        <div className="segmented">
          <label className={useDraft ? undefined : 'on'}>
            <input type="radio" name="ev-settings" checked={!useDraft} onChange={() => setUseDraft(false)} />
            Saved settings
          </label>
          <label className={useDraft ? 'on' : undefined}>
            <input type="radio" name="ev-settings" checked={useDraft} onChange={() => setUseDraft(true)} />A draft
          </label>
        </div>
      </fieldset>
      {useDraft && draft && (
        <>
          <p className="muted small-note">
            The draft is used by this run only: it is never saved, and the gateway keeps the saved settings.
          </p>
          <div className="grid2">
            <ChoiceSelect
              label="Strategy"
              labels={STRATEGY_LABELS}
              value={draft.strategy}
              onChange={(strategy) => strategy !== '' && edit({ strategy })}
            />
            <DraftField form={form} name="maxTokens" label="Token budget" inputMode="numeric" />
            <DraftField
              form={form}
              name="fusionVectorShare"
              label="Hybrid vector share"
              inputMode="decimal"
              placeholder="calibrated per query"
            />
            <DraftField form={form} name="profileBudgetPercent" label="Profile share (%)" inputMode="numeric" />
            <DraftField form={form} name="rerankProviderModel" label="Rerank model" placeholder="the environment's" />
            <label className="switch ev-rerank">
              <input type="checkbox" checked={draft.rerankEnabled} onChange={(e) => edit({ rerankEnabled: e.target.checked })} />
              <span>Rerank</span>
            </label>
          </div>
        </>
      )}
      {form.formProblems.map((p) => (
        <p key={p} role="alert" className="error">
          {p}
        </p>
      ))}
      <div className="actions">
        <button type="submit" className="primary" disabled={running || n === 0}>
          {running ? 'Running…' : `Run ${n} ${n === 1 ? 'question' : 'questions'}`}
        </button>
        {n === 0 && <span className="muted small-note">Add a question first.</span>}
      </div>
      {run.progress && run.progress.total > 0 && (
        <div className="ev-progress">
          <span className="muted small-note">
            Asked {run.progress.done} of {run.progress.total}
          </span>
          <Bar
            value={run.progress.done}
            max={run.progress.total}
            label="Questions asked"
            role="progressbar"
            tone="accent"
            valueText={`${run.progress.done} of ${run.progress.total} questions asked`}
          />
        </div>
      )}
      {!form.serverMarked && form.formProblems.length === 0 && <ErrorNote error={run.error} prefix="The run failed" />}
    </form>
  );
}

/** Only what differs from the saved settings: the run names exactly what its draft changed. */
function changes(base: Draft, draft: Draft): EvaluationSettingsDraft {
  const out: EvaluationSettingsDraft = {};
  if (draft.strategy !== base.strategy) out.strategy = draft.strategy;
  if (draft.maxTokens !== base.maxTokens) out.maxTokens = numberOf(draft.maxTokens);
  if (draft.fusionVectorShare !== base.fusionVectorShare) out.fusionVectorShare = numberOf(draft.fusionVectorShare);
  if (draft.profileBudgetPercent !== base.profileBudgetPercent) out.profileBudgetPercent = numberOf(draft.profileBudgetPercent);
  if (draft.rerankEnabled !== base.rerankEnabled) out.rerankEnabled = draft.rerankEnabled;
  if (draft.rerankProviderModel !== base.rerankProviderModel) out.rerankProviderModel = draft.rerankProviderModel.trim() || null;
  return out;
}

function settingsText(r: EvaluateRunFragment): string {
  if (r.draft.length === 0) return 'saved';
  const s = r.settings;
  const value: Record<string, string> = {
    strategy: s.strategy.toLowerCase(),
    maxTokens: `budget ${s.maxTokens} tokens`,
    fusionVectorShare: `vector share ${s.fusionVectorShare ?? 'calibrated'}`,
    profileBudgetPercent: `profile ${s.profileBudgetPercent}%`,
    rerankEnabled: s.rerankEnabled ? 'rerank on' : 'rerank off',
    rerankProviderModel: `rerank ${s.rerankProviderModel ?? "the environment's"}`,
  };
  return `draft: ${r.draft.map((name) => value[name] ?? name).join(', ')}`;
}

function RunTable({ runs }: { runs: readonly EvaluateRunFragment[] }) {
  return (
    <ScrollRegion label="Runs table">
      <table className="ev-table ev-runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Settings</th>
            {METRICS.map((m) => (
              <th key={m.name} scope="col" className="num">
                {m.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td className="nowrap">
                #{r.id} <span className="muted ev-when">{formatTime(r.at)}</span>
              </td>
              <td>
                {settingsText(r)}
                {r.metrics.expectedGone > 0 && (
                  <div className="warn-text small-note">{r.metrics.expectedGone} left out: their memories were deleted</div>
                )}
              </td>
              {METRICS.map((m) => (
                <td key={m.name} className="num mono" data-label={m.label}>
                  {formatMetric(m, r.metrics[m.name])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Comparison({ apiKeyId, runs }: { apiKeyId: string; runs: readonly EvaluateRunFragment[] }) {
  const [before, setBefore] = useState(runs[1]!.id);
  const [after, setAfter] = useState(runs[0]!.id);
  const diff = useEvaluateCompareRunsQuery({ apiKeyId, beforeRunId: before, afterRunId: after }, { enabled: before !== after });
  const option = (r: EvaluateRunFragment) => (
    <option key={r.id} value={r.id}>
      #{r.id} · {settingsText(r)}
    </option>
  );
  const c = diff.data?.compareEvaluationRuns;
  return (
    <section className="card" aria-labelledby="ev-diff-title">
      <h2 id="ev-diff-title">Difference</h2>
      <div className="row">
        <label className="field ev-run-select">
          <span>From run</span>
          <select value={before} onChange={(e) => setBefore(e.target.value)}>
            {runs.map(option)}
          </select>
        </label>
        <label className="field ev-run-select">
          <span>To run</span>
          <select value={after} onChange={(e) => setAfter(e.target.value)}>
            {runs.map(option)}
          </select>
        </label>
      </div>
      {before === after && <p className="muted small-note">Pick two different runs.</p>}
      <ErrorNote error={diff.error} />
      {c && before !== after && (
        <>
          <dl className="ev-delta" aria-label="Change per metric">
            {METRICS.map((m) => {
              const v = c.delta[m.name];
              // Fewer tokens and less time are better; for the rest, more is.
              const better = m.name === 'meanTokens' || m.name === 'p50Ms' ? v < 0 : v > 0;
              return (
                <div key={m.name}>
                  <dt>{m.label}</dt>
                  <dd className={v === 0 ? 'muted mono' : better ? 'ok-text mono' : 'warn-text mono'}>{formatMetric(m, v, true)}</dd>
                </div>
              );
            })}
          </dl>
          {c.changes.length === 0 ? (
            <p className="muted">Every question found its memory at the same place in both runs.</p>
          ) : (
            <ul className="ev-changes" aria-label="Questions that changed">
              {c.changes.map((q) => (
                <li key={q.questionId}>
                  <span className={`badge ${q.change === 'NEWLY_HIT' || q.change === 'BETTER' ? 'ok' : 'warn'}`}>
                    {CHANGE_LABEL[q.change]}
                  </span>{' '}
                  {q.question}{' '}
                  <span className="muted">
                    ({q.before === null ? 'missed' : `#${q.before}`} → {q.after === null ? 'missed' : `#${q.after}`})
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
