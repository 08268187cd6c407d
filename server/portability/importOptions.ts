import path from 'node:path';
import { UsageError } from '../exitCodes.ts';
import { apiKeyIdSchema } from '../validation.ts';
import type { FileImport, FileImportReport } from './importFile.ts';
import { IMPORT_FORMATS, type ImportFormat, MEM0_FIELDS, type Mem0Field, type Placement } from './sourceRows.ts';

/** `mnemo import`'s command line as an import job, or a usage error that says what is wrong. */
export function importJob(
  file: string | undefined,
  values: { from?: string; 'dry-run'?: boolean; 'api-key'?: string; 'key-from'?: string; 'session-from'?: string },
): FileImport {
  const format = values.from as ImportFormat | undefined;
  if (format === undefined || !IMPORT_FORMATS.includes(format))
    throw new UsageError(`import needs --from, one of ${IMPORT_FORMATS.join(', ')}`);
  if (!file) throw new UsageError('import needs the file to read');
  const options = { apiKey: values['api-key'], keyFrom: values['key-from'], sessionFrom: values['session-from'] };
  const placement = importPlacement(format, options, CLI_NAMES, (message) => new UsageError(message));
  return { format, file: path.resolve(file), dryRun: values['dry-run'] ?? false, placement };
}

/** How the rules below name the format and the options, as flags of the command line or as arguments of a GraphQL field. */
export interface OptionNames {
  format: string;
  apiKey: string;
  keyFrom: string;
  sessionFrom: string;
}
const CLI_NAMES: OptionNames = { format: '--from', apiKey: '--api-key', keyFrom: '--key-from', sessionFrom: '--session-from' };

/**
 * Where the rows of a format go, from the options given, or the error `refuse` makes of what is wrong: the API key and
 * the mem0 fields only apply to the formats whose rows name no API key of mnemo's.
 */
export function importPlacement(
  format: ImportFormat,
  options: { apiKey?: string | null; keyFrom?: string | null; sessionFrom?: string | null },
  names: OptionNames,
  refuse: (message: string) => Error,
): Placement {
  const mem0Only = (option: 'keyFrom' | 'sessionFrom'): Mem0Field | null => {
    const value = options[option];
    if (value == null) return null;
    if (format !== 'mem0') throw refuse(`${names[option]} belongs to ${names.format} mem0`);
    if (!MEM0_FIELDS.includes(value as Mem0Field)) throw refuse(`${names[option]} must be one of ${MEM0_FIELDS.join(', ')}`);
    return value as Mem0Field;
  };
  const keyFrom = mem0Only('keyFrom');
  const sessionFrom = mem0Only('sessionFrom');
  const apiKey = options.apiKey ?? undefined;
  if (apiKey !== undefined && ['omniroute', 'jsonl', 'csv'].includes(format))
    throw refuse(`${names.format} ${format} rows name their own API keys; ${names.apiKey} does not apply`);
  if (apiKey !== undefined && keyFrom !== null) throw refuse(`give ${names.apiKey} or ${names.keyFrom}, not both`);
  const checked = apiKey === undefined ? null : apiKeyIdSchema.safeParse(apiKey);
  if (checked && !checked.success) throw refuse(checked.error.issues[0]?.message ?? `${names.apiKey} is not an API key id`);
  return { apiKeyId: checked?.data ?? null, keyFrom, sessionFrom };
}

/** The report as the command prints it: counts, then the first skipped rows with their reasons. */
export function importSummary(r: FileImportReport, job: FileImport, database: string): string {
  const verb = r.dryRun ? 'would import' : 'imported';
  const lines = [
    `${verb} ${r.read} rows of ${job.format} ${job.file} into ${database}: ${outcomes(r)}` +
      (r.dryRun ? ' (dry run: nothing was written)' : ''),
  ];
  if (r.expired > 0 || r.outsideRetention > 0) {
    lines.push(`  stored but never injected: ${r.expired} already expired, ${r.outsideRetention} older than the retention window`);
  }
  if (!r.dryRun && r.versions > 0) lines.push(`  ${r.versions} earlier versions kept in the memories' history`);
  if (r.tombstones > 0) {
    lines.push(
      r.dryRun
        ? `  ${r.tombstones} tombstones of deleted memories`
        : `  ${r.tombstones} tombstones of deleted memories recorded; ${r.deletedByTombstones} memories of this store deleted by them`,
    );
  }
  if (r.disabled) lines.push('  memory is switched off in the settings: nothing is injected until it is on');
  for (const s of r.skippedRows) lines.push(`  skipped ${s.at}: ${s.reason}`);
  if (r.skipped > r.skippedRows.length) lines.push(`  … and ${r.skipped - r.skippedRows.length} more skipped`);
  return `${lines.join('\n')}\n`;
}

/** The count of each outcome, in the words the progress line and the summary share. */
export function outcomes(r: Pick<FileImportReport, 'imported' | 'updated' | 'merged' | 'skipped'>): string {
  return `${r.imported} new, ${r.updated} updated, ${r.merged} merged, ${r.skipped} skipped`;
}
