import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Bar } from '../components/Bar';
import { Card } from '../components/Card';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNote } from '../components/ErrorNote';
import { formatDuration, formatInt, formatRate, formatTime } from '../components/format';
import type { Tone } from '../components/StatusChip';
import { StatusChip } from '../components/StatusChip';
import {
  type ReindexJobFieldsFragment,
  type ReindexStatus,
  useCancelReindexMutation,
  useEngineStatusQuery,
  useLatestReindexJobQuery,
  useStartReindexMutation,
} from '../generated/graphql';
import { ENGINE_REFRESH_MS } from './StatusPanel';
import { useReindexProgress } from './useReindexProgress';

type Job = ReindexJobFieldsFragment;

const STATUS: Record<ReindexStatus, { tone: Tone; label: string }> = {
  RUNNING: { tone: 'accent', label: 'Running' },
  COMPLETED: { tone: 'ok', label: 'Completed' },
  CANCELLED: { tone: 'grey', label: 'Cancelled' },
  FAILED: { tone: 'danger', label: 'Failed' },
};

/**
 * Starts, follows and cancels reindex jobs. A job started here is followed over SSE at once; one started
 * elsewhere (another tab, `mnemo reindex`) is found by polling the latest job and then followed the same way.
 */
export function ReindexPanel() {
  const queryClient = useQueryClient();
  const latest = useLatestReindexJobQuery(undefined, { refetchInterval: ENGINE_REFRESH_MS });
  const status = useEngineStatusQuery(undefined, { refetchInterval: ENGINE_REFRESH_MS });
  const [followId, setFollowId] = useState<string | null>(null);
  const [confirmForce, setConfirmForce] = useState(false);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: useLatestReindexJobQuery.getKey() });
    void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() });
  };
  const live = useReindexProgress(followId, refresh);

  const known = latest.data?.reindexJob ?? null;
  const job = fresher(live.job, known);

  // A running job nobody here started: follow it live.
  useEffect(() => {
    if (known?.status === 'RUNNING' && known.id !== followId) setFollowId(known.id);
  }, [known?.id, known?.status, followId]);

  const remember = (j: Job) => queryClient.setQueryData(useLatestReindexJobQuery.getKey(), { reindexJob: j });
  const start = useStartReindexMutation({
    onSuccess: ({ reindex }) => {
      // A job already running (started elsewhere a moment ago) comes back instead of a new one: follow it either way.
      remember(reindex);
      setFollowId(reindex.id);
      setConfirmForce(false);
      cancel.reset();
    },
  });
  const cancel = useCancelReindexMutation({
    onSuccess: ({ cancelReindex }) => {
      remember(cancelReindex);
      refresh();
    },
  });

  const running = job?.status === 'RUNNING';
  const pending = status.data?.engineStatus.vectorStore.pendingReindex ?? null;

  return (
    <Card
      titleId="reindex-title"
      title="Reindex"
      sub={
        <>
          Embeds every memory whose vector is missing or stale
          <Backlog job={job} pending={pending} />
        </>
      }
      actions={
        <>
          <button type="button" className="primary" disabled={running || start.isPending} onClick={() => start.mutate({ force: false })}>
            {start.isPending && !start.variables?.force ? 'Starting…' : 'Reindex now'}
          </button>
          <button type="button" disabled={running || start.isPending} onClick={() => setConfirmForce(true)}>
            Force full reindex
          </button>
        </>
      }
    >
      {/* The server says "reindex not started: why". */}
      {!confirmForce && <ErrorNote error={start.error} />}
      {latest.isPending && !job ? (
        <p className="muted">Loading the latest job…</p>
      ) : job ? (
        <JobView
          key={job.id}
          job={job}
          onCancel={() => cancel.mutate({ jobId: job.id })}
          cancelling={cancel.isPending}
          liveLost={running && live.error !== null}
        />
      ) : latest.error ? (
        <ErrorNote error={latest.error} prefix="The latest job could not be loaded" />
      ) : (
        <p className="muted">No reindex has run yet.</p>
      )}
      <ErrorNote error={cancel.error} prefix="Could not cancel" />
      <ConfirmDialog
        open={confirmForce}
        title="Re-embed every memory?"
        confirmLabel="Start full reindex"
        busyLabel="Starting…"
        busy={start.isPending}
        error={<ErrorNote error={start.error} />}
        onConfirm={() => start.mutate({ force: true })}
        onCancel={() => setConfirmForce(false)}
      >
        A full reindex computes the vector of every memory again with the current model, not only the missing or stale ones. On a large
        store this takes a while, and with a remote provider every memory is a billed API call. Search keeps working meanwhile.
      </ConfirmDialog>
    </Card>
  );
}

