import type { MemoryDeps } from '../memory/memory.service.ts';
import { compactOldMemories } from '../memory/summarization.ts';

/** Bounds one pass: a few keys at a time, and only keys where compaction saves something real. */
const PASS = { minCandidates: 20, maxKeys: 10 };
const HOUR_MS = 3_600_000;

/**
 * One pass of automatic compaction, when `autoSummarize` is on: memories in the older half of the
 * retention window are summarized per key (the newer half stays as it is, so recent detail is kept).
 */
export async function autoSummarizeOnce(deps: MemoryDeps) {
  const settings = await deps.settings.get();
  if (!settings.autoSummarize) return null;
  const olderThanDays = Math.max(1, Math.floor(settings.retentionDays / 2));
  const results = await compactOldMemories(deps, { olderThanDays, ...PASS });
  for (const r of results) deps.logger?.info({ ...r, olderThanDays }, 'auto-summarized old memories');
  return results;
}

/** Runs a pass every interval until stopped; never keeps the process alive, never overlaps itself. */
export function startAutoSummarize(deps: MemoryDeps, intervalMs = HOUR_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    autoSummarizeOnce(deps)
      .catch((err: unknown) => deps.logger?.error({ err }, 'auto-summarize pass failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
