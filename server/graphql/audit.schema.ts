import { AUDIT_ACTIONS, type AuditChange, type AuditEntry, auditLog } from '../audit/audit.service.ts';
import { limitSchema, rangeText } from '../validation.ts';
import { builder } from './builder.ts';

const AuditActionEnum = builder.enumType('AuditAction', { values: AUDIT_ACTIONS });

const SecretChangeEnum = builder.enumType('SecretChange', {
  values: {
    SET: { description: 'A secret was set where there was none.' },
    CHANGED: { description: 'A secret was replaced by another.' },
    REMOVED: { description: 'A secret was removed.' },
  } as const,
});

const json = (value: unknown) => JSON.stringify(value ?? null);

const AuditChangeRef = builder.objectRef<AuditChange>('AuditChange').implement({
  description: "One field of a change. A secret's value is never shown: only whether it was set, changed or removed.",
  fields: (t) => ({
    field: t.exposeString('field'),
    before: t.string({
      nullable: true,
      description: 'The value before, as JSON; null for a secret.',
      resolve: (c) => ('secret' in c ? null : json(c.before)),
    }),
    after: t.string({
      nullable: true,
      description: 'The value after, as JSON; null for a secret.',
      resolve: (c) => ('secret' in c ? null : json(c.after)),
    }),
    secret: t.field({ type: SecretChangeEnum, nullable: true, resolve: (c) => ('secret' in c ? c.secret : null) }),
  }),
});

const AuditEntryRef = builder.objectRef<AuditEntry>('AuditEntry').implement({
  description: 'One admin-level action, as recorded when it happened. The audit log is append-only.',
  fields: (t) => ({
    id: t.exposeID('id'),
    at: t.expose('at', { type: 'DateTime' }),
    actorId: t.string({ description: "A token id, 'env' (MNEMO_ADMIN_TOKEN), 'cli' or 'system'.", resolve: (e) => e.actor.id }),
    actorName: t.string({ description: "The token's name when the action was done.", resolve: (e) => e.actor.name }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'The x-request-id of the request that did it.' }),
    action: t.expose('action', { type: AuditActionEnum }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The API key acted on, when one.' }),
    target: t.expose('target', {
      type: 'JSONObject',
      nullable: true,
      description: 'What was acted on: ids and counts (never memory text).',
    }),
    changes: t.field({
      type: [AuditChangeRef],
      description: 'Field by field, for settings, providers and Qdrant.',
      resolve: (e) => e.changes,
    }),
    outcome: t.exposeString('outcome', { description: 'OK, or the error code the action failed with.' }),
  }),
});

const AuditLogPageRef = builder.simpleObject('AuditLogPage', {
  fields: (t) => ({
    items: t.field({ type: [AuditEntryRef] }),
    totalCount: t.int({ description: 'Entries matching the filters, over every page.' }),
    offset: t.int({ description: 'How many entries come before this page.' }),
    hasMore: t.boolean(),
  }),
});

builder.queryField('auditLog', (t) =>
  t.field({
    type: AuditLogPageRef,
    authScopes: { admin: true },
    description: 'Admin-level actions, newest first. Entries older than auditRetentionDays are deleted.',
    args: {
      action: t.arg({ type: AuditActionEnum }),
      actor: t.arg.string({ description: "A token id, 'env', 'cli' or 'system'." }),
      apiKeyId: t.arg.string(),
      since: t.arg({ type: 'DateTime', description: 'Entries at or after this instant.' }),
      until: t.arg({ type: 'DateTime', description: 'Entries before this instant.' }),
      limit: t.arg.int({ defaultValue: 50, description: `Page size, ${rangeText(limitSchema)}.` }),
      offset: t.arg.int({ defaultValue: 0 }),
    },
    resolve: async (_root, { limit, offset, ...query }, ctx) => {
      const page = await auditLog(ctx.services, query, { limit, offset });
      return { ...page, hasMore: page.offset + page.items.length < page.totalCount };
    },
  }),
);
