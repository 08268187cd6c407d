import { mayUseKey } from '../auth/viewer.ts';
import { getMemory } from '../memory/memory.service.ts';
import { auditedBy } from '../memory/memoryAudit.ts';
import { restoreMemory, type Supersession, supersessionOf } from '../memory/supersession.service.ts';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { MemoryRef } from './memory.schema.ts';

const canSee = (ctx: Context) => (apiKeyId: string) => mayUseKey(ctx.viewer, apiKeyId);

const SupersessionRef = builder.objectRef<Supersession>('Supersession').implement({
  description: 'Why a memory no longer holds: the newer memory that replaced it, the rule that decided it and the sentence that said it.',
  fields: (t) => ({
    supersededBy: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory that replaced it (null only if the caller may not see it).',
      resolve: (s, _args, ctx) => getMemory(ctx.services, s.newId, canSee(ctx)),
    }),
    rule: t.exposeString('rule', {
      description: '"caller": a write named it in supersedes; otherwise the extraction rule that found the change.',
    }),
    sentence: t.exposeString('sentence', { nullable: true, description: 'The sentence that triggered it, when it came from a message.' }),
    at: t.expose('at', { type: 'DateTime', description: 'When the old memory stopped holding: its validTo.' }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', description: 'When mnemo recorded it.' }),
  }),
});

builder.objectFields(MemoryRef, (t) => ({
  validFrom: t.expose('validFrom', {
    type: 'DateTime',
    description: 'When the fact started to hold: when it was said, by default when it was written.',
  }),
  validTo: t.expose('validTo', {
    type: 'DateTime',
    nullable: true,
    description: 'When it stopped holding; null while it is current. Only current memories are retrieved, unless asOf asks for the past.',
  }),
  supersededBy: t.exposeID('supersededBy', { nullable: true, description: 'The id of the memory that replaced this one.' }),
  supersession: t.field({
    type: SupersessionRef,
    nullable: true,
    description: 'Why it no longer holds, while a newer memory supersedes it; null when it is current or ended by an import.',
    resolve: (m, _args, ctx) => supersessionOf(ctx.services, m),
  }),
}));

builder.mutationField('restoreMemory', (t) =>
  t.field({
    type: MemoryRef,
    description:
      'Undoes a supersession: the memory holds again (validTo and supersededBy cleared) and is retrieved again; the memory that superseded it stays. Recorded in the audit log. A current memory is returned unchanged.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => restoreMemory(ctx.services, String(id), canSee(ctx), await auditedBy(ctx)),
  }),
);
