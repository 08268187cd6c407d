import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { notFound } from '../errors.ts';
import { DAY_MS, retentionCutoff, type Settings } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import { apiKeyIdSchema, olderThanDaysSchema, parseInput } from '../validation.ts';
import { digest, injectedTokens, SUMMARY_KEY_PREFIX, SUMMARY_TYPE, summaryLineTokens, summaryMetadata } from './digest.ts';
import type { KeyGuard, MemoryDeps } from './memory.service.ts';
import { type Memory, rowToMemory } from './memory.ts';
import * as repo from './summary.repository.ts';

const inputSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  olderThanDays: olderThanDaysSchema.nullish(),
  dryRun: z.boolean(),
});

/** One session's memories (or the key-wide ones, sessionId null) and the summary they become, or why not. */
export interface SummaryGroup {
  sessionId: string | null;
  /** The memories of this scope that are (or would be) archived; when refused, the ones that were weighed. */
  candidates: Memory[];
  /** What the candidates cost in the injected block: each one's line. */
  tokensBefore: number;
  /** What the summary's line costs (or would). */
  summaryTokens: number;
  /** What the scope costs after the run: summaryTokens when compacted, tokensBefore when refused. */
  tokensAfter: number;
  tokensSaved: number;
  /** Why this scope is not compacted; null when it is (or would be). */
  refusedReason: string | null;
  /** The summary written by a real run. */
  summary: Memory | null;
}

export interface SummaryOutcome {
  dryRun: boolean;
  /** The cut-off used: the one asked for, or half the retention window. */
  olderThanDays: number;
  groups: SummaryGroup[];
  /** The memories that are (or would be) archived, over every group that compacts. */
  candidates: Memory[];
  tokensBefore: number;
  tokensAfter: number;
  tokensSaved: number;
  summaries: Memory[];
  /** Why nothing is compacted; null when some group is. */
  refusedReason: string | null;
}

/** The default cut-off: memories in the older half of the retention window, as the auto pass compacts. */
export function defaultOlderThanDays(settings: Pick<Settings, 'retentionDays'>): number {
  return Math.max(1, Math.floor(settings.retentionDays / 2));
}

/**
 * Compacts one API key's older memories, one summary per session (and one for the key-wide memories), so a session
 * never sees another session's text through a summary. The originals are archived (kept, never retrieved) in the same
 * transaction, and `restoreSummary` brings them back. A summary that would cost no less than the memories it replaces
 * is refused: the dry run says so, and a real run archives nothing of that scope.
 */
export async function summarize(deps: MemoryDeps, raw: z.input<typeof inputSchema>): Promise<SummaryOutcome> {
  const input = parseInput(inputSchema, raw);
  // A run that lost a race (see writeSummaries) wrote nothing; planning again sees what the other run left.
  for (let attempt = 1; ; attempt++) {
    try {
      return await summarizeOnce(deps, input);
    } catch (e) {
      if (!(e instanceof repo.SummaryConflict) || attempt >= 3) throw e;
    }
  }
}

async function summarizeOnce(deps: MemoryDeps, input: z.output<typeof inputSchema>): Promise<SummaryOutcome> {
  const now = deps.now();
  const settings = await deps.settings.get();
  const olderThanDays = input.olderThanDays ?? defaultOlderThanDays(settings);
  const writtenBefore = now - olderThanDays * DAY_MS;
  const rows = await repo.summaryCandidates(deps.db, {
    apiKeyId: input.apiKeyId,
    writtenBefore,
    now,
    retentionCutoff: retentionCutoff(now, settings),
  });
  const groups = bySession(rows.map(rowToMemory)).map(plan);
  const compacting = groups.filter((g) => g.refusedReason === null);
  if (!input.dryRun && compacting.length > 0) {
    const written = await repo.writeSummaries(deps.db, {
      summaries: compacting.map((g) => ({ summary: summaryRow(input.apiKeyId, g, now), archivedPks: g.candidates.map((m) => m.pk) })),
      writtenBefore,
    });
    compacting.forEach((g, i) => {
      g.summary = rowToMemory(written[i]!);
    });
  }
  const sum = (f: (g: SummaryGroup) => number) => compacting.reduce((n, g) => n + f(g), 0);
  return {
    dryRun: input.dryRun,
    olderThanDays,
    groups: groups.map(({ content: _, ...g }) => g),
    candidates: compacting.flatMap((g) => g.candidates),
    tokensBefore: sum((g) => g.tokensBefore),
    tokensAfter: sum((g) => g.tokensAfter),
    tokensSaved: sum((g) => g.tokensSaved),
    summaries: compacting.flatMap((g) => (g.summary ? [g.summary] : [])),
    refusedReason:
      compacting.length > 0
        ? null
        : groups.length === 0
          ? `no memory of this key was last written more than ${olderThanDays} days ago`
          : groups.map((g) => `${g.sessionId === null ? 'key-wide memories' : `session ${g.sessionId}`}: ${g.refusedReason}`).join('; '),
  };
}

