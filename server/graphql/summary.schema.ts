import { someIds } from '../audit/audit.service.ts';
import { audited } from '../audit/audited.ts';
import { exactlyOneKey, mayUseKey } from '../auth/viewer.ts';
import { restoreSummary, type SummaryGroup, type SummaryOutcome, summarize } from '../memory/summary.service.ts';
import { olderThanDaysSchema, rangeText } from '../validation.ts';
import { builder } from './builder.ts';
import { MemoryRef } from './memory.schema.ts';

const SummaryGroupRef = builder.objectRef<SummaryGroup>('SummaryGroup').implement({
  description: "One session's old memories (or the key-wide ones) and the summary they become, or why not.",
  fields: (t) => ({
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'null: the memories of no session (key-wide).' }),
    candidates: t.field({
      type: [MemoryRef],
      description: 'The memories of this scope that are (or would be) archived; when refused, the ones weighed.',
      resolve: (g) => g.candidates,
    }),
    tokensBefore: t.exposeInt('tokensBefore', { description: 'What the candidates cost when injected: their lines in the memory block.' }),
    summaryTokens: t.exposeInt('summaryTokens', { description: "What the summary's line costs (or would)." }),
    tokensAfter: t.exposeInt('tokensAfter', {
      description: 'What this scope costs after the run: summaryTokens, or tokensBefore when refused.',
    }),
    tokensSaved: t.exposeInt('tokensSaved', { description: 'tokensBefore minus tokensAfter; 0 when refused.' }),
    refusedReason: t.exposeString('refusedReason', {
      nullable: true,
      description: 'Why this scope is not compacted (fewer than two memories, or a summary no smaller than they are).',
    }),
    summary: t.field({ type: MemoryRef, nullable: true, description: 'The summary a real run wrote.', resolve: (g) => g.summary }),
  }),
});

const SummaryResultRef = builder.objectRef<SummaryOutcome>('SummaryResult').implement({
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    olderThanDays: t.exposeInt('olderThanDays', { description: 'The cut-off used: the one given, or half the retention window.' }),
    candidateCount: t.int({ resolve: (o) => o.candidates.length }),
    candidates: t.field({
      type: [MemoryRef],
      description: 'The memories that are (or would be) archived, over every group that compacts.',
      resolve: (o) => o.candidates,
    }),
    tokensBefore: t.exposeInt('tokensBefore', { description: 'What the candidates cost when injected.' }),
    tokensAfter: t.exposeInt('tokensAfter', { description: 'What their summaries cost when injected.' }),
    tokensSaved: t.exposeInt('tokensSaved', {
      description: 'tokensBefore minus tokensAfter: never negative, since a summary no smaller is refused.',
    }),
    groups: t.field({
      type: [SummaryGroupRef],
      description: 'One per session with old memories, and one for the key-wide ones: a summary never mixes sessions.',
      resolve: (o) => o.groups,
    }),
    summaries: t.field({
      type: [MemoryRef],
      description: 'The summaries a real run wrote, one per group that compacts.',
      resolve: (o) => o.summaries,
    }),
    refusedReason: t.exposeString('refusedReason', {
      nullable: true,
      description: 'Why nothing is (or would be) compacted; null when something is.',
    }),
  }),
});

const RestoreResultRef = builder.simpleObject('RestoreSummaryResult', {
  fields: (t) => ({
    restored: t.int({ description: 'Memories made active again.' }),
    summary: t.field({ type: MemoryRef, description: 'The summary that was removed.' }),
  }),
});

builder.mutationFields((t) => ({
  summarize: t.field({
    type: SummaryResultRef,
    description:
      "Compacts one API key's memories last written more than olderThanDays ago: one summary per session, one for the key-wide memories. Originals are archived, not deleted; a summary that would not be smaller than what it replaces is refused.",
    args: {
      apiKeyId: t.arg.string({ required: true }),
      olderThanDays: t.arg.int({
        description: `Memories last written more than this many days ago (${rangeText(olderThanDaysSchema)}). Default: half the retention window, as the auto pass uses.`,
      }),
      dryRun: t.arg.boolean({ defaultValue: true }),
    },
    resolve: (_root, args, ctx) => {
      const apiKeyId = exactlyOneKey(ctx.viewer, args.apiKeyId);
      const run = () => summarize(ctx.services, { apiKeyId, olderThanDays: args.olderThanDays, dryRun: args.dryRun ?? true });
      // A dry run changes nothing: only real runs are admin-level actions.
      if (args.dryRun ?? true) return run();
      return audited(
        ctx,
        {
          action: 'MEMORIES_SUMMARIZE',
          apiKeyId,
          describe: (o) => ({
            target: { archived: o.candidates.length, summaries: someIds(o.summaries.map((s) => s.id)), tokensSaved: o.tokensSaved },
          }),
        },
        run,
      );
    },
  }),
  restoreSummary: t.field({
    type: RestoreResultRef,
    description: 'Undoes a summary: brings its originals back and removes it.',
    args: { summaryId: t.arg.id({ required: true }) },
    resolve: (_root, { summaryId }, ctx) =>
      audited(
        ctx,
        {
          action: 'SUMMARY_RESTORE',
          target: { summaryId: String(summaryId) },
          describe: (r) => ({ target: { restored: r.restored }, apiKeyId: r.summary.apiKeyId }),
        },
        () => restoreSummary(ctx.services, String(summaryId), (k) => mayUseKey(ctx.viewer, k)),
      ),
  }),
}));
