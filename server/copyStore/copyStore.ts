import type { Db } from '../db/open.ts';
import * as repo from './copyStore.repository.ts';
import { COPIED_TABLES, type CopiedTable } from './copyStore.repository.ts';

/** Rows per batch: one read from SQLite and one transaction on PostgreSQL; memory use stays flat at any size. */
export const COPY_BATCH_SIZE = 500;

export interface CopyProgress {
  table: string;
  /** Rows of this table in the target so far, earlier runs included. */
  copied: number;
  /** Rows of this table in the source. */
  total: number;
  /** The same over every table. */
  copiedAll: number;
  totalAll: number;
}

/** One line of the check at the end: rows in the source and in the target. */
export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyOutcome {
  /** When the copy into this target began: earlier than this run when it continued an interrupted one. */
  startedAt: number;
  /** This run continued a copy of the same source that an earlier run began. */
  resumed: boolean;
  /** Rows written by this run. */
  copied: number;
  counts: TableCount[];
  /** Every count matches; only then is the copy recorded as finished. */
  complete: boolean;
  /** Memories waiting for the reindex job to embed them (vectors are not copied). */
  memoriesToReindex: number;
}

export type CopyRefusal = 'no-source' | 'other-data' | 'unreachable';

/** The copy cannot start: why (`reason`), in words a user acts on. */
export class CopyStoreError extends Error {
  constructor(
    readonly reason: CopyRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface CopyStoreInput {
  /** The SQLite store, migrated, not served while this runs. */
  source: Db;
  /** The PostgreSQL store, migrated. */
  target: Db;
  /** The source's database file, recorded in the target and named in messages. */
  sourceName: string;
  batchSize?: number;
  now?: () => number;
  /** Called after each batch is committed; a throw stops the copy there (the next run continues after that batch). */
  onProgress?: (p: CopyProgress) => void;
}

/**
 * Copies every table of a SQLite store into a PostgreSQL one (COPIED_TABLES), keys included, in batches of one
 * transaction each, then compares the counts. The resume point of each table (its last copied key, in the source's
 * order) is written in the same transaction as the batch, so a run killed at any instant leaves whole batches and a
 * resume point that names exactly the last one: the next run continues after it, with no row twice and none lost.
 * Derived data is the target's own: its triggers count memories per key and index their words as the rows arrive;
 * vectors are not copied, and every memory is flagged for the reindex job.
 */
export async function copyStore(input: CopyStoreInput): Promise<CopyOutcome> {
  const { source, target } = input;
  const now = input.now ?? Date.now;
  const size = input.batchSize ?? COPY_BATCH_SIZE;
  const sourceId = await sourceIdentity(source);
  const earlier = await repo.readStoreCopy(target);
  if (!earlier) await refuseUnlessEmpty(target);
  const copy = await repo.claimStoreCopy(target, { sourceId, source: input.sourceName, now: now() });
  if (copy.source_id !== sourceId) {
    throw new CopyStoreError(
      'other-data',
      `the target holds a copy of another mnemo installation (${copy.source}, ${copy.source_id}, begun ${new Date(copy.started_at).toISOString()}); ` +
        'copy into an empty database',
    );
  }

  const totals = new Map<string, number>();
  for (const t of COPIED_TABLES) totals.set(t.table, await repo.countRows(source, t));
  const totalAll = [...totals.values()].reduce((a, b) => a + b, 0);
  const done = new Map<string, number>();
  for (const t of COPIED_TABLES) done.set(t.table, (await repo.progressOf(target, t.table))?.copied ?? 0);
  const copiedAll = () => [...done.values()].reduce((a, b) => a + b, 0);

  let copiedNow = 0;
  for (const t of COPIED_TABLES) {
    const columns = await copiedColumns(source, target, t);
    for (;;) {
      const copied = await copyBatch(source, target, t, columns, size);
      if (copied === null) break;
      copiedNow += copied.rows;
      done.set(t.table, copied.total);
      input.onProgress?.({ table: t.table, copied: copied.total, total: totals.get(t.table)!, copiedAll: copiedAll(), totalAll });
    }
    if (t.identity) await repo.moveIdentityPast(target, t, await repo.sourceSequence(source, t.table));
  }
  await repo.writeOutboxFlag(target, await repo.readOutboxFlag(source));

  const counts = await compareCounts(source, target);
  const complete = counts.every((c) => c.source === c.target);
  if (complete) await repo.finishStoreCopy(target, now());
  return {
    startedAt: copy.started_at,
    resumed: earlier !== undefined,
    copied: copiedNow,
    counts,
    complete,
    memoriesToReindex: await repo.memoriesToReindex(target),
  };
}

/**
 * What names a SQLite installation across runs: the instant its first migration ran, recorded by the migrator when
 * the database was created and never changed (a restored backup keeps it, another installation has its own).
 */
export async function sourceIdentity(source: Db): Promise<string> {
  return `sqlite installation created ${await repo.sourceCreatedAt(source)}`;
}

/** A target with rows that no copy of ours wrote (another mnemo ran on it, or a hand-made import) is left alone. */
async function refuseUnlessEmpty(target: Db) {
  const holding: string[] = [];
  for (const t of COPIED_TABLES) if (await repo.hasRows(target, t.table)) holding.push(t.table);
  if (holding.length > 0) {
    throw new CopyStoreError(
      'other-data',
      `the target already holds data that is not a copy of this source (in ${holding.join(', ')}); ` +
        'copy into an empty database: mnemo does not merge two installations',
    );
  }
}

/** The columns to copy: the target's (less those it computes), each of which the source must have, and vice versa. */
async function copiedColumns(source: Db, target: Db, t: CopiedTable): Promise<string[]> {
  const into = await repo.targetColumns(target, t.table);
  const from = new Set(await repo.sourceColumns(source, t.table));
  const lost = [...from].filter((c) => !into.includes(c));
  if (lost.length > 0)
    throw new Error(`the target's ${t.table} has no column for the source's ${lost.join(', ')}: its schema is not this mnemo's`);
  return into.filter((c) => from.has(c));
}

/** Copies the next batch of a table in one target transaction; null when the table is done. */
async function copyBatch(source: Db, target: Db, t: CopiedTable, columns: string[], size: number) {
  return target.transaction().execute(async (trx) => {
    const progress = await repo.lockProgress(trx, t.table);
    const after = progress.last_key === null ? null : (JSON.parse(progress.last_key) as string | number);
    const rows = await repo.readBatch(source, t, columns, after, size);
    if (rows.length === 0) return null;
    try {
      await repo.insertRows(trx, t, columns, rows);
    } catch (error) {
      // Which rows, so that the user can look at them: PostgreSQL refuses some text SQLite keeps (a NUL character).
      const range = `${t.key} ${String(rows[0]![t.key])} to ${String(rows.at(-1)![t.key])}`;
      throw new Error(`PostgreSQL refused the ${t.table} rows with ${range}: ${(error as Error).message}`, { cause: error });
    }
    const total = progress.copied + rows.length;
    await repo.saveProgress(trx, t.table, { lastKey: JSON.stringify(rows.at(-1)![t.key]), copied: total });
    return { rows: rows.length, total };
  });
}

/** Rows per copied table on both sides, and the target's memory_counts (kept by its trigger) against the source's. */
async function compareCounts(source: Db, target: Db): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const t of COPIED_TABLES) {
    counts.push({ table: t.table, source: await repo.countRows(source, t), target: await repo.countRows(target, t) });
  }
  const [from, into] = [await repo.memoryCountsSummary(source), await repo.memoryCountsSummary(target)];
  counts.push({ table: 'memory_counts (keys)', source: from.keys, target: into.keys });
  counts.push({ table: 'memory_counts (memories)', source: from.memories, target: into.memories });
  return counts;
}
