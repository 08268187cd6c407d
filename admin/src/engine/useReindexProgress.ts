import { useEffect, useRef, useState } from 'react';
import {
  type ReindexJobFieldsFragment,
  ReindexProgressDocument,
  type ReindexProgressSubscription,
  type ReindexProgressSubscriptionVariables,
} from '../generated/graphql';
import { subscribe } from '../lib/subscribe';

export interface ReindexProgress {
  /** The job as last reported over SSE; null before the first event. */
  job: ReindexJobFieldsFragment | null;
  /** The stream failed (after graphql-sse's retries); the caller falls back to polling. */
  error: unknown;
}

/**
 * Follows one reindex job over SSE (the reindexProgress subscription): its state now, then after every batch,
 * until it ends. `onEnd` runs once when the server completes the stream.
 */
export function useReindexProgress(jobId: string | null, onEnd?: (job: ReindexJobFieldsFragment | null) => void): ReindexProgress {
  const [state, setState] = useState<ReindexProgress & { jobId: string | null }>({ jobId: null, job: null, error: null });
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  useEffect(() => {
    if (!jobId) return;
    let last: ReindexJobFieldsFragment | null = null;
    // graphql-sse also completes the sink when we unsubscribe: only the server's completion is the job's end.
    let disposed = false;
    setState({ jobId, job: null, error: null });
    const unsubscribe = subscribe<ReindexProgressSubscription, ReindexProgressSubscriptionVariables>(
      ReindexProgressDocument.toString(),
      { jobId },
      {
        next: (data) => {
          last = data.reindexProgress;
          setState({ jobId, job: data.reindexProgress, error: null });
        },
        error: (error) => {
          if (!disposed) setState((s) => ({ ...s, jobId, error }));
        },
        complete: () => {
          if (!disposed) onEndRef.current?.(last);
        },
      },
    );
    return () => {
      disposed = true;
      unsubscribe();
    };
  }, [jobId]);

  // Never report another job's state for the one now asked about.
  return state.jobId === jobId ? { job: state.job, error: state.error } : { job: null, error: null };
}
