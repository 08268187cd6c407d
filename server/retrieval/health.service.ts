import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { searchWords } from '../db/searchWords.ts';
import { freeDiskBytes, probeCommit } from '../db/storageProbe.ts';
import { type StoreKind, storeDialect } from '../db/storeDialect.ts';
import { storageFault } from '../db/storeErrors.ts';
import { DomainError, type DomainErrorCode } from '../errors.ts';
import * as memoryRepo from '../memory/memory.repository.ts';
import * as retrievalRepo from './retrieval.repository.ts';

export interface HealthCheck {
  name: 'create' | 'read' | 'search' | 'delete' | 'commit' | 'disk';
  ok: boolean;
  latencyMs: number;
}

export interface HealthReport {
  /** The store the checks ran on. */
  store: StoreKind;
  ok: boolean;
  latencyMs: number;
  error: string | null;
  /** STORAGE_FULL or STORAGE_ERROR when the storage under the database is at fault, UNAVAILABLE when it cannot be reached. */
  errorCode: Extract<DomainErrorCode, 'STORAGE_FULL' | 'STORAGE_ERROR' | 'UNAVAILABLE'> | null;
  checks: HealthCheck[];
  checkedAt: Date;
}

/** Less free space than this on the database's disk fails the check: the next write that grows the log fails. */
export const MIN_FREE_DISK_BYTES = 64 * 1024;

/** Thrown to end the probe's transaction: rolling back is what guarantees the round trip leaves no trace. */
class ProbeRollback extends Error {}

class CheckFailed extends Error {}

/**
 * A real create, read, keyword search and delete of a memory through the same repository code the API uses, inside a
 * transaction that is always rolled back (no row, index entry or counter survives it); then a write that is committed
 * to a scratch table and deleted (it proves that writes reach the disk, which a rolled-back one cannot), and the free
 * space on the database's disk.
 */
export async function checkMemoryHealth(deps: { db: Db; now: () => number }): Promise<HealthReport> {
  const { db, now } = deps;
  const checks: HealthCheck[] = [];
  const started = performance.now();
  const step = async (name: HealthCheck['name'], run: () => Promise<boolean>) => {
    const t = performance.now();
    let ok = false;
    try {
      ok = await run();
    } finally {
      checks.push({ name, ok, latencyMs: performance.now() - t });
    }
    if (!ok) throw new CheckFailed(`${name} check failed`);
  };
  let failure: unknown = null;
  try {
    await roundTrip(db, now(), step);
    await step('commit', async () => {
      await probeCommit(db, now());
      return true;
    });
    await step('disk', async () => {
      const free = await freeDiskBytes(db);
      if (free !== null && free < MIN_FREE_DISK_BYTES) {
        throw new DomainError('STORAGE_FULL', `the disk of the database is full (${Math.floor(free / 1024)} KiB free): free space on it`);
      }
      return true;
    });
  } catch (e) {
    failure = e;
  }
  const fault = failure instanceof DomainError ? failure : storageFault(failure);
  return {
    store: storeDialect(db).kind,
    ok: failure === null,
    latencyMs: performance.now() - started,
    error: failure === null ? null : (fault?.message ?? (failure instanceof Error ? failure.message : String(failure))),
    errorCode: (fault?.code as HealthReport['errorCode'] | undefined) ?? null,
    checks,
    checkedAt: new Date(now()),
  };
}

async function roundTrip(db: Db, now: number, step: (name: HealthCheck['name'], run: () => Promise<boolean>) => Promise<void>) {
  try {
    await db.transaction().execute(async (trx) => {
      const marker = `healthprobe${randomUUID().replaceAll('-', '')}`;
      const apiKeyId = `__health__${randomUUID()}`;
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
          valid_from: now,
        });
        ({ pk, id } = row);
        return true;
      });
      await step('read', async () => (await memoryRepo.findMemoryRowById(trx, id))?.pk === pk);
      await step('search', async () => {
        const scope = { apiKeyId, sessionId: null, types: null, now, retentionCutoff: 0 };
        const hits = await retrievalRepo.keywordCandidates(trx, scope, searchWords(marker), 1);
        return hits.rows[0]?.pk === pk;
      });
      await step('delete', async () => {
        await memoryRepo.deleteMemoryRow(trx, pk);
        return (await memoryRepo.findMemoryRowById(trx, id)) === undefined;
      });
      throw new ProbeRollback();
    });
  } catch (e) {
    if (!(e instanceof ProbeRollback)) throw e;
  }
}
