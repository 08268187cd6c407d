import { useId } from 'react';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { FieldProblem } from '../components/FieldProblem';
import { ModelField, useModelNames } from '../components/ModelField';
import { SaveActions } from '../components/SaveActions';
import { type CaptureTurns, type RetrievalStrategy, type SettingsFieldsFragment, useMemorySettingsQuery } from '../generated/graphql';
import { numberOf, numberProblem } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import { STRATEGY_LABELS } from './strategyLabels';
import { useSaveMemorySettings } from './useSaveMemorySettings';

interface Draft {
  enabled: boolean;
  maxTokens: string;
  retentionDays: string;
  retentionEnabled: boolean;
  purgeGraceDays: string;
  strategy: RetrievalStrategy;
  autoSummarize: boolean;
  /** Empty: the calibrated guard chooses per query. */
  fusionVectorShare: string;
  profileBudgetPercent: string;
  /** One provider or model per line. */
  userRoleProviders: string;
  captureTurns: CaptureTurns;
  /** Empty: the rules alone. */
  extractionModel: string;
  extractionModelDailyTokens: string;
  historyVersionsKept: string;
  mergeParaphrases: boolean;
  injectionLogDays: string;
}

const CAPTURE_LABELS: Record<CaptureTurns, string> = { OFF: 'Off', USER: 'User messages', ALL: 'All messages' };

const draftOf = (s: SettingsFieldsFragment): Draft => ({
  enabled: s.enabled,
  maxTokens: String(s.maxTokens),
  retentionDays: String(s.retentionDays),
  retentionEnabled: s.retentionEnabled,
  purgeGraceDays: String(s.purgeGraceDays),
  strategy: s.strategy,
  autoSummarize: s.autoSummarize,
  fusionVectorShare: s.fusionVectorShare === null ? '' : String(s.fusionVectorShare),
  profileBudgetPercent: String(s.profileBudgetPercent),
  userRoleProviders: s.userRoleProviders.join('\n'),
  captureTurns: s.captureTurns,
  extractionModel: s.extractionModel ?? '',
  extractionModelDailyTokens: String(s.extractionModelDailyTokens),
  historyVersionsKept: String(s.historyVersionsKept),
  mergeParaphrases: s.mergeParaphrases,
  injectionLogDays: String(s.injectionLogDays),
});

