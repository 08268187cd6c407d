import type { ImportMemoriesMutation, MemoryInput } from '../generated/graphql';
import { isMemoryType, MEMORY_TYPES } from './types';

export type Rejection = ImportMemoriesMutation['importMemories']['rejected'][number];

export interface ParsedImport {
  /** Rows that may be sent, each with its position in the file. */
  rows: { index: number; input: MemoryInput }[];
  /** Rows refused before sending: GraphQL would refuse the whole batch for one of them. */
  rejected: Rejection[];
  total: number;
}

/** The server's DateTime form: one row's bad date would make GraphQL refuse its whole batch (see toMemoryInput). */
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads an export file (an object with a "memories" array) or a plain JSON array of memories. Throws when
 * the file as a whole is unusable; a bad row only rejects that row.
 */
export function parseImportFile(text: string): ParsedImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`The file is not valid JSON (${e instanceof Error ? e.message : String(e)}).`);
  }
  const list = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.memories) ? data.memories : null;
  if (!list) throw new Error('Expected an export file (an object with a "memories" array) or a JSON array of memories.');
  const parsed: ParsedImport = { rows: [], rejected: [], total: list.length };
  list.forEach((raw: unknown, index) => {
    const row = toMemoryInput(raw);
    if (typeof row === 'string')
      parsed.rejected.push({ index, key: isObject(raw) && typeof raw.key === 'string' ? raw.key : null, reason: row });
    else parsed.rows.push({ index, input: row });
  });
  return parsed;
}

/**
 * The fields importMemories takes, with their GraphQL types checked (other fields, id, tokens, status…, are ignored);
 * the reason on failure. Only the types: what the server checks of a well-typed row (empty content, lengths, dates out
 * of its range) comes back as that row's rejection in its report, while a wrong type makes GraphQL refuse the batch.
 */
function toMemoryInput(raw: unknown): MemoryInput | string {
  if (!isObject(raw)) return 'row is not a JSON object';
  const { apiKeyId, sessionId, type, key, content, metadata, createdAt, expiresAt, validFrom, validTo } = raw;
  if (typeof content !== 'string') return 'content must be a string';
  for (const [name, value] of [
    ['apiKeyId', apiKeyId],
    ['sessionId', sessionId],
    ['key', key],
  ] as const) {
    if (value != null && typeof value !== 'string') return `${name} must be a string`;
  }
  const upperType = typeof type === 'string' ? type.toUpperCase() : type;
  if (upperType != null && !isMemoryType(upperType)) return `type must be one of ${MEMORY_TYPES.join(', ')}`;
  if (metadata != null && !isObject(metadata)) return 'metadata must be a JSON object';
  for (const [name, value] of [
    ['createdAt', createdAt],
    ['expiresAt', expiresAt],
    ['validFrom', validFrom],
    ['validTo', validTo],
  ] as const) {
    if (value != null && !isIsoDate(value)) return `${name} must be an ISO 8601 date such as 2026-01-31T12:00:00Z`;
  }
  return {
    apiKeyId: apiKeyId as string | null | undefined,
    sessionId: sessionId as string | null | undefined,
    type: upperType ?? undefined,
    key: key as string | null | undefined,
    content,
    metadata: metadata as Record<string, unknown> | null | undefined,
    createdAt: createdAt as string | null | undefined,
    expiresAt: expiresAt as string | null | undefined,
    validFrom: validFrom as string | null | undefined,
    validTo: validTo as string | null | undefined,
  };
}

function isIsoDate(v: unknown): boolean {
  if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(new Date(v).getTime())) return false;
  // Date rolls impossible days over (Feb 30 becomes Mar 2); the server refuses them.
  const [year, month, day] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
