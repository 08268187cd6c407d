import type { Db } from '../db/open.ts';
import { countTokens } from '../tokenCount.ts';
import { digest, injectedTokens, summaryLineTokens, summaryMetadata } from './digest.ts';
import { deleteVersions } from './history.repository.ts';
import { rowToMemory } from './memory.ts';
import * as repo from './summary.repository.ts';

/**
 * Keeps every summary true to the originals it archived. Triggers queue a summary when one of its originals is
 * deleted or brought back; the write that did it calls this before it commits, so the deleted text leaves the
 * summary in the same transaction. A summary is rebuilt from the originals that remain; when none remain, or the
 * rebuilt digest would not be smaller than they are, they come back and the summary is removed.
 * Given a transaction, it works in it; given the database, it opens one only when something is queued (a write that
 * is one statement, such as an upsert, need not become a transaction for the rare case that it brought a memory
 * back). The queue is durable: should the process stop in between, the next write that changes or deletes a memory, or
 * the purge pass, does it.
 */
export async function rebuildStaleSummaries(db: Db): Promise<void> {
  if (!db.isTransaction) {
    if ((await repo.staleSummaryIds(db)).length > 0) await db.transaction().execute(rebuildStaleSummaries);
    return;
  }
  const ids = await repo.staleSummaryIds(db);
  if (ids.length === 0) return;
  for (const id of ids) {
    const summary = await repo.findSummaryRow(db, id);
    if (summary) await rebuild(db, summary.pk, summary.id);
  }
  // Bringing originals back and removing summaries queued the same ids again: they are done.
  await repo.forgetStaleSummaries(db, ids);
}

async function rebuild(trx: Db, pk: number, id: string) {
  const remaining = (await repo.originalsOf(trx, id)).map(rowToMemory);
  const { content, covered } = digest(remaining);
  if (covered.length === 0 || summaryLineTokens(content) >= injectedTokens(covered)) {
    await repo.unarchive(trx, id);
    await repo.deleteSummaryRow(trx, pk);
    return;
  }
  const kept = new Set(covered.map((m) => m.pk));
  await repo.unarchive(
    trx,
    id,
    remaining.filter((m) => !kept.has(m.pk)).map((m) => m.pk),
  );
  await repo.rewriteSummary(trx, pk, { content, tokens: countTokens(content), metadata: summaryMetadata(covered) });
  // A summary's history is derived text: its old versions may quote the original that was just deleted.
  await deleteVersions(trx, pk);
}
