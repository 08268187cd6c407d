import { parse } from 'csv-parse';
import { badInput, DomainError } from '../../errors.ts';
import type { SourceReader } from '../sourceRows.ts';
import { memoryFromFields } from './memoryFields.ts';
import { openSourceStream } from './sourceFile.ts';

/**
 * A plain table of memories: CSV (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks) whose
 * header row names mnemo's fields (memoryFields.ts): apiKeyId and content at least, then any of sessionId, type, key,
 * metadata (JSON text), createdAt, expiresAt, validFrom, validTo. Parsed as a stream, so a file of any size reads in
 * constant memory; a row with another number of cells than the header is skipped with its reason.
 */
export const readCsv: SourceReader = async function* (file) {
  const rows = (await openSourceStream(file)).pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true, info: true }));
  let columns: string[] | null = null;
  try {
    for await (const { record, info } of rows as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (columns === null) {
        columns = record.map((name) => name.trim());
        const missing = REQUIRED.filter((name) => !columns!.includes(name));
        if (missing.length > 0) throw badInput(`${file} is not a memories CSV: its header row names no ${missing.join(' or ')} column`);
        continue;
      }
      const at = `line ${info.lines}`;
      if (record.length !== columns.length) {
        yield { at, problem: `${record.length} cells where the header names ${columns.length}` };
        continue;
      }
      yield memoryFromFields(Object.fromEntries(columns.map((name, i) => [name, record[i]])), at);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badInput(`${file} is not CSV that can be read: ${(error as Error).message}`);
  }
};

const REQUIRED = ['apiKeyId', 'content'];