/** Memory on/off and the budget, retention and strategy every retrieval uses. */
export function SettingsTab() {
  const { data, error, isPending } = useMemorySettingsQuery();
  const save = useSaveMemorySettings({ onSaved: () => form.saved() });
  const chatModels = useModelNames('CHAT');
  const modelListId = useId();
  const form = useDraftForm<Draft>({
    keep: 'settings/memory',
    source: data ? draftOf(data.memorySettings) : null,
    error: save.error,
    onEdit: save.reset,
    check: (d) => ({
      maxTokens: numberProblem('Max tokens', d.maxTokens, { required: true }),
      retentionDays: numberProblem('Retention', d.retentionDays, { required: true }),
      purgeGraceDays: numberProblem('The purge grace', d.purgeGraceDays, { required: true }),
      profileBudgetPercent: numberProblem('The profile share', d.profileBudgetPercent, { required: true }),
      fusionVectorShare: numberProblem('The vector share', d.fusionVectorShare, { required: false }),
      extractionModelDailyTokens: numberProblem('The daily token budget', d.extractionModelDailyTokens, { required: true }),
      historyVersionsKept: numberProblem('The versions kept', d.historyVersionsKept, { required: true }),
      injectionLogDays: numberProblem('The injection log days', d.injectionLogDays, { required: true }),
    }),
    onSubmit: (d) =>
      save.mutate({
        input: {
          enabled: d.enabled,
          maxTokens: numberOf(d.maxTokens),
          retentionDays: numberOf(d.retentionDays),
          retentionEnabled: d.retentionEnabled,
          purgeGraceDays: numberOf(d.purgeGraceDays),
          strategy: d.strategy,
          autoSummarize: d.autoSummarize,
          fusionVectorShare: numberOf(d.fusionVectorShare),
          profileBudgetPercent: numberOf(d.profileBudgetPercent),
          userRoleProviders: d.userRoleProviders
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
          captureTurns: d.captureTurns,
          extractionModel: d.extractionModel.trim() || null,
          extractionModelDailyTokens: numberOf(d.extractionModelDailyTokens),
          historyVersionsKept: numberOf(d.historyVersionsKept),
          mergeParaphrases: d.mergeParaphrases,
          injectionLogDays: numberOf(d.injectionLogDays),
        },
      }),
  });

  const draft = form.draft;
  if (isPending) return <p className="muted">Loading settings…</p>;
  if (error || !draft) return <ErrorNote error={error} prefix="Settings could not be loaded" />;

  const set = form.edit;
  const saved = data?.memorySettings;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p className="muted">What every retrieval may inject, how long memories count, and how they are found.</p>
        </div>
      </div>
      <form className="card narrow" onSubmit={form.submit} aria-labelledby="settings-title" noValidate>
        <h2 id="settings-title">Memory settings</h2>
        <label className="switch">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          <span>Memory enabled</span>
        </label>
        {draft.enabled && (
          <p className="warning" role="note">
            Every injected memory is sent to the provider with each request and billed as prompt tokens:{' '}
            {numberOf(draft.maxTokens) === null ? 'set the most' : `up to ${draft.maxTokens}`} extra tokens per request.
          </p>
        )}
        <div className="grid2">
          <DraftField form={form} name="maxTokens" label="Max tokens per request" inputMode="numeric" />
          <DraftField form={form} name="retentionDays" label="Retention (days)" inputMode="numeric" />
          <DraftField form={form} name="purgeGraceDays" label="Purge grace (days)" inputMode="numeric" />
          <ChoiceSelect
            label="Retrieval strategy"
            labels={STRATEGY_LABELS}
            value={draft.strategy}
            onChange={(strategy) => strategy !== '' && set({ strategy })}
          />
          <DraftField form={form} name="profileBudgetPercent" label="Profile share of the budget (%)" inputMode="numeric" />
          <DraftField
            form={form}
            name="fusionVectorShare"
            label="Hybrid vector share"
            inputMode="decimal"
            placeholder="calibrated per query"
          />
        </div>
        <section className="explain" aria-labelledby="retention-title">
          <h3 id="retention-title">Retention and purge</h3>
          <label className="switch">
            <input type="checkbox" checked={draft.retentionEnabled} onChange={(e) => set({ retentionEnabled: e.target.checked })} />
            <span>Retention on (off: keep every memory, however old)</span>
          </label>
          <p>
            {saved?.retentionEnabled === false
              ? 'Retention is off: memories are kept and injected however old they are; only an expiry date hides one. '
              : `A memory last written more than ${saved?.retentionDays ?? 'the set number of'} days ago is out of retention: it is never injected, and the Memories list hides it (and says how many) until you choose Show expired and archived. Writing it again makes it fresh. `}
            The purge deletes, for good, what expired or left the retention window more than {saved?.purgeGraceDays ?? 'the set number of'}{' '}
            days ago: at start and hourly, with its keyword entries, vectors and Qdrant points. Until then it can still be listed and
            brought back.
          </p>
        </section>
        <p className="muted">
          After the relevant memories, the profile share carries the key's standing preferences and habits. Leave the vector weight empty
          and a calibrated guard weighs the semantic tier per query; every preview shows the weights used and why.
        </p>
        <label className="field">
          <span>Providers that get memories as a user message</span>
          <textarea
            rows={4}
            value={draft.userRoleProviders}
            onChange={(e) => set({ userRoleProviders: e.target.value })}
            spellCheck={false}
            {...form.field('userRoleProviders')}
          />
          <span className="field-hint">
            One provider or model per line (e.g. o1-mini): these reject or mishandle the system role, so the memory block goes into a user
            message for them.
          </span>
          <FieldProblem form={form} name="userRoleProviders" />
        </label>
        <section className="explain" aria-labelledby="capture-title">
          <h3 id="capture-title">Capture and extraction</h3>
          <div className="grid2">
            <ChoiceSelect
              label="Capture chat turns"
              labels={CAPTURE_LABELS}
              value={draft.captureTurns}
              onChange={(captureTurns) => set({ captureTurns: captureTurns || 'OFF' })}
            />
          </div>
          <p>
            Captured messages are kept verbatim, secrets redacted, as episodic memories of their session (each once, however often it is
            sent); the facts found in them link back to them. Off: only the facts are stored.
          </p>
          <div className="grid2">
            <ModelField
              label="Extraction model"
              listId={modelListId}
              value={draft.extractionModel}
              placeholder="provider/model, e.g. openai/gpt-4o-mini"
              options={chatModels}
              onChange={(extractionModel) => set({ extractionModel })}
              {...form.field('extractionModel')}
            />
            <DraftField form={form} name="extractionModelDailyTokens" label="Its tokens per key per day" inputMode="numeric" />
          </div>
          <FieldProblem form={form} name="extractionModel" />
          <p>
            A provider's chat model that is also asked for durable facts, in the background after the rules. Each API key may spend up to
            the daily tokens on it (0 stops its calls); a message that could go over is left to the rules. The count starts afresh at
            midnight UTC. Empty: the rules alone.
          </p>
        </section>
        <section className="explain" aria-labelledby="history-title">
          <h3 id="history-title">History and duplicates</h3>
          <div className="grid2">
            <DraftField form={form} name="historyVersionsKept" label="Versions kept per memory" inputMode="numeric" />
          </div>
          <p>
            Every change of a memory keeps the version it replaced, with who made it and why (a memory's History in the Memories tab, where
            any version can be restored); the oldest beyond this number go. 0 keeps none.
          </p>
          <label className="switch">
            <input type="checkbox" checked={draft.mergeParaphrases} onChange={(e) => set({ mergeParaphrases: e.target.checked })} />
            <span>One memory per fact: merge a memory that restates another in other words into it</span>
          </label>
        </section>
        <section className="explain" aria-labelledby="injection-log-title">
          <h3 id="injection-log-title">Injection log</h3>
          <div className="grid2">
            <DraftField form={form} name="injectionLogDays" label="Keep receipts for (days)" inputMode="numeric" />
          </div>
          <p>
            Each injection's receipt (the memories it got, those left out and why, and the user's message) is kept this many days, the
            newest 1,000 per API key, and shown in the Playground under Recent injections. 0 keeps none; forgetting a key erases its log.
          </p>
        </section>
        <label className="switch">
          <input type="checkbox" checked={draft.autoSummarize} onChange={(e) => set({ autoSummarize: e.target.checked })} />
          <span>Summarize old memories automatically (hourly, per API key; undoable)</span>
        </label>
        <SaveActions save={save} form={form} label="Save settings" />
      </form>
    </>
  );
}
