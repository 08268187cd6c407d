import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';
import type { MemoryDeps } from '../memory/memory.service.ts';
import { compactOldMemories, defaultOlderThanDays } from '../memory/summary.service.ts';
import type { Leases } from './lease.ts';

/** Bounds one pass: a few keys at a time, and only keys where compaction saves something real. */
const PASS = { minCandidates: 20, maxKeys: 10 };
const HOUR_MS = 3_600_000;

/**
 * One pass of automatic compaction, when `autoSummarize` is on: memories in the older half of the
 * retention window are summarized per key (the newer half stays as it is, so recent detail is kept).
 * `after` is where the previous pass stopped: keys are visited in turn, so keys that refuse never starve the others.
 */
export async function autoSummarizeOnce(deps: MemoryDeps, after: string | null = null) {
  const settings = await deps.settings.get();
  if (!settings.autoSummarize) return null;
  const olderThanDays = defaultOlderThanDays(settings);
  const pass = await compactOldMemories(deps, { olderThanDays, ...PASS, after });
  for (const { apiKeyId, ...done } of pass.results) {
    deps.logger?.info({ apiKeyId, ...done, olderThanDays }, 'auto-summarized old memories');
    await recordAudit(deps, { actor: SYSTEM_ACTOR, action: 'MEMORIES_SUMMARIZE', apiKeyId, target: { ...done, olderThanDays } });
  }
  return pass;
}

/**
 * Runs a pass every interval until stopped, where the auto-summarize lease is held (one process among those sharing the
 * database); never keeps the process alive, never overlaps itself.
 */
export function startAutoSummarize(deps: MemoryDeps & { leases: Leases }, intervalMs = HOUR_MS): () => void {
  let running = false;
  let after: string | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deps.leases
      .whenHeld('auto-summarize', () => autoSummarizeOnce(deps, after))
      .then((pass) => {
        after = pass?.next ?? null;
      })
      .catch((err: unknown) => deps.logger?.error({ err }, 'auto-summarize pass failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
