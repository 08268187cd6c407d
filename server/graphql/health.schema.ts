import { checkMemoryHealth, type HealthReport } from '../memory/health.service.ts';
import { builder } from './builder.ts';

const CheckNameEnum = builder.enumType('HealthCheckName', {
  values: { CREATE: { value: 'create' }, READ: { value: 'read' }, SEARCH: { value: 'search' }, DELETE: { value: 'delete' } } as const,
});

const HealthCheckRef = builder.objectRef<HealthReport['checks'][number]>('HealthCheck').implement({
  fields: (t) => ({
    name: t.expose('name', { type: CheckNameEnum }),
    ok: t.exposeBoolean('ok'),
    latencyMs: t.exposeFloat('latencyMs'),
  }),
});

const MemoryHealthRef = builder.objectRef<HealthReport>('MemoryHealth').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    latencyMs: t.exposeFloat('latencyMs', { description: 'The whole round trip.' }),
    error: t.exposeString('error', { nullable: true }),
    checks: t.field({ type: [HealthCheckRef], resolve: (r) => r.checks }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('memoryHealth', (t) =>
  t.field({
    type: MemoryHealthRef,
    description: 'A real create, read, search and delete round trip in a transaction that is rolled back: it leaves no trace.',
    resolve: (_root, _args, ctx) => checkMemoryHealth(ctx.services.db),
  }),
);
