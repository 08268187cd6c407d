import { useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { MemorySearch } from '../evaluate/MemoryPicker';
import { useAddEvaluationQuestionMutation, useEvaluateSetsQuery } from '../generated/graphql';

export interface KeepQuestion {
  /** Adds the query to the chosen set, expecting this memory; null while there is no set to add it to. */
  keep: ((memory: { id: string; key: string }, how: 'right' | 'missing') => void) | null;
  busy: boolean;
}

/**
 * What the Playground's query can become: a labelled question of an evaluation set of the key, expecting a result
 * marked right, or a memory it should have found and missed.
 */
export function useKeepQuestion(apiKeyId: string, query: string) {
  const sets = useEvaluateSetsQuery({ apiKeyId }, { enabled: apiKeyId !== '' });
  const [picked, setPicked] = useState<string | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const all = sets.data?.evaluationSets ?? [];
  const set = all.find((s) => s.id === picked) ?? all[0] ?? null;
  const add = useAddEvaluationQuestionMutation({ onSuccess: () => sets.refetch() });
  const keep: KeepQuestion['keep'] =
    set && query.trim() !== ''
      ? (memory, how) => {
          setKept(null);
          add.mutate(
            { apiKeyId, setId: set.id, question: query, expected: [memory.id] },
            {
              onSuccess: () =>
                setKept(`Kept in “${set.name}”: this question should find ${memory.key}${how === 'missing' ? ', which it missed' : ''}.`),
            },
          );
        }
      : null;
  return { sets: all, set, setPicked, keep, busy: add.isPending, error: add.error, kept, loaded: sets.isSuccess };
}

export function KeepQuestionCard({
  apiKeyId,
  query,
  state,
}: {
  apiKeyId: string;
  query: string;
  state: ReturnType<typeof useKeepQuestion>;
}) {
  return (
    <section className="card" aria-labelledby="pg-keep-title">
      <h3 id="pg-keep-title">Keep as an evaluation question</h3>
      {state.loaded && state.sets.length === 0 ? (
        <p className="muted small-note">This key has no evaluation set: create one in the Evaluate tab to keep questions from here.</p>
      ) : query.trim() === '' ? (
        <p className="muted small-note">Simulate a query to keep it as a question.</p>
      ) : (
        <>
          <label className="field">
            <span>Evaluation set</span>
            <select value={state.set?.id ?? ''} onChange={(e) => state.setPicked(e.target.value)}>
              {state.sets.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small-note">Mark a result Right, or name a memory the query missed:</p>
          <MemorySearch apiKeyId={apiKeyId} label="Missing a memory" actionLabel="Missing" onPick={(m) => state.keep?.(m, 'missing')} />
        </>
      )}
      {state.kept && (
        <p role="status" className="ok-text small-note">
          {state.kept}
        </p>
      )}
      <ErrorNote error={state.error} prefix="The question was not kept" />
    </section>
  );
}
