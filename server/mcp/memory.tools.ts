import { z } from 'zod';
import { exactlyOneKey, mayUseKey, oneKeyOrAll } from '../auth/viewer.ts';
import { authorOf } from '../memory/change.ts';
import { memoryHistory as historyOf } from '../memory/history.service.ts';
import * as memories from '../memory/memory.service.ts';
import { MEMORY_TYPES, type Memory, type MemoryStatus, memoryContentSchema, memoryKeySchema } from '../memory/memory.ts';
import { auditedBy, clearMemoriesAudited } from '../memory/memoryAudit.ts';
import type { Services } from '../services.ts';
import {
  apiKeyIdSchema,
  dateTimeSchema,
  LIMITS,
  limitSchema,
  metadataSchema,
  offsetSchema,
  rangeText,
  sessionIdSchema,
} from '../validation.ts';
import { defineTool, READS, type ToolContext, WRITES } from './tool.ts';

/** The argument every tool that acts on one key takes; exactlyOneKey or oneKeyOrAll decide what it means. */
export const apiKeyIdArg = apiKeyIdSchema
  .optional()
  .describe('The API key (tenant) whose memories to use. Leave it out when your token is bound to one key; an admin token must name it.');
export const sessionIdArg = sessionIdSchema.describe('A conversation or session id.');
export const memoryTypeArg = z
  .enum(MEMORY_TYPES)
  .describe(
    'factual: a fact about the user or the world; episodic: something that happened; procedural: how to do something; semantic: general knowledge; enforced: injected into every retrieval.',
  );
const idArg = z.string().describe('The id of the memory (a UUID, as returned by the other tools).');
const isoInstant = z.iso.datetime({ offset: true }).describe('ISO 8601');

/** Why search and extract do nothing while memory is off: a disabled memory says so, never just answers empty. */
export const MEMORY_OFF =
  'memory is switched off in the settings (enabled: false); an admin turns it on with updateMemorySettings(input: { enabled: true }).';

const MEMORY_STATUSES = ['active', 'expired', 'out_of_retention', 'archived', 'superseded'] as const satisfies readonly MemoryStatus[];

export const memoryOutput = z.object({
  id: z.string(),
  apiKeyId: z.string(),
  sessionId: z.string().nullable(),
  type: z.enum(MEMORY_TYPES),
  key: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  tokens: z.int().describe('Tokens of the content (o200k_base).'),
  createdAt: isoInstant,
  updatedAt: isoInstant,
  expiresAt: isoInstant.nullable(),
  accessCount: z.int(),
  lastAccessedAt: isoInstant.nullable(),
  validFrom: isoInstant.describe('When the fact started to hold.'),
  validTo: isoInstant.nullable().describe('When it stopped holding; null while it is current.'),
  supersededBy: z.string().nullable().describe('The id of the memory that replaced it, if one did.'),
  status: z
    .enum(MEMORY_STATUSES)
    .describe('Only active memories are retrieved; expired, out-of-retention, archived and superseded ones are kept but never injected.'),
});

/** A memory as the tools return it: the fields of GraphQL's Memory that a model can use, dates as ISO strings. */
export async function memoryJson(services: Services, m: Memory): Promise<z.input<typeof memoryOutput>> {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: m.id,
    apiKeyId: m.apiKeyId,
    sessionId: m.sessionId,
    type: m.type,
    key: m.key,
    content: m.content,
    metadata: m.metadata,
    tokens: m.tokens,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    expiresAt: iso(m.expiresAt),
    accessCount: m.accessCount,
    lastAccessedAt: iso(m.lastAccessedAt),
    validFrom: m.validFrom.toISOString(),
    validTo: iso(m.validTo),
    supersededBy: m.supersededBy,
    status: await memories.currentStatus(services, m),
  };
}

const canSee = (ctx: ToolContext) => (apiKeyId: string) => mayUseKey(ctx.viewer, apiKeyId);
const oneMemory = z.object({ memory: memoryOutput });

