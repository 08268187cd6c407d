import { pseudonymiseApiKey } from '../audit/audit.service.ts';
import { afterErase } from '../db/maintenance.ts';
import { forbidden } from '../errors.ts';
import { apiKeyIdSchema, parseInput } from '../validation.ts';
import { outboxEnabled } from '../vector/qdrant.repository.ts';
import { countVectorsOfKey } from '../vector/sqliteVec.repository.ts';
import { DELETE_BATCH_SIZE, deleteInBatches } from './batchedDelete.ts';
import * as repo from './forget.repository.ts';
import type { KeyGuard, MemoryDeps } from './memory.service.ts';
import { deleteTombstonesOfKey } from './tombstone.repository.ts';

/** What forgetting a key removed. */
export interface ForgetReport {
  apiKeyId: string;
  /** Its memories (active, expired and out of retention), summaries and archived originals not included. */
  memories: number;
  /** Originals that a summary had archived. */
  archivedOriginals: number;
  summaries: number;
  /** Rows removed from the keyword index: one per memory, summary and original, with the key's own terms. */
  keywordEntries: number;
  /** Vectors removed from sqlite-vec. */
  vectors: number;
  /** Removals of its points queued for Qdrant (one per row, while Qdrant is the vector store); the worker sends them. */
  qdrantDeletesQueued: number;
  /** Retrievals its statistics counted, removed with its memory count. */
  retrievals: number;
  /** Days of extraction model usage counted against its daily token budget. */
  extractionModelUsageDays: number;
  /** Entries of the injection log (receipts of its past injections). */
  injectionLogEntries: number;
  /** Tombstones of its deleted memories. */
  tombstones: number;
  /** Evaluation sets, with their questions and runs. */
  evaluationSets: number;
  /** The pseudonym the audit log names the key by from now on ('forgotten:<uuid>'): the key's id leaves it too. */
  auditApiKeyId: string;
  /** Whether the write-ahead log was emptied at once (false: another process was reading it; the hourly maintenance does it). */
  walEmptied: boolean;
}

/**
 * Erases every trace of one API key: its memories, archived originals and summaries, with their keyword entries
 * (removed from the index's segments), vectors, access counters and reindex flags (columns of the rows), queued Qdrant
 * removals, its per-key memory count, retrieval statistics, extraction model usage, injection log, tombstones and evaluation sets; then the counts not yet written are dropped and the
 * write-ahead log is emptied; the audit log keeps its entries about the key under a pseudonym. The rows go in batches (batchedDelete.ts): a key of 100,000 memories must not hold every
 * request for minutes. Rows the gateway writes for the key meanwhile go too, and count as memories. Access tokens bound
 * to the key are left alone: they are credentials, not memories (revoke them to stop the key being used again).
 * A plain function returning what it did.
 */
export async function forgetApiKey(deps: MemoryDeps, apiKeyId: string, mayForget: KeyGuard): Promise<ForgetReport> {
  const key = parseInput(apiKeyIdSchema, apiKeyId);
  if (!mayForget(key)) {
    throw forbidden(`this token may not forget API key "${key}": only admins, and gateway tokens bound to it and minted with mayForgetKey`);
  }
  // Counts recorded so far are written now, and removed with the rest.
  await deps.access.flush();
  const start = await deps.db.transaction().execute(async (trx) => {
    // A write first, so the transaction waits for another process's write lock instead of failing at once.
    const retrievals = await repo.deleteRetrievalStats(trx, key);
    return { retrievals, vectors: await countVectorsOfKey(trx, key), qdrantQueued: await outboxEnabled(trx) };
  });
  const removed = { rows: 0, archived: 0, summaries: 0 };
  await deleteInBatches(
    deps.db,
    { size: DELETE_BATCH_SIZE },
    (trx) => repo.deleteKeyBatch(trx, key, DELETE_BATCH_SIZE),
    (b) => b.rows,
    (b) => {
      removed.rows += b.rows;
      removed.archived += b.archived;
      removed.summaries += b.summaries;
    },
  );
  await repo.deleteMemoryCount(deps.db, key);
  await repo.deleteKeywordTraces(deps.db, key);
  const extractionModelUsageDays = await repo.deleteExtractionModelUsage(deps.db, key);
  const injectionLogEntries = await repo.deleteInjectionLog(deps.db, key);
  // After the memories: none of them leaves a tombstone (deleteKeyBatch records none), and a key erased leaves nothing.
  const tombstones = await deleteTombstonesOfKey(deps.db, key);
  const evaluationSets = await repo.deleteEvaluationSets(deps.db, key);
  deps.access.discard(key);
  // Before the log is emptied: its frames hold the entries' pages as they were, key and all.
  const auditApiKeyId = await pseudonymiseApiKey(deps, key);
  return {
    apiKeyId: key,
    memories: removed.rows - removed.archived - removed.summaries,
    archivedOriginals: removed.archived,
    summaries: removed.summaries,
    keywordEntries: removed.rows,
    vectors: start.vectors,
    qdrantDeletesQueued: start.qdrantQueued ? removed.rows : 0,
    retrievals: start.retrievals,
    extractionModelUsageDays,
    injectionLogEntries,
    tombstones,
    evaluationSets,
    auditApiKeyId,
    walEmptied: await afterErase(deps.db),
  };
}
