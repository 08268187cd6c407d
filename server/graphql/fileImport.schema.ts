import { badInput } from '../errors.ts';
import type { FileImportJob } from '../portability/fileImports.ts';
import type { FileImportReport, SkippedRow } from '../portability/importFile.ts';
import { importPlacement } from '../portability/importOptions.ts';
import { IMPORT_FORMATS, MEM0_FIELDS } from '../portability/sourceRows.ts';
import { builder } from './builder.ts';

const ImportFormatEnum = builder.enumType('ImportFormat', {
  description: 'The file formats an import reads (`mnemo import --from`).',
  values: Object.fromEntries(IMPORT_FORMATS.map((f) => [f.toUpperCase(), { value: f }])) as Record<
    Uppercase<(typeof IMPORT_FORMATS)[number]>,
    { value: (typeof IMPORT_FORMATS)[number] }
  >,
});

const Mem0FieldEnum = builder.enumType('Mem0Field', {
  description: 'A field of a mem0 memory that names its owner.',
  values: Object.fromEntries(MEM0_FIELDS.map((f) => [f.toUpperCase(), { value: f }])) as Record<
    Uppercase<(typeof MEM0_FIELDS)[number]>,
    { value: (typeof MEM0_FIELDS)[number] }
  >,
});

const FileImportStatusEnum = builder.enumType('FileImportStatus', {
  values: {
    RUNNING: { value: 'running' },
    COMPLETED: { value: 'completed' },
    FAILED: { value: 'failed' },
  } as const,
});

const SkippedRowRef = builder.objectRef<SkippedRow>('SkippedImportRow').implement({
  description: 'A row of the file that was not stored.',
  fields: (t) => ({
    at: t.exposeString('at', { description: 'Where it is in the file: "line 12", "memory 3 (id …)", "row om-5".' }),
    reason: t.exposeString('reason'),
  }),
});

const FileImportReportRef = builder.objectRef<FileImportReport>('FileImportReport').implement({
  description: 'What an import of a file did (or, in a dry run, would do), row by row: each row counts in one outcome.',
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun', { description: 'Nothing was stored: this is what the import would do.' }),
    read: t.exposeInt('read', { description: 'Rows read from the file so far.' }),
    imported: t.exposeInt('imported', { description: 'New memories.' }),
    updated: t.exposeInt('updated', { description: 'Memories of the same API key and key, rewritten: what importing a file again does.' }),
    merged: t.exposeInt('merged', {
      description:
        'Rows without a key merged into a memory that says the same in other words (mergeParaphrases), not memories of their own.',
    }),
    skipped: t.exposeInt('skipped', { description: 'Rows not stored: the file could not be read there, or the row was refused.' }),
    skippedRows: t.field({
      type: [SkippedRowRef],
      description: 'The first skipped rows (up to 100), in file order, with their reasons.',
      resolve: (r) => r.skippedRows,
    }),
    expired: t.exposeInt('expired', { description: 'Stored with an expiresAt already past: never injected.' }),
    outsideRetention: t.exposeInt('outsideRetention', { description: 'Stored, but older than the retention window: never injected.' }),
    disabled: t.exposeBoolean('disabled', {
      description: 'Memory is switched off in the settings: nothing is injected until it is on.',
    }),
    versions: t.exposeInt('versions', {
      description: "Earlier versions kept in the imported memories' history, from the source's own (mem0, mnemo's bundle); 0 in a dry run.",
    }),
    tombstones: t.exposeInt('tombstones', {
      description: "Tombstones of deleted memories read from mnemo's bundle; recorded unless a dry run.",
    }),
    deletedByTombstones: t.exposeInt('deletedByTombstones', {
      description: 'Memories of this store those tombstones deleted: deleted in the source after they were last written here.',
    }),
  }),
});

const ImportErrorRef = builder.objectRef<NonNullable<FileImportJob['error']>>('FileImportError').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'BAD_USER_INPUT when the file is not of its format; STORAGE_FULL, …' }),
    message: t.exposeString('message'),
  }),
});

const FileImportJobRef = builder.objectRef<FileImportJob>('FileImportJob').implement({
  description: 'A file sent to the server to import, read in the background: poll fileImport(id) until it has ended.',
  fields: (t) => ({
    id: t.exposeID('id'),
    format: t.expose('format', { type: ImportFormatEnum }),
    fileName: t.exposeString('fileName'),
    dryRun: t.exposeBoolean('dryRun'),
    status: t.expose('status', { type: FileImportStatusEnum }),
    report: t.expose('report', { type: FileImportReportRef }),
    error: t.expose('error', { type: ImportErrorRef, nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  fileImport: t.field({
    type: FileImportJobRef,
    authScopes: { admin: true },
    description: 'A file import started by startFileImport, as it is now.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.fileImports.job(String(id)),
  }),
}));

builder.mutationFields((t) => ({
  startFileImport: t.field({
    type: FileImportJobRef,
    authScopes: { admin: true },
    description:
      'Imports a file of another memory system, or of mnemo (`mnemo import --from`), sent as a multipart request: a dry run first, to see what it would do. Returns at once; poll fileImport(id). Rows that cannot be read or are refused are skipped with their reason; the same file imported again updates the same memories.',
    args: {
      file: t.arg({ type: 'File', required: true }),
      format: t.arg({ type: ImportFormatEnum, required: true }),
      dryRun: t.arg.boolean({ required: true }),
      apiKeyId: t.arg.string({ description: 'mem0 and letta: the API key every row goes to.' }),
      keyFrom: t.arg({ type: Mem0FieldEnum, description: 'mem0: the field that names the API key of each memory (user_id by default).' }),
      sessionFrom: t.arg({ type: Mem0FieldEnum, description: 'mem0: the field that names the session (none by default).' }),
    },
    resolve: (_root, args, ctx) => {
      const placement = importPlacement(
        args.format,
        { apiKey: args.apiKeyId, keyFrom: args.keyFrom, sessionFrom: args.sessionFrom },
        NAMES,
        badInput,
      );
      return ctx.services.fileImports.start(ctx, args.file, { format: args.format, placement, dryRun: args.dryRun });
    },
  }),
}));

const NAMES = { format: 'format', apiKey: 'apiKeyId', keyFrom: 'keyFrom', sessionFrom: 'sessionFrom' };
