import { audited } from '../audit/audited.ts';
import { exactlyOneKey, keyOfRow, mayUseKey, oneKeyOrAll } from '../auth/viewer.ts';
import { authorOf } from '../memory/change.ts';
import { type ImportReport, importMemories } from '../memory/import.service.ts';
import type { MemoryQuery, MemoryStats } from '../memory/memory.service.ts';
import * as memories from '../memory/memory.service.ts';
import { MEMORY_TYPES, type Memory, type MemorySource } from '../memory/memory.ts';
import { auditedBy, clearMemoriesAudited, importAudit } from '../memory/memoryAudit.ts';
import { LIMITS, limitSchema, rangeText } from '../validation.ts';
import { builder } from './builder.ts';
import type { Context } from './context.ts';

const upper = <T extends string>(v: T) => v.toUpperCase() as Uppercase<T>;

export const MemoryTypeEnum = builder.enumType('MemoryType', {
  values: Object.fromEntries(MEMORY_TYPES.map((t) => [upper(t), { value: t }])) as {
    [K in (typeof MEMORY_TYPES)[number] as Uppercase<K>]: { value: K };
  },
});

const MemoryStatusEnum = builder.enumType('MemoryStatus', {
  description: 'ACTIVE memories are retrieved while memory is switched on (enabled); the others are kept but never injected.',
  values: {
    ACTIVE: { value: 'active' },
    EXPIRED: { value: 'expired', description: 'expiresAt has passed' },
    OUT_OF_RETENTION: { value: 'out_of_retention', description: 'last written before the retention window' },
    ARCHIVED: { value: 'archived', description: 'replaced by a summary; restoring the summary brings it back' },
    SUPERSEDED: { value: 'superseded', description: 'no longer true (validTo is set): replaced by a newer fact, or imported as ended' },
  } as const,
});

const WriteOutcomeEnum = builder.enumType('MemoryWriteOutcome', {
  values: {
    CREATED: { value: 'created', description: 'A new memory.' },
    UPDATED: { value: 'updated', description: 'The memory already stored under its key, rewritten.' },
    MERGED: {
      value: 'merged',
      description:
        'Merged into a memory of the same key, session and type that says the same in other words: its mentions went up, the more specific wording stayed, the other is in its history.',
    },
  } as const,
});

const MemoryOrderEnum = builder.enumType('MemoryOrderField', {
  values: {
    CREATED_AT: { value: 'created_at' },
    UPDATED_AT: { value: 'updated_at' },
    ACCESS_COUNT: { value: 'access_count' },
    KEY: { value: 'key' },
    TOKENS: { value: 'tokens' },
  } as const,
});

const SortDirectionEnum = builder.enumType('SortDirection', {
  values: { ASC: { value: 'asc' }, DESC: { value: 'desc' } } as const,
});

export const MemoryRef = builder.objectRef<Memory>('Memory').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    apiKeyId: t.exposeString('apiKeyId'),
    sessionId: t.exposeString('sessionId', { nullable: true }),
    type: t.field({ type: MemoryTypeEnum, resolve: (m) => m.type }),
    key: t.exposeString('key'),
    content: t.exposeString('content'),
    metadata: t.expose('metadata', { type: 'JSONObject' }),
    tokens: t.exposeInt('tokens', { description: 'Tokens of the content (o200k_base).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    accessCount: t.exposeInt('accessCount'),
    lastAccessedAt: t.expose('lastAccessedAt', { type: 'DateTime', nullable: true }),
    pendingReindex: t.exposeBoolean('pendingReindex', { description: 'Its vector is missing or stale.' }),
    archivedBy: t.exposeID('archivedBy', { nullable: true, description: 'The summary that replaced this memory.' }),
    mentions: t.exposeInt('mentions', {
      description: 'How many times the fact was stated: 1, and one more for each paraphrase merged into it (mergeParaphrases).',
    }),
    lastSeenAt: t.expose('lastSeenAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a paraphrase was last merged into it; null before the first.',
    }),
    writeOutcome: t.field({
      type: WriteOutcomeEnum,
      nullable: true,
      description: 'On the memory createMemory returns: what the write did. null elsewhere.',
      resolve: (m) => m.outcome ?? null,
    }),
    status: t.field({
      type: MemoryStatusEnum,
      resolve: (m, _args, ctx) => memories.currentStatus(ctx.services, m),
    }),
  }),
});

const MemoryTypeCountRef = builder.simpleObject('MemoryTypeCount', {
  fields: (t) => ({ type: t.field({ type: MemoryTypeEnum }), count: t.int() }),
});

const MemoryWeekCountRef = builder.simpleObject('MemoryWeekCount', {
  description: 'Memories created in one ISO week.',
  fields: (t) => ({
    weekStart: t.field({ type: 'DateTime', description: 'Monday 00:00 UTC that starts the week.' }),
    count: t.int(),
  }),
});

