import { MEMORY_TYPES, type MemoryInput, type MemoryType } from '../../memory/memory.ts';
import { type SourceRow, sourceObject, sourceTime } from '../sourceRows.ts';

const TIMES = ['createdAt', 'expiresAt', 'validFrom', 'validTo'] as const;

/**
 * A memory in mnemo's own fields (the GraphQL Memory type's: apiKeyId, sessionId, type, key, content, metadata,
 * createdAt, expiresAt, validFrom, validTo; others are ignored), as a JSON line or a CSV row has it: a type in either
 * case, times as ISO text or epoch milliseconds, metadata as an object or as JSON text, empty text as absent. The
 * remaining checks are importMemories', which reports the reason per row.
 */
export function memoryFromFields(fields: Record<string, unknown>, at: string): SourceRow {
  const blank = (v: unknown) => (v === '' ? null : v);
  const type = typeof fields.type === 'string' && fields.type !== '' ? fields.type.toLowerCase() : null;
  if (type !== null && !MEMORY_TYPES.includes(type as MemoryType)) {
    return { at, problem: `type ${JSON.stringify(fields.type)} is not one of ${MEMORY_TYPES.join(', ')}` };
  }
  const times: Partial<Record<(typeof TIMES)[number], Date | null>> = {};
  for (const field of TIMES) {
    const time = sourceTime(fields[field], field);
    if (!time.ok) return { at, problem: time.problem };
    times[field] = time.date;
  }
  const metadata =
    fields.metadata == null || fields.metadata === '' ? { ok: true as const, object: {} } : sourceObject(fields.metadata, 'metadata');
  if (!metadata.ok) return { at, problem: metadata.problem };
  const input = {
    apiKeyId: fields.apiKeyId,
    sessionId: blank(fields.sessionId),
    type,
    key: blank(fields.key),
    content: fields.content,
    metadata: metadata.object,
    ...times,
  };
  return { at, input: input as MemoryInput };
}
