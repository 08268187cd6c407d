import { createInterface } from 'node:readline';
import type { SourceReader } from '../sourceRows.ts';
import { bundleRow, isBundleHeader, verifyBundle } from './bundle.ts';
import { memoryFromFields } from './memoryFields.ts';
import { isObject, openSourceStream } from './sourceFile.ts';

/**
 * mnemo's own line formats. Its export bundle (export/bundleFormat.ts): a header checked against the whole file before
 * the first row is read (bundle.ts), then memories with their history and tombstones. Or plain lines: one memory per
 * line, a JSON object with the fields of the GraphQL Memory type (memoryFields.ts), after an optional first line
 * with a "format" field, which is skipped. Read line by line, so a file of any size streams.
 */
export const readJsonl: SourceReader = async function* (file) {
  const stream = (await openSourceStream(file)).setEncoding('utf8');
  let line = 0;
  let bundle = false;
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() === '') continue;
    const at = `line ${line}`;
    const value = parsed(text);
    if (typeof value === 'string') {
      yield { at, problem: value };
      continue;
    }
    if (line === 1 && 'format' in value) {
      if (isBundleHeader(value)) {
        await verifyBundle(file, value);
        bundle = true;
      }
      continue;
    }
    yield bundle ? bundleRow(value, at) : memoryFromFields(value, at);
  }
};

function parsed(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  return isObject(value) ? value : 'not a JSON object';
}
