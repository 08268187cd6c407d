import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import type { AuditLogRow } from '../db/schema.ts';
import { redactSecrets } from '../redact.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { apiKeyIdSchema, identifier, limitSchema, offsetSchema, parseInput } from '../validation.ts';
import * as repo from './audit.repository.ts';

/** Every admin-level action the audit log records. */
export const AUDIT_ACTIONS = [
  'SETTINGS_UPDATE',
  'PROVIDER_UPSERT',
  'PROVIDER_DELETE',
  'QDRANT_SETTINGS_UPDATE',
  'QDRANT_CLEANUP',
  'TOKEN_CREATE',
  'TOKEN_REVOKE',
  'MEMORIES_CLEAR',
  'MEMORIES_IMPORT',
  'MEMORIES_EXPORT',
  'MEMORIES_SUMMARIZE',
  'SUMMARY_RESTORE',
  'MEMORY_REVERT',
  'MEMORY_SUPERSEDE',
  'MEMORY_RESTORE',
  'API_KEY_FORGET',
  'MEMORIES_PURGE',
  'REINDEX_START',
  'REINDEX_CANCEL',
  'DATABASE_BACKUP',
  'DATABASE_RESTORE',
  'AUDIT_PURGE',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a token (its id, or 'env' for MNEMO_ADMIN_TOKEN, and its name), the CLI, or mnemo itself. */
export interface AuditActor {
  id: string;
  name: string;
}
export const CLI_ACTOR: AuditActor = { id: 'cli', name: 'cli' };
export const SYSTEM_ACTOR: AuditActor = { id: 'system', name: 'system' };

export type AuditValue = string | number | boolean | null | AuditValue[] | { [field: string]: AuditValue };

/** What an action was done to: ids and counts, never memory text. */
export type AuditTarget = Record<string, AuditValue>;

/** A secret's change, the only thing the log says about it. */
export type SecretChange = 'SET' | 'CHANGED' | 'REMOVED';

/** One field of a settings-like change: its value before and after, or for a secret only how it changed. */
export type AuditChange = { field: string; before: AuditValue; after: AuditValue } | { field: string; secret: SecretChange };

export interface AuditEntryInput {
  actor: AuditActor;
  action: AuditAction;
  /** The request that did it (x-request-id), when it came over HTTP. */
  requestId?: string | null;
  /** The API key acted on, when one. */
  apiKeyId?: string | null;
  target?: AuditTarget | null;
  changes?: readonly AuditChange[] | null;
  /** 'OK' (the default), or the error code the action ended with. */
  outcome?: string;
}

export interface AuditEntry {
  id: string;
  at: Date;
  actor: AuditActor;
  requestId: string | null;
  action: AuditAction;
  apiKeyId: string | null;
  target: AuditTarget | null;
  changes: AuditChange[];
  outcome: string;
}

export interface AuditDeps {
  db: Db;
  /** The clock entries are stamped with: the services' clock. */
  now: () => number;
}

/** Memory ids a target lists at most; beyond that it gives the count alone. */
export const TARGET_IDS_MAX = 100;

/** Ids for a target: all of them when few, else the first TARGET_IDS_MAX (the target also carries the count). */
export const someIds = (ids: readonly string[]) => ids.slice(0, TARGET_IDS_MAX);

/**
 * Appends one entry to the audit log. The one way to record an admin-level action: the GraphQL layer calls it
 * through `audited` (audit/audited.ts), the CLI and background jobs directly, with CLI_ACTOR or SYSTEM_ACTOR.
 */
export async function recordAudit(deps: AuditDeps, entry: AuditEntryInput): Promise<AuditEntry> {
  const [recorded] = await recordAudits(deps, [entry]);
  return recorded!;
}

/** Appends entries to the audit log in the order given, in one statement: the actions of one write. */
export async function recordAudits(deps: AuditDeps, entries: readonly AuditEntryInput[]): Promise<AuditEntry[]> {
  if (entries.length === 0) return [];
  const at = deps.now();
  const rows = await repo.insertAuditRows(
    deps.db,
    entries.map((entry) => ({
      at,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      request_id: entry.requestId ?? null,
      action: entry.action,
      api_key_id: entry.apiKeyId ?? null,
      target: entry.target ? JSON.stringify(entry.target) : null,
      changes: entry.changes?.length ? JSON.stringify(entry.changes) : null,
      outcome: entry.outcome ?? 'OK',
    })),
  );
  return rows.map(toEntry);
}

/**
 * A forgotten API key leaves the audit log: its entries name it by a new pseudonym ('forgotten:<uuid>') from now on,
 * so who did what and when stays on record while the key itself is gone (forgetApiKey promises every trace). Random,
 * not a hash: a hash of a short key id could be matched back to it by trying names. Returns the pseudonym.
 */
export async function pseudonymiseApiKey(deps: AuditDeps, apiKeyId: string): Promise<string> {
  const pseudonym = `forgotten:${randomUUID()}`;
  await repo.renameAuditApiKey(deps.db, apiKeyId, pseudonym);
  return pseudonym;
}

/**
 * The fields that differ between two states of a thing (settings, a provider, the Qdrant connection; null when it
 * did not exist). Fields named in `secrets` are reported only as SET, CHANGED or REMOVED: their values never
 * reach the log, and are compared here only.
 */
export function fieldChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  secrets: readonly string[] = [],
): AuditChange[] {
  const changes: AuditChange[] = [];
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of fields) {
    const was = before?.[field] ?? null;
    const is = after?.[field] ?? null;
    if (secrets.includes(field)) {
      if (was !== is) changes.push({ field, secret: was === null ? 'SET' : is === null ? 'REMOVED' : 'CHANGED' });
    } else if (JSON.stringify(was) !== JSON.stringify(is)) {
      changes.push({ field, before: asValue(was), after: asValue(is) });
    }
  }
  return changes;
}

