import { DAY_MS, retentionCutoff, type Settings } from '../settings/settings.service.ts';
import type { PurgeCutoffs } from './purge.repository.ts';

/** When the purge deletes a memory: one rule, seen from the purge (cutoffs) and from the memories (due time). */

export type PurgeSettings = Pick<Settings, 'retentionDays' | 'retentionEnabled' | 'purgeGraceDays'>;

/** The purge deletes a memory purgeGraceDays after it expired or left the retention window. */
export function purgeCutoffs(now: number, settings: PurgeSettings): PurgeCutoffs {
  const grace = settings.purgeGraceDays * DAY_MS;
  return {
    expiredBefore: now - grace,
    writtenBefore: settings.retentionEnabled ? retentionCutoff(now, settings) - grace : null,
  };
}

/**
 * When the purge may delete a memory (the same rule as purgeCutoffs, seen from the memory): grace days after it
 * expires or leaves the retention window, whichever comes first; null when neither ever happens. Given the earliest
 * expiry and last write of a set of memories, the set's first.
 */
export function purgeDueAt(m: { expiresAt: number | null; updatedAt: number | null }, settings: PurgeSettings): number | null {
  const grace = settings.purgeGraceDays * DAY_MS;
  const dues = [
    m.expiresAt === null ? null : m.expiresAt + grace,
    m.updatedAt === null || !settings.retentionEnabled ? null : m.updatedAt + settings.retentionDays * DAY_MS + grace,
  ].filter((t) => t !== null);
  return dues.length > 0 ? Math.min(...dues) : null;
}
