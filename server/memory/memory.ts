import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { MemoryRow, MemoryTypeValue } from '../db/schema.ts';
import { type RetentionSettings, retentionCutoff } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import {
  apiKeyIdSchema,
  identifier,
  LIMITS,
  memoryDate,
  metadataSchema,
  parseNow,
  pastDate,
  sessionIdSchema,
  text,
} from '../validation.ts';

export const MEMORY_TYPES = ['factual', 'episodic', 'procedural', 'semantic', 'enforced'] as const satisfies readonly MemoryTypeValue[];
export type MemoryType = MemoryTypeValue;

/** What wrote a memory, as a list tells them apart: a captured chat turn, or anything else (facts, hand-written, imported). */
export type MemorySource = 'FACTS' | 'TURNS' | 'ALL';

/** metadata.source of a captured chat turn. */
export const CAPTURE_SOURCE = 'capture';

export type MemoryStatus = 'active' | 'expired' | 'out_of_retention' | 'archived' | 'superseded';

/** A memory as the rest of mnemo sees it: no storage columns, parsed metadata, real dates. */
export interface Memory {
  pk: number;
  id: string;
  apiKeyId: string;
  sessionId: string | null;
  type: MemoryType;
  key: string;
  content: string;
  metadata: Record<string, unknown>;
  tokens: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  pendingReindex: boolean;
  accessCount: number;
  lastAccessedAt: Date | null;
  /** The summary memory that replaced this one; archived memories are kept but never retrieved. */
  archivedBy: string | null;
  /** When the fact started to hold: when it was said, by default when it was written. */
  validFrom: Date;
  /** When it stopped holding; null while it is current. Only current memories are retrieved. */
  validTo: Date | null;
  /** The memory that replaced it (supersession.service.ts), or null. */
  supersededBy: string | null;
  /** How many times the fact was stated: 1, and one more for each paraphrase merged into it (merge.ts). */
  mentions: number;
  /** When a paraphrase was last merged into it; null before the first. */
  lastSeenAt: Date | null;
  /** Set on the memory a write returns: what the write did. */
  outcome?: WriteOutcome;
}

/** What a write did: stored a new memory, rewrote the one under its key, or merged it into one that says the same. */
export type WriteOutcome = 'created' | 'updated' | 'merged';

export function rowToMemory(row: MemoryRow): Memory {
  return {
    pk: row.pk,
    id: row.id,
    apiKeyId: row.api_key_id,
    sessionId: row.session_id,
    type: row.type,
    key: row.key,
    content: row.content,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    tokens: row.tokens,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    pendingReindex: row.needs_reindex === 1,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at === null ? null : new Date(row.last_accessed_at),
    archivedBy: row.archived_by,
    validFrom: new Date(row.valid_from),
    validTo: row.valid_to === null ? null : new Date(row.valid_to),
    supersededBy: row.superseded_by,
    mentions: row.mentions,
    lastSeenAt: row.last_seen_at === null ? null : new Date(row.last_seen_at),
  };
}

/** Whether retrieval may still return the memory: current, not expired and inside the retention window. */
export function memoryStatus(
  m: Pick<Memory, 'expiresAt' | 'updatedAt' | 'archivedBy' | 'validTo'>,
  now: number,
  settings: RetentionSettings,
): MemoryStatus {
  if (m.archivedBy !== null) return 'archived';
  if (m.validTo !== null) return 'superseded';
  if (m.expiresAt !== null && m.expiresAt.getTime() <= now) return 'expired';
  if (m.updatedAt.getTime() < retentionCutoff(now, settings)) return 'out_of_retention';
  return 'active';
}

/** A memory's text: well-formed, not blank, at most LIMITS.contentChars. */
export const memoryContentSchema = text('content')
  .refine((s) => s.trim().length > 0, 'content must not be empty')
  .refine((s) => s.length <= LIMITS.contentChars, `content is longer than ${LIMITS.contentChars} characters`);

/** The upsert key of a memory within its API key. */
export const memoryKeySchema = identifier('key', LIMITS.keyChars);

/**
 * A memory to write, checked against the server's clock (parseInputAt): a createdAt in the future would keep a memory
 * inside the retention window (which counts from its last write) for as long as it likes. validFrom and validTo are
 * refused in the future too, so a current memory is one whose validTo is null: a fact that will only end later is an
 * expiry (expiresAt), and one that holds only from tomorrow is written tomorrow.
 */
export const memoryInputSchema = z
  .object({
    apiKeyId: apiKeyIdSchema,
    sessionId: sessionIdSchema.nullish(),
    type: z
      .enum(MEMORY_TYPES)
      .nullish()
      .transform((t) => t ?? 'factual'),
    key: memoryKeySchema.nullish(),
    content: memoryContentSchema,
    metadata: metadataSchema.nullish(),
    expiresAt: memoryDate('expiresAt').nullish(),
    createdAt: pastDate('createdAt').nullish(),
    validFrom: pastDate('validFrom').nullish(),
    validTo: pastDate('validTo').nullish(),
  })
  .refine((m) => !m.validTo || m.validTo.getTime() >= (m.validFrom ?? m.createdAt ?? new Date(parseNow())).getTime(), {
    message: 'validTo must not be before validFrom',
    path: ['validTo'],
  });
export type MemoryInput = z.input<typeof memoryInputSchema>;
export type ValidMemoryInput = z.output<typeof memoryInputSchema>;

export const memoryPatchSchema = z.object({
  sessionId: sessionIdSchema.nullish(),
  type: z.enum(MEMORY_TYPES).optional(),
  key: memoryKeySchema.optional(),
  content: memoryContentSchema.optional(),
  metadata: metadataSchema.optional(),
  expiresAt: memoryDate('expiresAt').nullish(),
});
export type MemoryPatch = z.input<typeof memoryPatchSchema>;

/** A memory without a key is keyed by its content, so restating the same fact updates it instead of duplicating it. */
export function contentKey(content: string): string {
  const normalised = content.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return `content:${createHash('sha256').update(normalised).digest('hex').slice(0, 24)}`;
}

/**
 * The row a checked memory input is stored as, written at `now` unless it carries its own createdAt, and holding from
 * its validFrom, else from when it was written.
 */
export function memoryRow(m: ValidMemoryInput, now: number) {
  const createdAt = m.createdAt?.getTime() ?? now;
  return {
    id: randomUUID(),
    api_key_id: m.apiKeyId,
    session_id: m.sessionId ?? null,
    type: m.type,
    key: m.key ?? contentKey(m.content),
    content: m.content,
    metadata: JSON.stringify(m.metadata ?? {}),
    tokens: countTokens(m.content),
    created_at: createdAt,
    // An imported memory keeps its age, so retention treats it as written when it was first written.
    updated_at: createdAt,
    expires_at: m.expiresAt?.getTime() ?? null,
    valid_from: m.validFrom?.getTime() ?? createdAt,
    valid_to: m.validTo?.getTime() ?? null,
  };
}