/** A value as JSON has it (dates as ISO strings); strings go through the redactor, as anything that leaves the process. */
function asValue(value: unknown): AuditValue {
  const json = JSON.parse(JSON.stringify(value ?? null)) as AuditValue;
  return typeof json === 'string' ? redactSecrets(json) : json;
}

const actionSchema = z.enum(AUDIT_ACTIONS, { error: 'action is not an audit action' });
const filterSchema = z.object({
  action: actionSchema.nullish(),
  actor: identifier('actor').nullish(),
  apiKeyId: apiKeyIdSchema.nullish(),
  since: z.date().nullish(),
  until: z.date().nullish(),
});
export type AuditQuery = z.input<typeof filterSchema>;

function toFilter(query: AuditQuery): repo.AuditFilter {
  const f = parseInput(filterSchema, query);
  return { action: f.action, actorId: f.actor, apiKeyId: f.apiKeyId, since: f.since?.getTime(), until: f.until?.getTime() };
}

/** A page of the audit log, newest first, with how many entries match in all. */
export async function auditLog(deps: AuditDeps, query: AuditQuery, page: { limit?: number | null; offset?: number | null } = {}) {
  const filter = toFilter(query);
  const { limit, offset } = parseInput(z.object({ limit: limitSchema, offset: offsetSchema }), {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
  const [rows, totalCount] = await Promise.all([
    repo.listAuditRows(deps.db, filter, { limit, offset }),
    repo.countAuditRows(deps.db, filter),
  ]);
  return { items: rows.map(toEntry), totalCount, offset };
}

/** Every matching entry, oldest first (for `mnemo audit export`). */
export async function* exportAudit(deps: AuditDeps, query: AuditQuery): AsyncGenerator<AuditEntry> {
  for await (const row of repo.streamAuditRows(deps.db, toFilter(query))) yield toEntry(row);
}

/**
 * Deletes the entries older than the auditRetentionDays setting and records that it did (as the system), when it
 * deleted any. Returns how many it deleted.
 */
export async function purgeAudit(deps: AuditDeps & { settings: SettingsService }): Promise<number> {
  const { auditRetentionDays } = await deps.settings.get();
  const before = deps.now() - auditRetentionDays * 86_400_000;
  const deleted = await repo.deleteAuditRowsBefore(deps.db, before);
  if (deleted > 0) {
    await recordAudit(deps, {
      actor: SYSTEM_ACTOR,
      action: 'AUDIT_PURGE',
      target: { deleted, before: new Date(before).toISOString(), retentionDays: auditRetentionDays },
    });
  }
  return deleted;
}

function toEntry(row: AuditLogRow): AuditEntry {
  return {
    id: String(row.id),
    at: new Date(row.at),
    actor: { id: row.actor_id, name: row.actor_name },
    requestId: row.request_id,
    action: row.action as AuditAction,
    apiKeyId: row.api_key_id,
    target: row.target === null ? null : (JSON.parse(row.target) as AuditTarget),
    changes: row.changes === null ? [] : (JSON.parse(row.changes) as AuditChange[]),
    outcome: row.outcome,
  };
}
