import { createInterface } from 'node:readline';
import type { SourceReader, SourceRow } from '../sourceRows.ts';
import { memoryFromFields } from './memoryFields.ts';
import { isObject, openSourceStream } from './sourceFile.ts';

/**
 * mnemo's own line format: one memory per line, a JSON object with the fields of the GraphQL Memory type
 * (memoryFields.ts). A first line with a "format" field is a header and is skipped. Read line by line, so a file of
 * any size streams.
 */
export const readJsonl: SourceReader = async function* (file) {
  const stream = (await openSourceStream(file)).setEncoding('utf8');
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
  return memoryFromFields(value, at);
}