const MemoryStatsRef = builder.objectRef<MemoryStats>('MemoryStats').implement({
  fields: (t) => ({
    totalEntries: t.exposeInt('totalEntries'),
    retentionDays: t.exposeInt('retentionDays', { description: 'The retention window the counts were made with.' }),
    tokensUsed: t.exposeInt('tokensUsed'),
    hitRate: t.exposeFloat('hitRate', {
      nullable: true,
      description: 'Share of retrievals that found at least one memory; null before any.',
    }),
    retrievals: t.exposeInt('retrievals'),
    byType: t.field({ type: [MemoryTypeCountRef], resolve: (s) => s.byType }),
    byWeek: t.field({
      type: [MemoryWeekCountRef],
      description: 'Memories per ISO week of creation, oldest first; weeks without memories are left out.',
      resolve: (s) => s.byWeek,
    }),
    hiddenByExpiry: t.exposeInt('hiddenByExpiry', {
      description:
        'Memories matching the other filters that retrieval never returns because their expiresAt has passed (listed only with includeExpired), whatever includeExpired is.',
    }),
    hiddenByRetention: t.exposeInt('hiddenByRetention', {
      description: 'The same, because they were last written before the retention window (and have not expired); 0 while retention is off.',
    }),
    nextPurgeAt: t.expose('nextPurgeAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'When the purge deletes the first of the hidden memories: the first scheduled pass (at start, then hourly) once purgeGraceDays have passed since it expired or left the retention window; without a background purge in this process, the moment it becomes due. In the past: due, deleted by the next pass (or `mnemo purge`). null when none is hidden.',
    }),
  }),
});

interface MemoryPage {
  items: Memory[];
  totalCount: number;
  limit: number;
  offset: number;
  query: MemoryQuery;
}

const MemoryPageRef = builder.objectRef<MemoryPage>('MemoryPage').implement({
  fields: (t) => ({
    items: t.field({ type: [MemoryRef], resolve: (p) => p.items }),
    totalCount: t.exposeInt('totalCount'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    hasMore: t.boolean({ resolve: (p) => p.offset + p.items.length < p.totalCount }),
    searchWords: t.stringList({
      description: 'The words the search looked for, as the index reads them ("c++" is "c"); the last ends in "*": a prefix.',
      resolve: (p) => memories.listSearchWords(p.query.search),
    }),
    stats: t.field({
      type: MemoryStatsRef,
      description: 'Totals over every memory that matches the filters, not just this page.',
      resolve: (p, _args, ctx) => memories.memoryStats(ctx.services, p.query),
    }),
  }),
});

const MemorySourceEnum = builder.enumType('MemorySource', {
  values: {
    FACTS: { description: 'Every memory but captured chat turns: extracted facts, memories written by hand or imported, summaries.' },
    TURNS: { description: 'Captured chat turns (metadata.source "capture").' },
    ALL: { description: 'Both.' },
  } as const satisfies Record<MemorySource, unknown>,
});

/** The filters shared by `memories` and `exportMemories`. */
const filterArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  apiKeyId: t.arg.string({ description: 'Required for gateway tokens; admins may omit it to see every key.' }),
  sessionId: t.arg.string(),
  type: t.arg({ type: MemoryTypeEnum }),
  search: t.arg.string({ description: 'Words that must all appear in the content or key; the last one may be a prefix.' }),
  createdAfter: t.arg({ type: 'DateTime' }),
  createdBefore: t.arg({ type: 'DateTime' }),
  includeExpired: t.arg.boolean({ description: 'Also list expired and out-of-retention memories.', defaultValue: false }),
  includeArchived: t.arg.boolean({ description: 'Also list memories archived by a summary.', defaultValue: false }),
  includeSuperseded: t.arg.boolean({
    description: 'Also list memories that no longer hold (superseded by a newer fact, or imported as ended). Default: current ones only.',
    defaultValue: false,
  }),
  asOf: t.arg({
    type: 'DateTime',
    description: 'List what was true then: the memories written by that instant and valid at it. Ignored with includeSuperseded.',
  }),
  source: t.arg({ type: MemorySourceEnum, description: 'Captured chat turns, everything else, or both (default).', defaultValue: 'ALL' }),
});

type FilterArgs = {
  apiKeyId?: string | null;
  sessionId?: string | null;
  type?: Memory['type'] | null;
  search?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  includeExpired?: boolean | null;
  includeArchived?: boolean | null;
  includeSuperseded?: boolean | null;
  asOf?: Date | null;
  source?: MemorySource | null;
};

