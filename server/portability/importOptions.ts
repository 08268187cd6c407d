import path from 'node:path';
import { UsageError } from '../exitCodes.ts';
import { apiKeyIdSchema } from '../validation.ts';
import type { FileImport, FileImportReport } from './importFile.ts';
import { IMPORT_FORMATS, type ImportFormat, MEM0_FIELDS, type Mem0Field } from './sourceRows.ts';

/** `mnemo import`'s command line as an import job, or a usage error that says what is wrong. */
export function importJob(
  file: string | undefined,
  values: { from?: string; 'dry-run'?: boolean; 'api-key'?: string; 'key-from'?: string; 'session-from'?: string },
): FileImport {
  const format = values.from as ImportFormat | undefined;
  if (format === undefined || !IMPORT_FORMATS.includes(format))
    throw new UsageError(`import needs --from, one of ${IMPORT_FORMATS.join(', ')}`);
  if (!file) throw new UsageError('import needs the file to read');
  const mem0Only = (flag: 'key-from' | 'session-from'): Mem0Field | null => {
    const value = values[flag];
    if (value === undefined) return null;
    if (format !== 'mem0') throw new UsageError(`--${flag} belongs to --from mem0`);
    if (!MEM0_FIELDS.includes(value as Mem0Field)) throw new UsageError(`--${flag} must be one of ${MEM0_FIELDS.join(', ')}`);
    return value as Mem0Field;
  };
  const keyFrom = mem0Only('key-from');
  const sessionFrom = mem0Only('session-from');
  const apiKey = values['api-key'];
  if (apiKey !== undefined && ['omniroute', 'jsonl', 'csv'].includes(format))
    throw new UsageError(`--from ${format} rows name their own API keys; --api-key does not apply`);
  if (apiKey !== undefined && keyFrom !== null) throw new UsageError('give --api-key or --key-from, not both');
  const checked = apiKey === undefined ? null : apiKeyIdSchema.safeParse(apiKey);
  if (checked && !checked.success) throw new UsageError(checked.error.issues[0]?.message ?? '--api-key is not an API key id');
  return {
    format,
    file: path.resolve(file),
    dryRun: values['dry-run'] ?? false,
    placement: { apiKeyId: checked?.data ?? null, keyFrom, sessionFrom },
  };
}

/** The report as the command prints it: counts, then the first skipped rows with their reasons. */
export function importSummary(r: FileImportReport, job: FileImport, database: string): string {
  const verb = r.dryRun ? 'would import' : 'imported';
  const lines = [
    `${verb} ${r.read} rows of ${job.format} ${job.file} into ${database}: ${r.imported} new, ${r.updated} updated, ${r.skipped} skipped` +
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
