import type { AuditAction } from '../generated/graphql';

/** What each audited action is called on screen; typed over the schema's enum, so a new action cannot be missed. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  SETTINGS_UPDATE: 'Settings changed',
  PROVIDER_UPSERT: 'Provider saved',
  PROVIDER_DELETE: 'Provider deleted',
  QDRANT_SETTINGS_UPDATE: 'Qdrant settings changed',
  QDRANT_CLEANUP: 'Qdrant cleaned up',
  TOKEN_CREATE: 'Token minted',
  TOKEN_REVOKE: 'Token revoked',
  MEMORIES_CLEAR: 'Memories cleared',
  MEMORIES_IMPORT: 'Memories imported',
  MEMORIES_EXPORT: 'Memories exported',
  MEMORIES_SUMMARIZE: 'Memories compacted',
  SUMMARY_RESTORE: 'Summary restored',
  MEMORY_REVERT: 'Memory reverted to a version',
  MEMORY_SUPERSEDE: 'Memory superseded',
  MEMORY_RESTORE: 'Superseded memory restored',
  API_KEY_FORGET: 'API key forgotten',
  MEMORIES_PURGE: 'Memories purged',
  REINDEX_START: 'Reindex started',
  REINDEX_CANCEL: 'Reindex cancelled',
  DATABASE_BACKUP: 'Database backed up',
  DATABASE_RESTORE: 'Database restored',
  AUDIT_PURGE: 'Audit log purged',
};

export const isAuditAction = (v: string): v is AuditAction => Object.hasOwn(ACTION_LABELS, v);

/** The actors that are not tokens, by the ids the audit log gives them. */
export const BUILT_IN_ACTORS: readonly { id: string; label: string }[] = [
  { id: 'env', label: 'Admin token from MNEMO_ADMIN_TOKEN' },
  { id: 'cli', label: 'Command line (mnemo …)' },
  { id: 'system', label: 'mnemo itself (purges, jobs)' },
];