export const memoryList = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description:
    'Lists stored memories, newest first, to review or curate them (not for answering a question: use memory_search for that). Filters combine; page with limit and offset.',
  input: z.strictObject({
    apiKeyId: apiKeyIdArg,
    sessionId: sessionIdArg.optional(),
    type: memoryTypeArg.optional(),
    search: z.string().optional().describe('Words that must all appear in the content or key; the last one may be a prefix.'),
    limit: limitSchema.optional().describe(`Page size, ${rangeText(limitSchema)} (default 20).`),
    offset: offsetSchema.optional().describe('Memories to skip (default 0).'),
    includeExpired: z.boolean().optional().describe('Also list expired and out-of-retention memories.'),
    includeArchived: z.boolean().optional().describe('Also list memories archived by a summary.'),
    includeSuperseded: z.boolean().optional().describe('Also list memories that no longer hold (superseded by a newer one).'),
    source: z
      .enum(['FACTS', 'TURNS', 'ALL'])
      .optional()
      .describe('TURNS: captured chat messages only; FACTS: every other memory; ALL (default): both.'),
  }),
  output: z.object({ memories: z.array(memoryOutput), totalCount: z.int(), hasMore: z.boolean() }),
  annotations: READS,
  run: async (args, ctx) => {
    const query = {
      apiKeyId: oneKeyOrAll(ctx.viewer, args.apiKeyId),
      sessionId: args.sessionId,
      types: args.type ? [args.type] : null,
      search: args.search,
      includeExpired: args.includeExpired,
      includeArchived: args.includeArchived,
      includeSuperseded: args.includeSuperseded,
      source: args.source,
    };
    const page = await memories.listMemories(ctx.services, query, { limit: args.limit, offset: args.offset });
    const offset = args.offset ?? 0;
    return {
      structured: {
        memories: await Promise.all(page.items.map((m) => memoryJson(ctx.services, m))),
        totalCount: page.totalCount,
        hasMore: offset + page.items.length < page.totalCount,
      },
    };
  },
});

export const memoryGet = defineTool({
  name: 'memory_get',
  title: 'Get a memory',
  description: 'Reads one memory by its id, with its metadata, status and access count.',
  input: z.strictObject({ id: idArg }),
  output: oneMemory,
  annotations: READS,
  run: async (args, ctx) => ({
    structured: { memory: await memoryJson(ctx.services, await memories.requireMemory(ctx.services, args.id, canSee(ctx))) },
  }),
});

export const memoryAdd = defineTool({
  name: 'memory_add',
  title: 'Add or replace a memory',
  description:
    'Stores a memory under a key of your choice (for example "preferred-editor"). A memory that already has this key is replaced: its content and type are overwritten and the metadata is merged. Store one durable fact per key, in a sentence that makes sense on its own. With memory switched off it is stored all the same, but not retrieved, and the answer says so.',
  input: z.strictObject({
    apiKeyId: apiKeyIdArg,
    sessionId: sessionIdArg.optional().describe('Confine the memory to one session; leave it out for a key-wide memory.'),
    type: memoryTypeArg,
    key: memoryKeySchema.describe('The upsert key within the API key: the same key replaces the memory stored under it.'),
    content: memoryContentSchema.describe(`The text to remember, at most ${LIMITS.contentChars} characters.`),
    metadata: metadataSchema
      .optional()
      .describe(
        `A JSON object (at most ${LIMITS.metadataBytes} bytes as JSON), merged shallowly into the metadata of the memory it replaces.`,
      ),
    expiresAt: dateTimeSchema
      .optional()
      .describe('When the memory stops being retrieved, as an ISO 8601 date-time (2026-01-31T12:00:00Z).'),
    supersedes: z
      .array(idArg)
      .max(LIMITS.supersedesIds)
      .optional()
      .describe(
        'Ids of memories this one replaces (a fact that changed): they stop being retrieved, and are kept with the reason; an admin can undo it.',
      ),
  }),
  output: oneMemory.extend({
    disabled: z
      .boolean()
      .describe('Memory is switched off in the settings: the memory is stored, but memory_search and the gateway do not return it.'),
    reason: z.string().nullable().describe('What storing it did not do, and why; null when memory is on.'),
    outcome: z
      .enum(['created', 'updated', 'merged'])
      .describe(
        "created: a new memory; updated: the one under this key, rewritten; merged: a memory under another key said the same in other words, so this was merged into it (returned), and its wording is in that memory's history.",
      ),
  }),
  annotations: WRITES,
  run: async ({ supersedes, ...args }, ctx) => {
    const input = { ...args, apiKeyId: exactlyOneKey(ctx.viewer, args.apiKeyId) };
    const memory = await memories.createMemory(
      ctx.services,
      input,
      { by: authorOf(ctx.viewer), why: 'memory_add' },
      { supersedes, by: await auditedBy(ctx) },
    );
    const disabled = await memories.memoryDisabled(ctx.services);
    return {
      structured: {
        memory: await memoryJson(ctx.services, memory),
        disabled,
        reason: disabled ? `Stored, but nothing will retrieve it yet: ${MEMORY_OFF}` : null,
        outcome: memory.outcome,
      },
    };
  },
});

