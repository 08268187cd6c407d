import type { AccessTokenService } from '../auth/accessToken.service.ts';
import type { Viewer } from '../auth/viewer.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { ENV_ADMIN_TOKEN_ID } from '../requestScope.ts';
import { type AuditAction, type AuditActor, type AuditDeps, type AuditTarget, fieldChanges, recordAudit } from './audit.service.ts';
import type { Snapshot } from './snapshots.ts';

/** The caller of an audited action, as a GraphQL resolver or an MCP tool has it: who, and the request's id and log. */
export interface AuditContext {
  viewer: Pick<Viewer, 'tokenId'>;
  services: AuditDeps & { tokens: Pick<AccessTokenService, 'nameOf'> };
  requestId: string;
  log: Logger;
}

/** What a resolver (or a tool) records about the action it runs. */
export interface Audited<T> {
  action: AuditAction;
  apiKeyId?: string | null;
  target?: AuditTarget;
  /** The state before and after the action, for field-level changes (settings, a provider, Qdrant). */
  snapshot?: Snapshot;
  /** What the result adds: the ids and counts of what was done, or the API key it turned out to concern. */
  describe?: (result: T) => { target?: AuditTarget; apiKeyId?: string | null };
}

/**
 * Runs an admin-level action and appends its entry to the audit log: who (the token, by id and name), the
 * request id, the action, its target and field changes, and how it ended (OK, or the error code it failed with,
 * before the error goes on to the caller). An entry that cannot be written is logged, never fails the action.
 */
export async function audited<T>(ctx: AuditContext, what: Audited<T>, run: () => Promise<T>): Promise<T> {
  const before = what.snapshot ? await what.snapshot.take() : null;
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await record(ctx, what, { outcome: outcomeOf(error) });
    throw error;
  }
  const changes = what.snapshot ? fieldChanges(before, await what.snapshot.take(), what.snapshot.secrets) : null;
  await record(ctx, what, { ...what.describe?.(result), changes, outcome: 'OK' });
  return result;
}

/** The caller as the audit log names it: its token's id and name ('env' for MNEMO_ADMIN_TOKEN, which has no row). */
export async function auditActor(ctx: AuditContext): Promise<AuditActor> {
  const { tokenId } = ctx.viewer;
  if (tokenId === null) return { id: ENV_ADMIN_TOKEN_ID, name: 'MNEMO_ADMIN_TOKEN' };
  return { id: tokenId, name: (await ctx.services.tokens.nameOf(tokenId)) ?? tokenId };
}

async function record<T>(
  ctx: AuditContext,
  what: Audited<T>,
  details: { target?: AuditTarget; apiKeyId?: string | null; changes?: ReturnType<typeof fieldChanges> | null; outcome: string },
) {
  try {
    await recordAudit(ctx.services, {
      actor: await auditActor(ctx),
      action: what.action,
      requestId: ctx.requestId,
      apiKeyId: details.apiKeyId ?? what.apiKeyId ?? null,
      target: what.target || details.target ? { ...what.target, ...details.target } : null,
      changes: details.changes,
      outcome: details.outcome,
    });
  } catch (err) {
    ctx.log.error({ err, action: what.action }, 'the audit entry could not be written');
  }
}

/** The code the action failed with, as the caller sees it for domain errors; SQLite's own code for a storage fault. */
function outcomeOf(error: unknown): string {
  if (error instanceof DomainError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z_]{1,39}$/.test(code) ? code : 'INTERNAL_SERVER_ERROR';
}
