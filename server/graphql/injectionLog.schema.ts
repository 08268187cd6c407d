import { boundKeyOnly } from '../auth/viewer.ts';
import { INJECTION_PAGE_MAX, type InjectionPage, injections, type LoggedInjection } from '../retrieval/injectionLog.service.ts';
import { LIMITS } from '../validation.ts';
import { builder } from './builder.ts';
import { ReceiptRef } from './receipt.schema.ts';

const InjectionRef = builder.objectRef<LoggedInjection>('Injection').implement({
  description: 'One injectMemory kept in the injection log (the injectionLogDays setting): what the request got and why.',
  fields: (t) => ({
    id: t.exposeID('id'),
    at: t.field({ type: 'DateTime', resolve: (i) => i.at }),
    sessionId: t.exposeString('sessionId', { nullable: true }),
    query: t.exposeString('query', {
      nullable: true,
      description: `The text the memories were ranked for (the last user message unless given), its first ${LIMITS.injectionLogQueryChars} characters.`,
    }),
    receipt: t.field({
      type: ReceiptRef,
      description: "Each candidate's memory resolves to the memory as it is now, or to null when it was deleted since.",
      resolve: (i) => i.receipt,
    }),
  }),
});

const InjectionPageRef = builder.objectRef<InjectionPage>('InjectionPage').implement({
  fields: (t) => ({
    items: t.field({ type: [InjectionRef], description: 'Newest first.', resolve: (p) => p.items }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'The next page starts after it (pass it as after).' }),
    hasMore: t.exposeBoolean('hasMore'),
  }),
});

builder.queryField('injections', (t) =>
  t.field({
    type: InjectionPageRef,
    description: `The injection log of one API key, newest first: each injectMemory's receipt, kept while injectionLogDays is above 0 (the newest ${LIMITS.injectionLogRows} per key). Empty while the log is off.`,
    args: {
      apiKeyId: t.arg.id({ required: true, description: 'A gateway token may read only the key it is bound to; an unbound one none.' }),
      first: t.arg.int({ defaultValue: 20, description: `Page size, 1 to ${INJECTION_PAGE_MAX}.` }),
      after: t.arg.string({ description: "The previous page's endCursor." }),
    },
    resolve: (_root, args, ctx) =>
      injections(ctx.services, { apiKeyId: boundKeyOnly(ctx.viewer, String(args.apiKeyId)), first: args.first, after: args.after }),
  }),
);
