import { audited } from '../audit/audited.ts';
import { forbidden } from '../errors.ts';
import { cancelReindex, type ReindexJob, reindexJob, startReindex, watchReindex } from '../jobs/reindex.service.ts';
import { builder } from './builder.ts';

const JobStatusEnum = builder.enumType('ReindexStatus', {
  values: {
    RUNNING: { value: 'running' },
    COMPLETED: { value: 'completed' },
    FAILED: { value: 'failed' },
    CANCELLED: { value: 'cancelled' },
  } as const,
});

export const ReindexJobRef = builder.objectRef<ReindexJob>('ReindexJob').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: JobStatusEnum }),
    force: t.exposeBoolean('force'),
    total: t.exposeInt('total'),
    processed: t.exposeInt('processed'),
    failed: t.exposeInt('failed'),
    error: t.exposeString('error', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    rate: t.exposeFloat('rate', { description: 'Memories embedded per second.' }),
    etaSeconds: t.exposeFloat('etaSeconds', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  reindexJob: t.field({
    type: ReindexJobRef,
    nullable: true,
    authScopes: { admin: true },
    description: 'A reindex job by id, or the latest one.',
    args: { id: t.arg.id() },
    resolve: (_root, { id }, ctx) => reindexJob(ctx.services, id ? String(id) : null),
  }),
}));

builder.mutationFields((t) => ({
  reindex: t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    description:
      'Starts embedding every memory whose vector is missing or stale (all of them with force), or returns the job already running.',
    args: { force: t.arg.boolean({ defaultValue: false }) },
    resolve: (_root, { force }, ctx) =>
      audited(ctx, { action: 'REINDEX_START', target: { force: force ?? false }, describe: (job) => ({ target: { jobId: job.id } }) }, () =>
        startReindex(ctx.services, force ?? false),
      ),
  }),
  cancelReindex: t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    args: { jobId: t.arg.id({ required: true }) },
    resolve: (_root, { jobId }, ctx) =>
      audited(ctx, { action: 'REINDEX_CANCEL', target: { jobId: String(jobId) } }, () => cancelReindex(ctx.services, String(jobId))),
  }),
}));

builder.subscriptionField('reindexProgress', (t) =>
  t.field({
    type: ReindexJobRef,
    authScopes: { admin: true },
    description: 'The job now, then after every batch (processed, failed, rate, ETA); completes when the job ends.',
    args: { jobId: t.arg.id({ required: true }) },
    subscribe: (_root, { jobId }, ctx) => {
      // Checked here too: field scopes are not guaranteed to run at subscribe time (hayes/pothos#1496).
      if (ctx.viewer.role !== 'admin') throw forbidden('this operation needs an admin token');
      return watchReindex(ctx.services, String(jobId));
    },
    resolve: (job) => job,
  }),
);
