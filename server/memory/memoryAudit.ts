import { type AuditContext, type Audited, auditActor, audited } from '../audit/audited.ts';
import { exactlyOneKey, mayUseKey, type Viewer } from '../auth/viewer.ts';
import { normaliseIdentifier } from '../validation.ts';
import { authorOf } from './change.ts';
import { revertMemory } from './history.service.ts';
import type { ImportReport } from './import.service.ts';
import { type ClearFilter, clearMemories, type MemoryDeps } from './memory.service.ts';
import type { Memory } from './memory.ts';
import type { AuditBy } from './supersession.service.ts';

/** How the memory writes that callers ask for by hand are recorded in the audit log. */

/** A clear as a caller asks for it: the key it names (none: a bound token's own), and the types and date it keeps to. */
export interface ClearRequest extends Omit<ClearFilter, 'apiKeyId'> {
  apiKeyId?: string | null;
}

/**
 * A caller's clear (GraphQL's clearMemories, MCP's memory_clear), recorded in the audit log. The key is checked against
 * the caller's token inside the recorded action, so a bound token's attempt on another key is on record too: refused
 * (FORBIDDEN), with the key it named. Returns the key cleared and how many memories went.
 */
export function clearMemoriesAudited(
  ctx: AuditContext & { viewer: Viewer; services: MemoryDeps },
  request: ClearRequest,
): Promise<{ apiKeyId: string; removed: number }> {
  const named = request.apiKeyId == null ? ctx.viewer.apiKeyId : normaliseIdentifier(request.apiKeyId);
  const filter = { types: request.types, createdBefore: request.createdBefore };
  const what: Audited<{ removed: number }> = {
    action: 'MEMORIES_CLEAR',
    apiKeyId: named,
    target: { types: filter.types ? [...filter.types] : null, createdBefore: filter.createdBefore?.toISOString() ?? null },
    describe: ({ removed }) => ({ target: { deleted: removed } }),
  };
  return audited(ctx, what, async () => {
    const apiKeyId = exactlyOneKey(ctx.viewer, request.apiKeyId);
    return { apiKeyId, removed: await clearMemories(ctx.services, { ...filter, apiKeyId }, authorOf(ctx.viewer)) };
  });
}

/**
 * How an import is recorded in the audit log, by the keys its rows name: that key when they name one, the count of
 * keys otherwise. A dry run changes nothing and is not recorded.
 */
export function importAudit(rows: readonly { apiKeyId: string }[]): Audited<ImportReport> {
  const keys = new Set(rows.map((r) => r.apiKeyId.trim()));
  return {
    action: 'MEMORIES_IMPORT',
    apiKeyId: keys.size === 1 ? [...keys][0] : null,
    target: { rows: rows.length, apiKeys: keys.size },
    describe: (r) => ({ target: { imported: r.imported, updated: r.updated, merged: r.merged, rejected: r.rejected.length } }),
  };
}

/** The caller of a supersession or its undo (GraphQL's or MCP's), as their audit entries and the memory's history name it. */
export async function auditedBy(ctx: AuditContext): Promise<AuditBy> {
  return { actor: await auditActor(ctx), requestId: ctx.requestId, author: authorOf(ctx.viewer) };
}

/**
 * A caller's revert of a memory to one of its versions (GraphQL's revertMemory), recorded in the audit log with the
 * memory, the version and its key; a memory the caller may not see is NOT_FOUND, and on record as such.
 */
export function revertMemoryAudited(
  ctx: AuditContext & { viewer: Viewer; services: MemoryDeps },
  id: string,
  version: number,
): Promise<Memory> {
  const what: Audited<Memory> = {
    action: 'MEMORY_REVERT',
    target: { memoryId: id, version },
    describe: (m) => ({ apiKeyId: m.apiKeyId }),
  };
  return audited(ctx, what, () => revertMemory(ctx.services, id, version, (k) => mayUseKey(ctx.viewer, k), authorOf(ctx.viewer)));
}
