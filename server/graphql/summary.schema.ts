import { keyForWrite, mayUseKey } from '../auth/viewer.ts';
import { restoreSummary, type SummaryOutcome, summarize } from '../memory/summarization.ts';
import { builder } from './builder.ts';
import { MemoryRef } from './memory.schema.ts';

const SummaryResult = builder.objectRef<SummaryOutcome>('SummaryResult').implement({
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    candidateCount: t.int({ resolve: (o) => o.candidates.length }),
    candidates: t.field({ type: [MemoryRef], description: 'The memories that are (or would be) archived.', resolve: (o) => o.candidates }),
    tokensBefore: t.exposeInt('tokensBefore'),
    tokensAfter: t.exposeInt('tokensAfter'),
    tokensSaved: t.exposeInt('tokensSaved'),
    summary: t.field({ type: MemoryRef, nullable: true, resolve: (o) => o.summary }),
  }),
});

const RestoreResult = builder.simpleObject('RestoreSummaryResult', {
  fields: (t) => ({
    restored: t.int({ description: 'Memories made active again.' }),
    summary: t.field({ type: MemoryRef, description: 'The summary that was removed.' }),
  }),
});

builder.mutationFields((t) => ({
  summarize: t.field({
    type: SummaryResult,
    description:
      "Compacts one API key's memories last written more than olderThanDays ago into one summary; originals are archived, not deleted.",
    args: {
      apiKeyId: t.arg.string({ required: true }),
      olderThanDays: t.arg.int({ defaultValue: 30 }),
      dryRun: t.arg.boolean({ defaultValue: true }),
    },
    resolve: (_root, args, ctx) =>
      summarize(ctx.services.memory, {
        apiKeyId: keyForWrite(ctx.viewer, args.apiKeyId),
        olderThanDays: args.olderThanDays ?? 30,
        dryRun: args.dryRun ?? true,
      }),
  }),
  restoreSummary: t.field({
    type: RestoreResult,
    description: 'Undoes a summary: brings its originals back and removes it.',
    args: { summaryId: t.arg.id({ required: true }) },
    resolve: (_root, { summaryId }, ctx) => restoreSummary(ctx.services.memory, String(summaryId), (k) => mayUseKey(ctx.viewer, k)),
  }),
}));
