import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { notFound } from '../errors.ts';
import { parseInput } from '../validation.ts';
import type { KeyGuard, MemoryDeps } from './memory.service.ts';
import { type Memory, retentionCutoff, rowToMemory } from './memory.ts';
import * as repo from './summary.repository.ts';
import { countTokens, truncateToTokens } from './tokenCount.ts';

export const SUMMARY_KEY_PREFIX = 'summary:';
/** A summary is a digest, not a copy: long enough to carry the gist of many memories, short enough to inject. */
const SUMMARY_MAX_TOKENS = 1500;
const LINE_MAX_TOKENS = 120;
const DAY_MS = 86_400_000;

const inputSchema = z.object({
  apiKeyId: z.string().trim().min(1, 'apiKeyId must not be empty').max(256),
  olderThanDays: z
    .number()
    .int('olderThanDays must be a whole number')
    .min(0, 'olderThanDays must be at least 0')
    .max(3650, 'olderThanDays must be at most 3650'),
  dryRun: z.boolean(),
});

export interface SummaryOutcome {
  dryRun: boolean;
  candidates: Memory[];
  tokensBefore: number;
  tokensAfter: number;
  tokensSaved: number;
  /** The summary written by a real run; null on a dry run or when there was nothing to compact. */
  summary: Memory | null;
}

/**
 * Compacts one API key's older memories into one summary memory. The originals are archived (kept,
 * never retrieved) in the same transaction, and `restoreSummary` brings them back; nothing is deleted.
 */
export async function summarize(deps: MemoryDeps, raw: z.input<typeof inputSchema>): Promise<SummaryOutcome> {
  const input = parseInput(inputSchema, raw);
  // A run that lost a race (see writeSummary) wrote nothing; planning again sees what the other run left.
  for (let attempt = 1; ; attempt++) {
    try {
      return await summarizeOnce(deps, input);
    } catch (e) {
      if (!(e instanceof repo.SummaryConflict) || attempt >= 3) throw e;
    }
  }
}

async function summarizeOnce(deps: MemoryDeps, input: z.output<typeof inputSchema>): Promise<SummaryOutcome> {
  const now = (deps.now ?? Date.now)();
  const { retentionDays } = await deps.settings.get();
  const writtenBefore = now - input.olderThanDays * DAY_MS;
  const rows = await repo.summaryCandidates(deps.db, {
    apiKeyId: input.apiKeyId,
    writtenBefore,
    now,
    retentionCutoff: retentionCutoff(now, retentionDays),
  });
  const { content, covered: candidates } = summaryText(rows.map(rowToMemory));
  const tokensBefore = candidates.reduce((n, m) => n + m.tokens, 0);
  const tokensAfter = countTokens(content);
  const nothing = { dryRun: input.dryRun, candidates, tokensBefore, tokensAfter: tokensBefore, tokensSaved: 0, summary: null };
  // One memory is not worth a summary: it would cost about as much as it saves.
  if (candidates.length < 2) return nothing;
  const outcome = {
    dryRun: input.dryRun,
    candidates,
    tokensBefore,
    tokensAfter,
    tokensSaved: Math.max(0, tokensBefore - tokensAfter),
    summary: null,
  };
  if (input.dryRun) return outcome;
  const row = await repo.writeSummary(deps.db, {
    summary: {
      id: randomUUID(),
      api_key_id: input.apiKeyId,
      session_id: null,
      type: 'semantic',
      key: `${SUMMARY_KEY_PREFIX}${randomUUID()}`,
      content,
      metadata: JSON.stringify({ summary: { count: candidates.length, from: oldest(candidates), to: newest(candidates) } }),
      tokens: tokensAfter,
      created_at: now,
      updated_at: now,
      expires_at: null,
    },
    archivedPks: candidates.map((m) => m.pk),
    writtenBefore,
  });
  return { ...outcome, summary: rowToMemory(row) };
}

/** Undoes a summary: its originals become active again and the summary memory is removed. */
export async function restoreSummary(
  deps: MemoryDeps,
  summaryId: string,
  canSee: KeyGuard,
): Promise<{ restored: number; summary: Memory }> {
  const row = await repo.findSummaryRow(deps.db, summaryId, SUMMARY_KEY_PREFIX);
  if (!row || !canSee(row.api_key_id)) throw notFound(`no summary with id ${summaryId}`);
  const restored = await repo.undoSummary(deps.db, row.pk, row.id);
  return { restored, summary: rowToMemory(row) };
}

/** Finds the keys with enough old memories and compacts a bounded number of them; for autoSummarize. */
export async function compactOldMemories(deps: MemoryDeps, opts: { olderThanDays: number; minCandidates: number; maxKeys: number }) {
  const now = (deps.now ?? Date.now)();
  const { retentionDays } = await deps.settings.get();
  const keys = await repo.keysWithOldMemories(deps.db, {
    writtenBefore: now - opts.olderThanDays * DAY_MS,
    now,
    retentionCutoff: retentionCutoff(now, retentionDays),
    minCount: opts.minCandidates,
    limit: opts.maxKeys,
  });
  const results: { apiKeyId: string; archived: number; tokensSaved: number }[] = [];
  for (const apiKeyId of keys) {
    const outcome = await summarize(deps, { apiKeyId, olderThanDays: opts.olderThanDays, dryRun: false });
    results.push({ apiKeyId, archived: outcome.summary ? outcome.candidates.length : 0, tokensSaved: outcome.tokensSaved });
  }
  return results;
}

/**
 * An extractive digest: one line per distinct fact, grouped by type, most used first, within a token cap.
 * Returns the memories it covers: only those are archived, so a fact that did not fit stays retrievable.
 */
function summaryText(memories: Memory[]): { content: string; covered: Memory[] } {
  if (memories.length === 0) return { content: '', covered: [] };
  const headerFor = (n: number, ms: Memory[]) =>
    `Summary of ${n} earlier memories (${oldest(ms).slice(0, 10)} to ${newest(ms).slice(0, 10)}):`;
  const lines: string[] = [];
  const lineOf = new Map<string, boolean>();
  const covered: Memory[] = [];
  // Budgeted against the longest header this run could print, so the final one always fits.
  let used = countTokens(headerFor(memories.length, memories));
  const ordered = [...memories].sort(
    (a, b) => a.type.localeCompare(b.type) || b.accessCount - a.accessCount || b.updatedAt.getTime() - a.updatedAt.getTime(),
  );
  for (const m of ordered) {
    const text = m.content.replace(/\s+/g, ' ').trim();
    const norm = text.toLowerCase();
    if (!lineOf.has(norm)) {
      const line = `- [${m.type}] ${truncateToTokens(text, LINE_MAX_TOKENS)}`;
      const cost = countTokens(line) + 1;
      const fits = used + cost <= SUMMARY_MAX_TOKENS;
      lineOf.set(norm, fits);
      if (fits) {
        lines.push(line);
        used += cost;
      }
    }
    if (lineOf.get(norm)) covered.push(m);
  }
  if (covered.length === 0) return { content: '', covered };
  return { content: [headerFor(covered.length, covered), ...lines].join('\n'), covered };
}

const oldest = (ms: Memory[]) => new Date(Math.min(...ms.map((m) => m.createdAt.getTime()))).toISOString();
const newest = (ms: Memory[]) => new Date(Math.max(...ms.map((m) => m.updatedAt.getTime()))).toISOString();
