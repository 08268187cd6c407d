import type { MemoryInput } from '../memory/memory.ts';
import type { RestoredMemory, RestoredTombstone } from '../memory/restore.service.ts';

/** The memory systems `mnemo import --from` reads, and mnemo's own line formats. */
export const IMPORT_FORMATS = ['omniroute', 'mem0', 'letta', 'jsonl', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * Where a row came from in its file, for the report ("line 12", "memory 3 (id …)", "block human of agent a1"), and
 * what it is: a memory (with, when the source has them, its history and its id there, which supersession links name),
 * a tombstone of a memory deleted there (mnemo's bundle), or a problem.
 */
export type SourceRow =
  | { at: string; input: MemoryInput; restore?: RestoredMemory; sourceId?: string }
  | { at: string; tombstone: RestoredTombstone }
  | { at: string; problem: string };

/** How rows of a source that has no API keys or sessions of mnemo's own are placed. */
export interface Placement {
  /** The API key every row goes to (letta, and mem0 without --key-from); a source's own field otherwise. */
  apiKeyId: string | null;
  /** mem0: the field that names the API key (user_id, agent_id or run_id). */
  keyFrom: Mem0Field | null;
  /** mem0: the field that names the session, or none: the memories are key-wide. */
  sessionFrom: Mem0Field | null;
}

export const MEM0_FIELDS = ['user_id', 'agent_id', 'run_id'] as const;
export type Mem0Field = (typeof MEM0_FIELDS)[number];

/** Reads a file of one format as memory inputs, one at a time, so a large file is never held whole. */
export type SourceReader = (file: string, placement: Placement) => AsyncIterable<SourceRow>;

/**
 * A source's time as a Date, or a problem: ISO 8601 text (a time without a zone is UTC, as SQLite's datetime()
 * writes it), or epoch milliseconds. Null and absent stay null.
 */
export function sourceTime(value: unknown, field: string): { ok: true; date: Date | null } | { ok: false; problem: string } {
  if (value === null || value === undefined || value === '') return { ok: true, date: null };
  const date =
    typeof value === 'number'
      ? new Date(value)
      : typeof value === 'string'
        ? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`)
        : null;
  if (date === null || Number.isNaN(date.getTime())) return { ok: false, problem: `${field} is not a time: ${JSON.stringify(value)}` };
  return { ok: true, date };
}

/** A JSON object kept as text in a source (metadata columns), or a problem; null and empty text are {}. */
export function sourceObject(
  value: unknown,
  field: string,
): { ok: true; object: Record<string, unknown> } | { ok: false; problem: string } {
  if (value === null || value === undefined || value === '') return { ok: true, object: {} };
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { ok: false, problem: `${field} is not JSON` };
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, problem: `${field} is not a JSON object` };
  return { ok: true, object: parsed as Record<string, unknown> };
}