type PlannedGroup = SummaryGroup & { content: string };

function bySession(memories: Memory[]): Memory[][] {
  const groups = new Map<string | null, Memory[]>();
  for (const m of memories) {
    const group = groups.get(m.sessionId);
    if (group) group.push(m);
    else groups.set(m.sessionId, [m]);
  }
  return [...groups.values()];
}

function plan(memories: Memory[]): PlannedGroup {
  const sessionId = memories[0]!.sessionId;
  const { content, covered } = digest(memories);
  const tokensBefore = injectedTokens(covered);
  const summaryTokens = covered.length > 0 ? summaryLineTokens(content) : 0;
  const refuse = (reason: string): PlannedGroup => ({
    sessionId,
    candidates: covered,
    tokensBefore,
    summaryTokens,
    tokensAfter: tokensBefore,
    tokensSaved: 0,
    refusedReason: reason,
    summary: null,
    content,
  });
  // One memory is not worth a summary: it would cost about as much as it saves.
  if (covered.length < 2) return refuse('a summary needs at least two memories');
  if (summaryTokens >= tokensBefore) {
    return refuse(
      `the summary (${summaryTokens} tokens) would not be smaller than the ${covered.length} memories it replaces (${tokensBefore} tokens)`,
    );
  }
  return {
    sessionId,
    candidates: covered,
    tokensBefore,
    summaryTokens,
    tokensAfter: summaryTokens,
    tokensSaved: tokensBefore - summaryTokens,
    refusedReason: null,
    summary: null,
    content,
  };
}

function summaryRow(apiKeyId: string, g: PlannedGroup, now: number) {
  return {
    id: randomUUID(),
    api_key_id: apiKeyId,
    session_id: g.sessionId,
    type: SUMMARY_TYPE,
    key: `${SUMMARY_KEY_PREFIX}${randomUUID()}`,
    content: g.content,
    metadata: summaryMetadata(g.candidates),
    tokens: countTokens(g.content),
    created_at: now,
    updated_at: now,
    expires_at: null,
    valid_from: now,
  };
}

/** Undoes a summary: its originals become active again and the summary memory is removed. */
export async function restoreSummary(
  deps: MemoryDeps,
  summaryId: string,
  canSee: KeyGuard,
): Promise<{ restored: number; summary: Memory }> {
  const row = await repo.findSummaryRow(deps.db, summaryId);
  if (!row || !canSee(row.api_key_id)) throw notFound(`no summary with id ${summaryId}`);
  const restored = await repo.undoSummary(deps.db, row.pk, row.id);
  return { restored, summary: rowToMemory(row) };
}

/** Keys weighed per pass at most: refused keys are skipped, not counted, so a pass must stop somewhere. */
const MAX_KEYS_SCANNED = 100;

/**
 * Compacts up to `maxKeys` keys with enough old memories, in key order from `after`; for autoSummarize. A key whose
 * summaries would not be smaller is skipped (nothing of it is archived) and the next one is tried. Returns what was
 * compacted and where the next pass goes on (null: the end was reached; start again from the first key).
 */
export async function compactOldMemories(
  deps: MemoryDeps,
  opts: { olderThanDays: number; minCandidates: number; maxKeys: number; after?: string | null },
) {
  const now = deps.now();
  const settings = await deps.settings.get();
  const results: { apiKeyId: string; archived: number; tokensSaved: number }[] = [];
  let after = opts.after ?? null;
  for (let scanned = 0; results.length < opts.maxKeys && scanned < MAX_KEYS_SCANNED; ) {
    const keys = await repo.keysWithOldMemories(deps.db, {
      writtenBefore: now - opts.olderThanDays * DAY_MS,
      now,
      retentionCutoff: retentionCutoff(now, settings),
      minCount: opts.minCandidates,
      after,
      limit: opts.maxKeys,
    });
    if (keys.length === 0) return { results, next: null };
    for (const apiKeyId of keys) {
      scanned++;
      after = apiKeyId;
      const outcome = await summarize(deps, { apiKeyId, olderThanDays: opts.olderThanDays, dryRun: false });
      if (outcome.summaries.length > 0) {
        results.push({ apiKeyId, archived: outcome.candidates.length, tokensSaved: outcome.tokensSaved });
        if (results.length >= opts.maxKeys) break;
      }
    }
  }
  return { results, next: after };
}