/**
 * What is left to embed: a full reindex re-embeds memories that count as neither missing nor stale, so while one runs
 * its own remainder is the truth, not the (often zero) memories waiting.
 */
function Backlog({ job, pending }: { job: Job | null; pending: number | null }) {
  if (job?.status === 'RUNNING' && job.force) {
    return (
      <>
        {' '}
        · <strong>{formatInt(job.total - job.processed - job.failed)}</strong> left in this full reindex
      </>
    );
  }
  if (pending === null) return null;
  return (
    <>
      {' '}
      · <strong>{formatInt(pending)}</strong> waiting now
    </>
  );
}

function JobView({ job, onCancel, cancelling, liveLost }: { job: Job; onCancel: () => void; cancelling: boolean; liveLost: boolean }) {
  const done = job.processed + job.failed;
  const finished = job.status === 'COMPLETED' && job.total === 0;
  const status = STATUS[job.status];
  const tone = job.status === 'RUNNING' ? 'accent' : job.status === 'COMPLETED' ? 'ok' : job.status === 'FAILED' ? 'danger' : 'grey';
  const percent = finished ? 100 : job.total > 0 ? Math.floor((done / job.total) * 100) : 0;
  const elapsed = ((job.finishedAt ? Date.parse(job.finishedAt) : Date.parse(job.updatedAt)) - Date.parse(job.startedAt)) / 1000;
  return (
    <section className="job" aria-label="Reindex job">
      <div className="job-line">
        <StatusChip tone={status.tone}>{status.label}</StatusChip>
        <span>
          Job <code title={job.id}>{job.id.slice(0, 8)}</code>
        </span>
        {job.force && <span className="badge grey">full</span>}
        <span className="muted">started {formatTime(job.startedAt)}</span>
        <span className="spacer" />
        {job.status === 'RUNNING' && (
          <button type="button" className="danger" onClick={onCancel} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      <div className="job-bar">
        <Bar
          role="progressbar"
          label="Reindex progress"
          value={finished ? 1 : done}
          max={finished ? 1 : job.total}
          tone={tone}
          valueText={`${formatInt(done)} of ${formatInt(job.total)} memories`}
        />
        <span className="job-percent">{percent}%</span>
      </div>
      <dl className="job-stats">
        <div>
          <dt>Processed</dt>
          <dd>
            {formatInt(job.processed)} <span className="muted">/ {formatInt(job.total)}</span>
          </dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd>{formatRate(job.rate)}</dd>
        </div>
        <div>
          <dt>{job.status === 'RUNNING' ? 'ETA' : 'Took'}</dt>
          <dd>{job.status === 'RUNNING' ? formatDuration(job.etaSeconds) : formatDuration(elapsed)}</dd>
        </div>
        <div>
          <dt>Failures</dt>
          <dd className={job.failed > 0 ? 'error-text' : undefined}>{formatInt(job.failed)}</dd>
        </div>
        <div>
          <dt>{job.finishedAt ? 'Finished' : 'Elapsed'}</dt>
          <dd>{job.finishedAt ? new Date(job.finishedAt).toLocaleTimeString() : formatDuration(elapsed)}</dd>
        </div>
      </dl>
      {job.error && (
        <p className="error" role="alert">
          {job.error}
        </p>
      )}
      {liveLost && (
        <p className="muted small-note">Live updates were lost; the job is polled every {ENGINE_REFRESH_MS / 1000} s instead.</p>
      )}
    </section>
  );
}

/** The newer of two reports: a later job wins; for one job, an ended state or the later update. */
function fresher(a: Job | null, b: Job | null): Job | null {
  if (!a || !b) return a ?? b;
  if (a.id !== b.id) return Date.parse(a.startedAt) >= Date.parse(b.startedAt) ? a : b;
  if ((a.status === 'RUNNING') !== (b.status === 'RUNNING')) return a.status === 'RUNNING' ? b : a;
  const ta = Date.parse(a.updatedAt);
  const tb = Date.parse(b.updatedAt);
  if (ta !== tb) return ta > tb ? a : b;
  return a.processed + a.failed >= b.processed + b.failed ? a : b;
}
