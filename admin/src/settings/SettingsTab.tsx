import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { SaveActions } from '../components/SaveActions';
import { type RetrievalStrategy, useMemorySettingsQuery, useUpdateMemorySettingsMutation } from '../generated/graphql';

interface Draft {
  enabled: boolean;
  maxTokens: string;
  retentionDays: string;
  strategy: RetrievalStrategy;
  autoSummarize: boolean;
  /** Empty: the calibrated guard chooses per query. */
  fusionVectorShare: string;
  profileBudgetPercent: string;
}

/** Memory on/off and the budget, retention and strategy every retrieval uses. */
export function SettingsTab() {
  const queryClient = useQueryClient();
  const { data, error, isPending } = useMemorySettingsQuery();
  const save = useUpdateMemorySettingsMutation({
    onSuccess: (result) => queryClient.setQueryData(useMemorySettingsQuery.getKey(), { memorySettings: result.updateMemorySettings }),
  });
  const [draft, setDraft] = useState<Draft | null>(null);

  useEffect(() => {
    const s = data?.memorySettings;
    if (s)
      setDraft({
        enabled: s.enabled,
        maxTokens: String(s.maxTokens),
        retentionDays: String(s.retentionDays),
        strategy: s.strategy,
        autoSummarize: s.autoSummarize,
        fusionVectorShare: s.fusionVectorShare === null ? '' : String(s.fusionVectorShare),
        profileBudgetPercent: String(s.profileBudgetPercent),
      });
  }, [data]);

  if (isPending) return <p className="muted">Loading settings…</p>;
  if (error || !draft) return <ErrorNote error={error} prefix="Settings could not be loaded" />;

  const maxTokens = Number(draft.maxTokens);
  const retentionDays = Number(draft.retentionDays);
  const fusionVectorShare = draft.fusionVectorShare.trim() === '' ? null : Number(draft.fusionVectorShare);
  const profileBudgetPercent = Number(draft.profileBudgetPercent);
  const problems = [
    !Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > 16000 ? 'Max tokens must be a whole number from 0 to 16000.' : null,
    !Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 365
      ? 'Retention must be a whole number of days from 1 to 365.'
      : null,
    fusionVectorShare !== null && !(fusionVectorShare >= 0 && fusionVectorShare <= 1)
      ? 'The vector share must be a number from 0 to 1, or empty for the calibrated guard.'
      : null,
    !Number.isInteger(profileBudgetPercent) || profileBudgetPercent < 0 || profileBudgetPercent > 100
      ? 'The profile share must be a whole number from 0 to 100.'
      : null,
  ].filter((p): p is string => p !== null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (problems.length > 0 || !draft) return;
    save.mutate({
      input: {
        enabled: draft.enabled,
        maxTokens,
        retentionDays,
        strategy: draft.strategy,
        autoSummarize: draft.autoSummarize,
        fusionVectorShare,
        profileBudgetPercent,
      },
    });
  }

  const set = (patch: Partial<Draft>) => {
    save.reset();
    setDraft({ ...draft, ...patch });
  };

  return (
    <form className="card narrow" onSubmit={submit} aria-labelledby="settings-title">
      <h2 id="settings-title">Memory settings</h2>
      <label className="switch">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        <span>Memory enabled</span>
      </label>
      {draft.enabled && (
        <p className="warning" role="note">
          Every injected memory is sent to the provider with each request and billed as prompt tokens: up to {draft.maxTokens || 0} extra
          tokens per request.
        </p>
      )}
      <div className="grid2">
        <label className="field">
          <span>Max tokens per request</span>
          <input type="number" min={0} max={16000} value={draft.maxTokens} onChange={(e) => set({ maxTokens: e.target.value })} />
        </label>
        <label className="field">
          <span>Retention (days)</span>
          <input type="number" min={1} max={365} value={draft.retentionDays} onChange={(e) => set({ retentionDays: e.target.value })} />
        </label>
        <label className="field">
          <span>Retrieval strategy</span>
          <select value={draft.strategy} onChange={(e) => set({ strategy: e.target.value as RetrievalStrategy })}>
            <option value="HYBRID">Hybrid (keyword + semantic)</option>
            <option value="SEMANTIC">Semantic</option>
            <option value="EXACT">Exact (newest first)</option>
          </select>
        </label>
        <label className="field">
          <span>Profile share of the budget (%)</span>
          <input
            type="number"
            min={0}
            max={100}
            value={draft.profileBudgetPercent}
            onChange={(e) => set({ profileBudgetPercent: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Hybrid vector share (0 to 1)</span>
          <input
            type="number"
            min={0}
            max={1}
            step="any"
            placeholder="calibrated per query"
            value={draft.fusionVectorShare}
            onChange={(e) => set({ fusionVectorShare: e.target.value })}
          />
        </label>
      </div>
      <p className="muted">
        After the relevant memories, the profile share carries the key's standing preferences and habits. Leave the vector weight empty and
        a calibrated guard weighs the semantic tier per query; every preview shows the weights used and why.
      </p>
      <label className="switch">
        <input type="checkbox" checked={draft.autoSummarize} onChange={(e) => set({ autoSummarize: e.target.checked })} />
        <span>Summarize old memories automatically (hourly, per API key; undoable)</span>
      </label>
      {problems.map((p) => (
        <p key={p} role="alert" className="error">
          {p}
        </p>
      ))}
      <SaveActions save={save} label="Save settings" disabled={problems.length > 0} />
    </form>
  );
}