export const memoryHistory = defineTool({
  name: 'memory_history',
  title: 'History of a memory',
  description:
    'The earlier versions of one memory, newest first: what it said and over which time it held before each change (a supersession and its undo included), and when, by whom and why it changed. Empty for a memory never changed.',
  input: z.strictObject({ id: idArg }),
  output: z.object({
    versions: z.array(
      z.object({
        version: z.int(),
        content: z.string(),
        type: z.enum(MEMORY_TYPES),
        metadata: z.record(z.string(), z.unknown()),
        expiresAt: isoInstant.nullable(),
        validFrom: isoInstant
          .nullable()
          .describe('When it held from, as this version; null on versions kept before validity was recorded.'),
        validTo: isoInstant.nullable().describe('When it stopped holding, as this version; null: it was current.'),
        supersededBy: z.string().nullable().describe('The id of the memory that had superseded it, as this version.'),
        changedAt: isoInstant,
        changedBy: z.string().describe('An access token id, or "admin", "extraction", "import", "system".'),
        reason: z
          .string()
          .describe('Why it changed: the operation, "revert to version N", "merged paraphrase", "superseded (rule)", "restored"…'),
      }),
    ),
  }),
  annotations: READS,
  run: async (args, ctx) => {
    const versions = await historyOf(ctx.services, args.id, canSee(ctx));
    return {
      structured: {
        versions: versions.map((v) => ({
          ...v,
          expiresAt: v.expiresAt?.toISOString() ?? null,
          validFrom: v.validFrom?.toISOString() ?? null,
          validTo: v.validTo?.toISOString() ?? null,
          changedAt: v.changedAt.toISOString(),
        })),
      },
    };
  },
});

export const memoryUpdate = defineTool({
  name: 'memory_update',
  title: 'Edit a memory',
  description: 'Changes fields of one memory by its id; fields left out stay as they are. metadata replaces the whole object.',
  input: z.strictObject({
    id: idArg,
    sessionId: sessionIdArg.nullable().optional().describe('Move the memory to this session; null makes it key-wide.'),
    type: memoryTypeArg.optional(),
    key: memoryKeySchema.optional().describe('A new key; refused when another memory of the API key has it.'),
    content: memoryContentSchema.optional(),
    metadata: metadataSchema.optional(),
    expiresAt: dateTimeSchema.nullable().optional().describe('A new expiry as an ISO 8601 date-time; null: never expires.'),
  }),
  output: oneMemory,
  annotations: WRITES,
  run: async ({ id, ...patch }, ctx) => {
    const memory = await memories.updateMemory(ctx.services, id, patch, canSee(ctx), { by: authorOf(ctx.viewer), why: 'memory_update' });
    return { structured: { memory: await memoryJson(ctx.services, memory) } };
  },
});

export const memoryDelete = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory',
  description: 'Deletes one memory by its id, for good (summaries that covered it are rebuilt without it). Returns it as it was.',
  input: z.strictObject({ id: idArg }),
  output: z.object({ deleted: memoryOutput }),
  annotations: WRITES,
  run: async (args, ctx) => ({
    structured: {
      deleted: await memoryJson(ctx.services, await memories.deleteMemory(ctx.services, args.id, canSee(ctx), authorOf(ctx.viewer))),
    },
  }),
});

export const memoryClear = defineTool({
  name: 'memory_clear',
  title: 'Clear memories',
  description:
    'Deletes, for good, every memory of one API key, or only those of one type, or only those created before a date. Returns how many were removed. Use memory_delete to remove a single memory.',
  input: z.strictObject({
    apiKeyId: apiKeyIdArg,
    type: memoryTypeArg.optional().describe('Only memories of this type.'),
    olderThan: dateTimeSchema.optional().describe('Only memories created before this ISO 8601 date-time.'),
  }),
  output: z.object({ apiKeyId: z.string(), removed: z.int().describe('How many memories were deleted.') }),
  annotations: WRITES,
  run: async (args, ctx) => {
    const request = { apiKeyId: args.apiKeyId, types: args.type ? [args.type] : null, createdBefore: args.olderThan };
    return { structured: await clearMemoriesAudited(ctx, request) };
  },
});
