import { checkMemoryHealth, type HealthReport } from '../retrieval/health.service.ts';
import { builder } from './builder.ts';
import { StoreKindEnum } from './engineStatus.schema.ts';

const CheckNameEnum = builder.enumType('HealthCheckName', {
  values: {
    CREATE: { value: 'create' },
    READ: { value: 'read' },
    SEARCH: { value: 'search' },
    DELETE: { value: 'delete' },
    COMMIT: { value: 'commit', description: 'A write to a scratch table, committed and then deleted.' },
    DISK: { value: 'disk', description: 'Free space on the disk of the database.' },
  } as const,
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
    store: t.expose('store', { type: StoreKindEnum, description: 'The store the checks ran on.' }),
    ok: t.exposeBoolean('ok'),
    latencyMs: t.exposeFloat('latencyMs', { description: 'The whole round trip.' }),
    error: t.exposeString('error', { nullable: true }),
    errorCode: t.exposeString('errorCode', {
      nullable: true,
      description:
        'STORAGE_FULL (the disk is full), STORAGE_ERROR (the data cannot be read or written) or UNAVAILABLE (the PostgreSQL server cannot be reached) when the storage is at fault.',
    }),
    checks: t.field({ type: [HealthCheckRef], resolve: (r) => r.checks }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('memoryHealth', (t) =>
  t.field({
    type: MemoryHealthRef,
    description:
      'A real create, read, search and delete round trip in a transaction that is rolled back, then a committed write to a scratch table (deleted again) and the free disk space: it leaves no trace, and fails when writes cannot reach the disk.',
    resolve: (_root, _args, ctx) => checkMemoryHealth(ctx.services),
  }),
);
