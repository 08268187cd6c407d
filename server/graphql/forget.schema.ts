import { audited } from '../audit/audited.ts';
import { mayForgetKey } from '../auth/viewer.ts';
import { type ForgetReport, forgetApiKey } from '../memory/forget.service.ts';
import { normaliseIdentifier } from '../validation.ts';
import { builder } from './builder.ts';

const ForgetReportRef = builder.objectRef<ForgetReport>('ForgetReport').implement({
  description: 'What forgetApiKey removed.',
  fields: (t) => ({
    apiKeyId: t.exposeString('apiKeyId'),
    memories: t.exposeInt('memories', {
      description: 'Its memories (active, expired, out of retention); summaries and archived originals not included.',
    }),
    archivedOriginals: t.exposeInt('archivedOriginals', { description: 'Originals a summary had archived.' }),
    summaries: t.exposeInt('summaries'),
    keywordEntries: t.exposeInt('keywordEntries', {
      description: "Rows removed from the keyword index, with the key's own terms (removed from the index's segments, not only marked)",
    }),
    vectors: t.exposeInt('vectors', { description: 'Vectors removed from sqlite-vec.' }),
    qdrantDeletesQueued: t.exposeInt('qdrantDeletesQueued', {
      description:
        'Removals of its points queued for Qdrant, while Qdrant is the vector store; the background worker sends them (engineStatus.qdrant.pendingSync shows what is left).',
    }),
    retrievals: t.exposeInt('retrievals', { description: 'Retrievals its statistics counted; removed with its per-key memory count.' }),
    extractionModelUsageDays: t.exposeInt('extractionModelUsageDays', {
      description: 'Days of extraction model usage counted against its daily token budget; removed with the key.',
    }),
    injectionLogEntries: t.exposeInt('injectionLogEntries', {
      description: 'Entries of the injection log (the receipts of its past injections); removed with the key.',
    }),
    tombstones: t.exposeInt('tombstones', {
      description: 'Tombstones of its deleted memories (ids, times, key digests); removed with the key.',
    }),
    evaluationSets: t.exposeInt('evaluationSets', {
      description: 'Evaluation sets (labelled questions and the runs of each); removed with the key.',
    }),
    auditApiKeyId: t.exposeString('auditApiKeyId', {
      description:
        "The pseudonym ('forgotten:<uuid>') the audit log names the key by from now on, in its earlier entries and in this erasure's own: who did what and when stays on record, the key does not.",
    }),
    walEmptied: t.exposeBoolean('walEmptied', {
      description:
        'Whether the write-ahead log was emptied at once. SQLite: false while another process reads it (the hourly maintenance empties it). PostgreSQL: always false; the erased tables were vacuumed, and its write-ahead log keeps the old rows until its segments are recycled after checkpoints.',
    }),
  }),
});

builder.mutationField('forgetApiKey', (t) =>
  t.field({
    type: ForgetReportRef,
    description:
      'Erases every trace of one API key: memories, archived originals, summaries, keyword entries, vectors, Qdrant points (through the outbox), per-key counts and retrieval statistics, access counters and reindex flags. Admins only, or a gateway token bound to this key that was minted with mayForgetKey. Access tokens bound to the key are kept (revoke them separately). Cannot be undone.',
    args: { apiKeyId: t.arg.string({ required: true }) },
    resolve: (_root, { apiKeyId }, ctx) =>
      audited(
        ctx,
        {
          action: 'API_KEY_FORGET',
          // A refused or failed attempt is on record with the key it named; a done one names the key's pseudonym.
          apiKeyId: normaliseIdentifier(apiKeyId),
          describe: ({ auditApiKeyId, walEmptied: _, apiKeyId: __, ...removed }) => ({ apiKeyId: auditApiKeyId, target: removed }),
        },
        () => forgetApiKey(ctx.services, apiKeyId, (key) => mayForgetKey(ctx.viewer, key)),
      ),
  }),
);
