import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { ftsPhrases } from './ftsQuery.ts';
import * as memoryRepo from './memory.repository.ts';
import * as retrievalRepo from './retrieval.repository.ts';

export interface HealthCheck {
  name: 'create' | 'read' | 'search' | 'delete';
  ok: boolean;
  latencyMs: number;
}

export interface HealthReport {
  ok: boolean;
  latencyMs: number;
  error: string | null;
  checks: HealthCheck[];
  checkedAt: Date;
}

/** Thrown to end the probe's transaction: rolling back is what guarantees the check leaves no trace. */
class ProbeRollback extends Error {}

/**
 * A real create, read, keyword search and delete of a memory through the same repository code the API
 * uses, inside a transaction that is always rolled back: no row, index entry or counter survives it.
 */
export async function checkMemoryHealth(db: Db): Promise<HealthReport> {
  const checks: HealthCheck[] = [];
  const started = performance.now();
  const step = async (name: HealthCheck['name'], run: () => Promise<boolean>) => {
    const t = performance.now();
    const ok = await run();
    checks.push({ name, ok, latencyMs: performance.now() - t });
    if (!ok) throw new Error(`${name} check failed`);
  };
  let error: string | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      const marker = `healthprobe${randomUUID().replaceAll('-', '')}`;
      const apiKeyId = `__health__${randomUUID()}`;
      const now = Date.now();
      let pk = 0;
      let id = '';
      await step('create', async () => {
        const row = await memoryRepo.upsertMemoryRow(trx, {
          id: randomUUID(),
          api_key_id: apiKeyId,
          session_id: null,
          type: 'factual',
          key: marker,
          content: `health probe ${marker}`,
          metadata: '{}',
          tokens: 4,
          created_at: now,
          updated_at: now,
          expires_at: null,
        });
        ({ pk, id } = row);
        return true;
      });
      await step('read', async () => (await memoryRepo.findMemoryRowById(trx, id))?.pk === pk);
      await step('search', async () => {
        const scope = { apiKeyId, sessionId: null, types: null, now, retentionCutoff: 0 };
        const hits = await retrievalRepo.keywordCandidates(trx, scope, ftsPhrases(marker, { apiKeyId }), 1);
        return hits[0]?.pk === pk;
      });
      await step('delete', async () => {
        await memoryRepo.deleteMemoryRow(trx, pk);
        return (await memoryRepo.findMemoryRowById(trx, id)) === undefined;
      });
      throw new ProbeRollback();
    });
  } catch (e) {
    if (!(e instanceof ProbeRollback)) error = e instanceof Error ? e.message : String(e);
  }
  return { ok: error === null, latencyMs: performance.now() - started, error, checks, checkedAt: new Date() };
}
