import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { badInput } from '../../errors.ts';
import { MEMORY_TYPES, type MemoryInput, type MemoryType } from '../../memory/memory.ts';
import { type SourceReader, type SourceRow, sourceTime } from '../sourceRows.ts';
import { isObject } from './jsonFile.ts';

/**
 * mnemo's own line format: one memory per line with the fields of the GraphQL Memory type (apiKeyId, sessionId,
 * type, key, content, metadata, createdAt, expiresAt; others are ignored), types in either case. A first line with a
 * "format" field is a header and is skipped. Read line by line, so a file of any size streams.
 */
export const readJsonl: SourceReader = async function* (file) {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(badInput(`${file} cannot be read: ${error.message}`)));
  });
  await opened;
  let line = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() === '') continue;
    const row = toRow(text, line);
    if (row !== null) yield row;
  }
};

function toRow(text: string, line: number): SourceRow | null {
  const at = `line ${line}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { at, problem: 'not JSON' };
  }
  if (!isObject(value)) return { at, problem: 'not a JSON object' };
  if (line === 1 && 'format' in value) return null;
  const type = typeof value.type === 'string' ? value.type.toLowerCase() : value.type;
  if (type != null && !MEMORY_TYPES.includes(type as MemoryType)) {
    return { at, problem: `type ${JSON.stringify(value.type)} is not one of ${MEMORY_TYPES.join(', ')}` };
  }
  const createdAt = sourceTime(value.createdAt, 'createdAt');
  const expiresAt = sourceTime(value.expiresAt, 'expiresAt');
  if (!createdAt.ok) return { at, problem: createdAt.problem };
  if (!expiresAt.ok) return { at, problem: expiresAt.problem };
  // The other fields are checked as any import's are (importMemories), which reports the reason per line.
  const { apiKeyId, sessionId, key, content, metadata } = value;
  const input = { apiKeyId, sessionId, type, key, content, metadata, createdAt: createdAt.date, expiresAt: expiresAt.date };
  return { at, input: input as MemoryInput };
}
