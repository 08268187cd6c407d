import { z } from 'zod';
import { afterErase } from '../db/maintenance.ts';
import { memoryRowsOfKey } from '../memory/memory.repository.ts';
import { type Memory, rowToMemory } from '../memory/memory.ts';
import { DAY_MS } from '../settings/settings.service.ts';
import { apiKeyIdSchema, LIMITS, parseInput, wholeNumber } from '../validation.ts';
import * as repo from './injectionLog.repository.ts';
import type { Receipt } from './receipt.ts';
import { type ReceiptRecord, receiptRecordSchema, toReceiptRecord } from './receiptRecord.ts';
import type { RetrievalDeps } from './retrieval.ts';

/**
 * The injection log: while the injectionLogDays setting is above 0, each injectMemory's receipt is kept, so what a
 * request got and why can be read after the fact. Bounded twice: entries older than the days go at the purge pass
 * (jobs/purge.ts), and each key keeps its newest LIMITS.injectionLogRows. It names memories by id only; forgetApiKey
 * erases a key's entries with the rest.
 */

/** One logged injection, its receipt's memories resolved to what they are now. */
export interface LoggedInjection {
  id: string;
  at: Date;
  sessionId: string | null;
  /** The query the memories were ranked for, its first LIMITS.injectionLogQueryChars characters. */
  query: string | null;
  receipt: Receipt;
}

export interface InjectionPage {
  items: LoggedInjection[];
  /** Pass as `after` for the next page; null on an empty page. */
  endCursor: string | null;
  hasMore: boolean;
}

export const INJECTION_PAGE_MAX = 100;

/** Keeps one injection's receipt. Fails open: a request is never failed by its log entry; the fault is logged. */
export async function logInjection(
  deps: Pick<RetrievalDeps, 'db' | 'now' | 'logger'>,
  entry: { apiKeyId: string; sessionId: string | null; query: string | null; receipt: Receipt },
): Promise<void> {
  try {
    await repo.insertInjection(
      deps.db,
      {
        api_key_id: entry.apiKeyId,
        session_id: entry.sessionId,
        created_at: deps.now(),
        query: entry.query?.slice(0, LIMITS.injectionLogQueryChars) ?? null,
        receipt: JSON.stringify(toReceiptRecord(entry.receipt)),
      },
      LIMITS.injectionLogRows,
    );
  } catch (error) {
    deps.logger?.error({ err: error, apiKeyId: entry.apiKeyId }, 'keeping the injection in the injection log failed');
  }
}

const pageSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  first: wholeNumber('first', 1, INJECTION_PAGE_MAX),
  after: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, "after must be a page's endCursor")
    .nullish(),
});

/** The key's logged injections, newest first, a page at a time. */
export async function injections(
  deps: Pick<RetrievalDeps, 'db'>,
  request: { apiKeyId: string; first?: number | null; after?: string | null },
): Promise<InjectionPage> {
  const valid = parseInput(pageSchema, { ...request, first: request.first ?? 20 });
  const rows = await repo.injectionRows(deps.db, {
    apiKeyId: valid.apiKeyId,
    before: valid.after ? Number(valid.after) : null,
    limit: valid.first + 1,
  });
  const page = rows.slice(0, valid.first);
  const records = page.map((row) => receiptRecordSchema.parse(JSON.parse(row.receipt)));
  const ids = new Set(records.flatMap((r) => [...r.injected, ...r.leftOut].map((c) => c.memoryId)));
  const live = new Map((await memoryRowsOfKey(deps.db, valid.apiKeyId, [...ids])).map((row) => [row.id, rowToMemory(row)] as const));
  return {
    items: page.map((row, i) => ({
      id: String(row.id),
      at: new Date(row.created_at),
      sessionId: row.session_id,
      query: row.query,
      receipt: fromRecord(records[i]!, live),
    })),
    endCursor: page.length > 0 ? String(page.at(-1)!.id) : null,
    hasMore: rows.length > valid.first,
  };
}

/** Drops the entries older than injectionLogDays (all of them when it is 0); returns how many. */
export async function pruneInjectionLog(deps: Pick<RetrievalDeps, 'db' | 'now' | 'settings'>): Promise<number> {
  const { injectionLogDays } = await deps.settings.get();
  const deleted = await repo.deleteInjectionsBefore(deps.db, deps.now() - injectionLogDays * DAY_MS);
  if (deleted > 0) await afterErase(deps.db);
  return deleted;
}

function fromRecord(record: ReceiptRecord, live: ReadonlyMap<string, Memory>): Receipt {
  const memory = (id: string) => live.get(id) ?? null;
  return {
    ...record,
    injected: record.injected.map((c) => ({ ...c, memory: memory(c.memoryId) })),
    leftOut: record.leftOut.map((c) => ({ ...c, memory: memory(c.memoryId) })),
  };
}
