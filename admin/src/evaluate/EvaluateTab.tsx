import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiKeyInput } from '../components/ApiKeyInput';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNote } from '../components/ErrorNote';
import {
  type EvaluateSetsQuery,
  useCreateEvaluationSetMutation,
  useDeleteEvaluationSetMutation,
  useEvaluateSetsQuery,
  usePlaygroundRecentKeysQuery,
  useRenameEvaluationSetMutation,
} from '../generated/graphql';
import { useDebouncedValue } from '../lib/useDebouncedValue';
import { QuestionsCard } from './QuestionsCard';
import { RunsCard } from './RunsCard';
import './evaluate.css';

export type EvaluationSet = EvaluateSetsQuery['evaluationSets'][number];

/** After a change to a key's sets or runs, everything shown of them is read again. */
export function useInvalidateEvaluation() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['EvaluateSets'] }),
      client.invalidateQueries({ queryKey: ['EvaluateRuns'] }),
      client.invalidateQueries({ queryKey: ['EvaluateCompareRuns'] }),
    ]);
}

/**
 * Labelled questions per API key, asked of retrieval with the saved settings or a draft of them, and scored: how
 * often the memories that should be found are, at what place, for how many tokens and how fast.
 */
export function EvaluateTab() {
  const recent = usePlaygroundRecentKeysQuery(undefined, { staleTime: 60_000 });
  const [typed, setTyped] = useState<string | null>(null);
  const apiKeyText = typed ?? recent.data?.memories.items[0]?.apiKeyId ?? '';
  const apiKeyId = useDebouncedValue(apiKeyText.trim(), 300);
  const sets = useEvaluateSetsQuery({ apiKeyId }, { enabled: apiKeyId !== '' });
  const [picked, setPicked] = useState<string | null>(null);
  const all = sets.data?.evaluationSets ?? [];
  const set = all.find((s) => s.id === picked) ?? all[0] ?? null;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Evaluate</h1>
          <p className="muted">
            Questions of your own with the memories they should find, asked of retrieval with the saved settings or a draft. Runs are dry:
            nothing is counted or logged.
          </p>
        </div>
      </div>
      <section className="card ev-pick" aria-labelledby="ev-set-title">
        <h2 id="ev-set-title">Evaluation set</h2>
        <div className="row">
          <label className="field ev-key">
            <span>API key</span>
            <ApiKeyInput value={apiKeyText} onChange={(e) => setTyped(e.target.value)} placeholder="e.g. acme-prod" />
          </label>
          {all.length > 0 && (
            <label className="field ev-set-select">
              <span>Set</span>
              <select value={set?.id ?? ''} onChange={(e) => setPicked(e.target.value)}>
                {all.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.questionCount} {s.questionCount === 1 ? 'question' : 'questions'})
                  </option>
                ))}
              </select>
            </label>
          )}
          {apiKeyId !== '' && <NewSet apiKeyId={apiKeyId} onCreated={setPicked} />}
        </div>
        <ErrorNote error={sets.error} prefix="The sets could not be loaded" />
        {apiKeyId === '' && <p className="muted small-note">Enter the API key whose memories the questions are about.</p>}
        {sets.isSuccess && all.length === 0 && (
          <p className="muted small-note">This key has no evaluation set yet: name one to start writing questions.</p>
        )}
        {set && <SetActions apiKeyId={apiKeyId} set={set} />}
      </section>
      {set && (
        <>
          <QuestionsCard apiKeyId={apiKeyId} set={set} />
          <RunsCard apiKeyId={apiKeyId} set={set} />
        </>
      )}
    </>
  );
}

function NewSet({ apiKeyId, onCreated }: { apiKeyId: string; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const invalidate = useInvalidateEvaluation();
  const create = useCreateEvaluationSetMutation({
    onSuccess: async (data) => {
      setName('');
      await invalidate();
      onCreated(data.createEvaluationSet.id);
    },
  });
  return (
    <form
      className="row ev-new-set"
      aria-label="New evaluation set"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ apiKeyId, name });
      }}
    >
      <label className="field">
        <span>New set</span>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. support questions" />
      </label>
      <button type="submit" disabled={create.isPending || name.trim() === ''}>
        Create set
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function SetActions({ apiKeyId, set }: { apiKeyId: string; set: EvaluationSet }) {
  const [name, setName] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const invalidate = useInvalidateEvaluation();
  const rename = useRenameEvaluationSetMutation({
    onSuccess: async () => {
      setName(null);
      await invalidate();
    },
  });
  const remove = useDeleteEvaluationSetMutation({
    onSuccess: async () => {
      setConfirming(false);
      await invalidate();
    },
  });
  return (
    <div className="actions ev-set-actions">
      {name === null ? (
        <button type="button" className="small" onClick={() => setName(set.name)}>
          Rename
        </button>
      ) : (
        <form
          className="row"
          aria-label="Rename the set"
          onSubmit={(e) => {
            e.preventDefault();
            rename.mutate({ apiKeyId, setId: set.id, name });
          }}
        >
          <label className="field">
            <span>Name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" className="small primary" disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" className="small ghost" onClick={() => setName(null)}>
            Cancel
          </button>
          <ErrorNote error={rename.error} />
        </form>
      )}
      <button type="button" className="small danger" onClick={() => setConfirming(true)}>
        Delete set
      </button>
      <span className="muted small-note">
        {set.runCount} {set.runCount === 1 ? 'run' : 'runs'}
      </span>
      <ConfirmDialog
        open={confirming}
        title={`Delete the set “${set.name}”?`}
        confirmLabel="Delete set"
        busyLabel="Deleting…"
        danger
        busy={remove.isPending}
        error={remove.error ? <ErrorNote error={remove.error} /> : null}
        onConfirm={() => remove.mutate({ apiKeyId, setId: set.id })}
        onCancel={() => setConfirming(false)}
      >
        <p>Its {set.questionCount} questions and its runs are deleted with it. The memories stay.</p>
      </ConfirmDialog>
    </div>
  );
}