function toQuery(args: FilterArgs, ctx: Context): MemoryQuery {
  return {
    apiKeyId: oneKeyOrAll(ctx.viewer, args.apiKeyId),
    sessionId: args.sessionId,
    types: args.type ? [args.type] : null,
    search: args.search,
    createdAfter: args.createdAfter,
    createdBefore: args.createdBefore,
    includeExpired: args.includeExpired,
    includeArchived: args.includeArchived,
    includeSuperseded: args.includeSuperseded,
    asOf: args.asOf,
    source: args.source,
  };
}

const canSee = (ctx: Context) => (apiKeyId: string) => mayUseKey(ctx.viewer, apiKeyId);

const ApiKeyCountRef = builder.simpleObject('ApiKeyCount', {
  fields: (t) => ({
    apiKeyId: t.string(),
    memories: t.int({ description: 'Memories stored for the key, archived and expired ones included.' }),
  }),
});

const ApiKeyPageRef = builder.simpleObject('ApiKeyPage', {
  fields: (t) => ({
    items: t.field({ type: [ApiKeyCountRef] }),
    totalCount: t.int(),
    limit: t.int(),
    offset: t.int(),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: ApiKeyPageRef,
    authScopes: { admin: true },
    description: 'The API keys that have memories, by name, with how many; for suggestions and overviews.',
    args: {
      contains: t.arg.string({ description: 'Only keys whose name contains this text (case-insensitive for ASCII).' }),
      limit: t.arg.int({ defaultValue: 50, description: `Page size, ${rangeText(limitSchema)}.` }),
      offset: t.arg.int({ defaultValue: 0 }),
    },
    resolve: (_root, args, ctx) => memories.listApiKeys(ctx.services, args),
  }),
  memories: t.field({
    type: MemoryPageRef,
    args: {
      ...filterArgs(t),
      limit: t.arg.int({ defaultValue: 20, description: `Page size, ${rangeText(limitSchema)}.` }),
      offset: t.arg.int({ defaultValue: 0 }),
      orderBy: t.arg({ type: MemoryOrderEnum, defaultValue: 'created_at' }),
      direction: t.arg({ type: SortDirectionEnum, defaultValue: 'desc' }),
    },
    resolve: async (_root, args, ctx) => {
      const query = toQuery(args, ctx);
      const page = await memories.listMemories(ctx.services, query, args);
      return { ...page, limit: args.limit ?? 20, offset: args.offset ?? 0, query };
    },
  }),
  exportMemories: t.field({
    type: [MemoryRef],
    description: 'Every memory matching the filters, most recently stored first; not paged.',
    args: filterArgs(t),
    resolve: (_root, args, ctx) => {
      const query = toQuery(args, ctx);
      return audited(
        ctx,
        { action: 'MEMORIES_EXPORT', apiKeyId: query.apiKeyId, describe: (rows) => ({ target: { count: rows.length } }) },
        () => memories.exportMemories(ctx.services, query),
      );
    },
  }),
  importRowLimit: t.int({
    description: 'The most rows one importMemories call takes; a larger set goes in several calls.',
    resolve: () => LIMITS.importRows,
  }),
  memory: t.field({
    type: MemoryRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => memories.getMemory(ctx.services, String(args.id), canSee(ctx)),
  }),
}));

const MemoryInputRef = builder.inputType('MemoryInput', {
  fields: (t) => ({
    apiKeyId: t.string({ description: 'The tenant. Optional for tokens bound to one key.' }),
    sessionId: t.string(),
    type: t.field({ type: MemoryTypeEnum, defaultValue: 'factual' }),
    key: t.string({ description: 'Upsert key within the API key; derived from the content when omitted.' }),
    content: t.string({ required: true }),
    metadata: t.field({ type: 'JSONObject', description: 'Merged shallowly into the metadata of an existing memory with the same key.' }),
    expiresAt: t.field({ type: 'DateTime' }),
    createdAt: t.field({ type: 'DateTime', description: 'For restoring exports; defaults to now.' }),
    validFrom: t.field({
      type: 'DateTime',
      description: 'When the fact started to hold, not in the future; defaults to createdAt (to now without one).',
    }),
    validTo: t.field({
      type: 'DateTime',
      description: 'When it stopped holding, not in the future (an end still to come is expiresAt); null: it holds now.',
    }),
  }),
});

const MemoryPatchInputRef = builder.inputType('MemoryPatchInput', {
  description: 'Fields to change; omitted fields stay. metadata replaces the whole object.',
  fields: (t) => ({
    sessionId: t.string(),
    type: t.field({ type: MemoryTypeEnum }),
    key: t.string(),
    content: t.string(),
    metadata: t.field({ type: 'JSONObject' }),
    expiresAt: t.field({ type: 'DateTime' }),
  }),
});

const ImportRejectionRef = builder.simpleObject('ImportRejection', {
  fields: (t) => ({
    index: t.int({ description: 'Position of the row in the input, from 0.' }),
    key: t.string({ nullable: true }),
    reason: t.string(),
  }),
});

