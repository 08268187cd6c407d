import { countTokens, truncateToTokens } from '../tokenCount.ts';
import { lineTokens } from './blockTokens.ts';
import type { Memory } from './memory.ts';

export const SUMMARY_KEY_PREFIX = 'summary:';
export const SUMMARY_TYPE = 'semantic' as const;
/** A summary is a digest, not a copy: long enough to carry the gist of many memories, short enough to inject. */
const SUMMARY_MAX_TOKENS = 1500;
const ITEM_MAX_TOKENS = 120;

export interface Digest {
  content: string;
  /** The memories it holds: only these are archived, so a fact that did not fit stays retrievable. */
  covered: Memory[];
}

/**
 * An extractive digest: one line per type ("factual: Likes tea; Lives in Lyon"), each distinct fact once, most used
 * first, within a token cap. A memory's own line in the block costs its type label and a line break; in a digest a
 * fact costs one separator, which is where a summary saves tokens (besides repeated facts and very long ones).
 */
export function digest(memories: readonly Memory[]): Digest {
  if (memories.length === 0) return { content: '', covered: [] };
  const header = (ms: readonly Memory[]) => `Summary of ${ms.length} earlier memories (${day(oldest(ms))} to ${day(newest(ms))}):`;
  const byType = new Map<string, string[]>();
  const fits = new Map<string, boolean>();
  const covered: Memory[] = [];
  // Budgeted against the longest header this run could print, so the final one always fits.
  let used = countTokens(header(memories));
  const ordered = [...memories].sort(
    (a, b) => a.type.localeCompare(b.type) || b.accessCount - a.accessCount || b.updatedAt.getTime() - a.updatedAt.getTime(),
  );
  for (const m of ordered) {
    const text = m.content.replace(/\s+/g, ' ').trim();
    const norm = text.toLowerCase();
    if (!fits.has(norm)) {
      const item = truncateToTokens(text, ITEM_MAX_TOKENS);
      const items = byType.get(m.type);
      // A new type line costs its label; every item its separator.
      const cost = countTokens(item) + 1 + (items ? 0 : countTokens(`${m.type}:`) + 1);
      const ok = used + cost <= SUMMARY_MAX_TOKENS;
      fits.set(norm, ok);
      if (ok) {
        if (items) items.push(item);
        else byType.set(m.type, [item]);
        used += cost;
      }
    }
    if (fits.get(norm)) covered.push(m);
  }
  if (covered.length === 0) return { content: '', covered };
  const lines = [...byType].map(([type, items]) => `${type}: ${items.join('; ')}`);
  return { content: [header(covered), ...lines].join('\n'), covered };
}

/** What memories cost in the injected block: each one's line. The figure a summary is weighed by. */
export function injectedTokens(memories: readonly Pick<Memory, 'type' | 'content'>[]): number {
  return memories.reduce((n, m) => n + lineTokens(m), 0);
}

/** The summary's own line in the block. */
export function summaryLineTokens(content: string): number {
  return lineTokens({ type: SUMMARY_TYPE, content });
}

export function summaryMetadata(covered: readonly Memory[]) {
  return JSON.stringify({ summary: { count: covered.length, from: oldest(covered), to: newest(covered) } });
}

const oldest = (ms: readonly Memory[]) => new Date(Math.min(...ms.map((m) => m.createdAt.getTime()))).toISOString();
const newest = (ms: readonly Memory[]) => new Date(Math.max(...ms.map((m) => m.updatedAt.getTime()))).toISOString();
const day = (iso: string) => iso.slice(0, 10);
