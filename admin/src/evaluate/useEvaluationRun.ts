import { useEffect, useRef, useState } from 'react';
import {
  EvaluateRunProgressDocument,
  type EvaluateRunProgressSubscription,
  type EvaluateRunProgressSubscriptionVariables,
  type EvaluationSettingsDraft,
} from '../generated/graphql';
import { subscribe } from '../lib/subscribe';

export interface EvaluationRunState {
  /** Questions asked of how many, while a run goes on; null otherwise. */
  progress: { done: number; total: number } | null;
  error: unknown;
  start(variables: { apiKeyId: string; setId: string; settingsDraft: EvaluationSettingsDraft | null }): void;
}

/** Runs a set over the evaluationRunProgress subscription, following its progress; `onDone` once the run is kept. */
export function useEvaluationRun(onDone: () => void): EvaluationRunState {
  const [progress, setProgress] = useState<EvaluationRunState['progress']>(null);
  const [error, setError] = useState<unknown>(null);
  const stop = useRef<(() => void) | null>(null);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  // Leaving the tab ends the subscription, and with it the run: it is not kept.
  useEffect(() => () => stop.current?.(), []);

  function start(variables: EvaluateRunProgressSubscriptionVariables) {
    stop.current?.();
    setError(null);
    setProgress({ done: 0, total: 0 });
    let kept = false;
    stop.current = subscribe<EvaluateRunProgressSubscription, EvaluateRunProgressSubscriptionVariables>(
      EvaluateRunProgressDocument.toString(),
      variables,
      {
        next: ({ evaluationRunProgress: p }) => {
          setProgress({ done: p.done, total: p.total });
          if (p.run) kept = true;
        },
        error: (e) => {
          setProgress(null);
          setError(e);
        },
        complete: () => {
          setProgress(null);
          if (kept) onDoneRef.current();
        },
      },
      { retry: false },
    );
  }

  return { progress, error, start };
}