const ImportReportRef = builder.objectRef<ImportReport>('ImportReport').implement({
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun', { description: 'Nothing was stored: this is what the import would do.' }),
    imported: t.exposeInt('imported', { description: 'New memories.' }),
    updated: t.exposeInt('updated', { description: 'Existing keys that were upserted.' }),
    merged: t.exposeInt('merged', {
      description:
        'Rows without a key merged into a memory of the same API key, session and type that says the same in other words (stored, or an earlier row of this import): not imported as memories of their own (mergeParaphrases).',
    }),
    rejected: t.field({ type: [ImportRejectionRef], resolve: (r) => r.rejected }),
    outsideRetention: t.exposeInt('outsideRetention', {
      description:
        'Rows stored (imported or updated) but last written (createdAt) before the retention window: never retrieved, hidden from memories unless includeExpired, and purged after purgeGraceDays. Turn retention off (retentionEnabled: false) or widen retentionDays to keep them.',
    }),
    expired: t.exposeInt('expired', {
      description: 'Rows stored with an expiresAt already past: never retrieved, purged after purgeGraceDays.',
    }),
    nextPurgeAt: t.expose('nextPurgeAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the purge deletes the first of those rows (as MemoryStats.nextPurgeAt); null when there are none.',
    }),
    disabled: t.exposeBoolean('disabled', {
      description:
        'Memory is switched off in the settings (enabled: false): the rows are stored all the same (unless dryRun), but retrieve and injectMemory return none of them until an admin turns it on.',
    }),
  }),
});

builder.mutationFields((t) => ({
  createMemory: t.field({
    type: MemoryRef,
    description:
      'Creates a memory, or updates the one with the same (apiKeyId, key). Stored even while memory is switched off (enabled: false); retrieve and injectMemory then return nothing until an admin turns it on.',
    args: {
      input: t.arg({ type: MemoryInputRef, required: true }),
      supersedes: t.arg.idList({
        description:
          'Memories of the same API key that this one replaces: each stops holding when this one starts (validTo = its validFrom) and is no longer retrieved; restoreMemory undoes it. An id of another key is NOT_FOUND, and then nothing is written.',
      }),
    },
    resolve: async (_root, { input, supersedes }, ctx) =>
      memories.createMemory(
        ctx.services,
        { ...input, apiKeyId: exactlyOneKey(ctx.viewer, input.apiKeyId) },
        { by: authorOf(ctx.viewer), why: 'createMemory' },
        { supersedes: supersedes?.map(String), by: await auditedBy(ctx) },
      ),
  }),
  updateMemory: t.field({
    type: MemoryRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: MemoryPatchInputRef, required: true }) },
    resolve: (_root, { id, input }, ctx) =>
      memories.updateMemory(
        ctx.services,
        String(id),
        {
          ...input,
          type: input.type ?? undefined,
          key: input.key ?? undefined,
          content: input.content ?? undefined,
          metadata: input.metadata ?? undefined,
        },
        canSee(ctx),
        { by: authorOf(ctx.viewer), why: 'updateMemory' },
      ),
  }),
  deleteMemory: t.field({
    type: MemoryRef,
    description: 'Deletes a memory and returns it as it was.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => memories.deleteMemory(ctx.services, String(id), canSee(ctx), authorOf(ctx.viewer)),
  }),
  clearMemories: t.int({
    description:
      'Deletes the memories of one API key (optionally of one type, or created before a date) in one transaction; returns how many.',
    args: {
      apiKeyId: t.arg.string({ required: true }),
      type: t.arg({ type: MemoryTypeEnum }),
      createdBefore: t.arg({ type: 'DateTime' }),
    },
    resolve: async (_root, args, ctx) => {
      const request = { apiKeyId: args.apiKeyId, types: args.type ? [args.type] : null, createdBefore: args.createdBefore };
      return (await clearMemoriesAudited(ctx, request)).removed;
    },
  }),
  importMemories: t.field({
    type: ImportReportRef,
    description:
      'Upserts many memories at once; bad rows are reported, never fatal to the others, and so are rows that retention or expiry will hide.',
    args: {
      memories: t.arg({ type: [MemoryInputRef], required: true }),
      dryRun: t.arg.boolean({ defaultValue: false, description: 'Report what the import would do, and store nothing.' }),
    },
    resolve: (_root, args, ctx) => {
      const rows = args.memories.map((m) => ({ ...m, apiKeyId: keyOfRow(ctx.viewer, m.apiKeyId) }));
      if (args.dryRun) return importMemories(ctx.services, rows, canSee(ctx), { dryRun: true });
      return audited(ctx, importAudit(rows), () => importMemories(ctx.services, rows, canSee(ctx)));
    },
  }),
}));
