import { mayUseKey } from '../auth/viewer.ts';
import type { MemoryVersion } from '../memory/history.service.ts';
import { memoryHistory } from '../memory/history.service.ts';
import { revertMemoryAudited } from '../memory/memoryAudit.ts';
import { builder } from './builder.ts';
import { MemoryRef, MemoryTypeEnum } from './memory.schema.ts';

const MemoryVersionRef = builder.objectRef<MemoryVersion>('MemoryVersion').implement({
  description:
    'A version of a memory that a change replaced: what it said and over which time it held, and when, by whom and why it changed. A supersession and its undo are changes too.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'From 1, per memory; the memory itself is the version after the newest one.' }),
    content: t.exposeString('content'),
    type: t.field({ type: MemoryTypeEnum, resolve: (v) => v.type }),
    metadata: t.expose('metadata', { type: 'JSONObject' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    validFrom: t.expose('validFrom', {
      type: 'DateTime',
      nullable: true,
      description: 'When the memory held from, as this version; null only on versions kept before mnemo recorded validity in its history.',
    }),
    validTo: t.expose('validTo', {
      type: 'DateTime',
      nullable: true,
      description: 'When it stopped holding, as this version; null: it was current (or, with validFrom null, not recorded).',
    }),
    supersededBy: t.exposeID('supersededBy', {
      nullable: true,
      description:
        'The id of the memory that had superseded it, as this version. A version whose next one (or the memory itself) gains a supersededBy was superseded ("superseded (rule)"); one that loses it was restored ("restored").',
    }),
    changedAt: t.expose('changedAt', { type: 'DateTime', description: 'When the change that replaced this version was made.' }),
    changedBy: t.exposeString('changedBy', {
      description: 'Who made it: an access token\'s id, or "admin" (MNEMO_ADMIN_TOKEN), "extraction", "import", "system".',
    }),
    reason: t.exposeString('reason', {
      description:
        'Why: the operation ("updateMemory", "said in a message", "importMemories"…), "revert to version N", "merged paraphrase", "superseded (rule)", "restored", "superseding memory deleted".',
    }),
  }),
});

builder.queryFields((t) => ({
  memoryHistory: t.field({
    type: [MemoryVersionRef],
    description:
      "The versions a memory's changes replaced, newest first (at most historyVersionsKept of them); empty for a memory never changed. NOT_FOUND for a memory the caller may not see, as memory() answers null.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => memoryHistory(ctx.services, String(id), (k) => mayUseKey(ctx.viewer, k)),
  }),
}));

builder.mutationFields((t) => ({
  revertMemory: t.field({
    type: MemoryRef,
    description:
      'Makes one of the memory\'s kept versions current again (content, type, metadata, expiry); what it replaces is kept as a version in turn ("revert to version N"). Its validity stays as it is now: a superseded memory stays superseded (restoreMemory undoes that), a current one stays current. In the audit log.',
    args: { id: t.arg.id({ required: true }), version: t.arg.int({ required: true }) },
    resolve: (_root, { id, version }, ctx) => revertMemoryAudited(ctx, String(id), version),
  }),
}));
