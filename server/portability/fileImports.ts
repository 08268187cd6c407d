import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AuditContext, type Audited, audited } from '../audit/audited.ts';
import { badInput, DomainError, notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { MemoryDeps } from '../memory/memory.service.ts';
import { emptyReport, type FileImport, type FileImportReport, importFile } from './importFile.ts';
import type { ImportFormat, Placement } from './sourceRows.ts';

/** A file sent to the server to import (Memory Studio's Data tab), read in the background while the caller polls. */
export interface FileImportJob {
  id: string;
  format: ImportFormat;
  /** The name the file had where it was sent from. */
  fileName: string;
  dryRun: boolean;
  status: 'running' | 'completed' | 'failed';
  /** The counts so far, after each batch; the whole report once completed. */
  report: FileImportReport;
  /** Why the import stopped: the file is not of its format, the disk is full; rows of batches before it stay stored. */
  error: { code: string; message: string } | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** Finished jobs kept for their callers to read, newest first; older ones are forgotten. */
const FINISHED_KEPT = 10;

/**
 * The file imports of this process. The file goes to a temporary folder (the readers read files: OmniRoute's is a
 * SQLite database), removed when the import ends; the job lives in the memory of the process that took the file, as
 * long as a few newer ones have not replaced it. One runs at a time: two imports of one file, its dry run and the real
 * one, must not interleave their batches.
 */
export class FileImports {
  private readonly jobs = new Map<string, FileImportJob>();

  constructor(private readonly deps: MemoryDeps & { logger: Logger }) {}

  async start(
    ctx: AuditContext,
    upload: File,
    request: { format: ImportFormat; placement: Placement; dryRun: boolean },
  ): Promise<FileImportJob> {
    const running = [...this.jobs.values()].find((j) => j.status === 'running');
    if (running) throw badInput(`an import of ${running.fileName} is running; start the next once it has ended`);
    const job: FileImportJob = {
      id: randomUUID(),
      format: request.format,
      fileName: upload.name,
      dryRun: request.dryRun,
      status: 'running',
      report: emptyReport(request.dryRun),
      error: null,
      startedAt: new Date(this.deps.now()),
      finishedAt: null,
    };
    // Running from here, so that a second file sent while this one is written waits its turn.
    this.jobs.set(job.id, job);
    const folder = await mkdtemp(path.join(tmpdir(), 'mnemo-import-'));
    const file = path.join(folder, 'upload');
    try {
      // Whole: the request body it came in was held whole (within the body limit) by the multipart parser.
      await writeFile(file, new Uint8Array(await upload.arrayBuffer()));
    } catch (error) {
      this.jobs.delete(job.id);
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    void this.run(ctx, job, { ...request, file }).finally(() => rm(folder, { recursive: true, force: true }).catch(() => {}));
    return job;
  }

  /** Imports the file, keeping the job's counts current; ends it completed or failed, never throwing. */
  private async run(ctx: AuditContext, job: FileImportJob, request: Omit<FileImport, 'onProgress'>): Promise<void> {
    const importing = async () => {
      job.report = await importFile(this.deps, { ...request, onProgress: (r) => Object.assign(job, { report: { ...r } }) });
      return job.report;
    };
    const audit: Audited<FileImportReport> = {
      action: 'MEMORIES_IMPORT',
      apiKeyId: request.placement.apiKeyId,
      // Ids and counts only, as for the command: a file's name is the caller's text, which the audit log does not keep.
      target: { format: request.format },
      describe: (r) => ({ target: { rows: r.read, imported: r.imported, updated: r.updated, merged: r.merged, skipped: r.skipped } }),
    };
    try {
      await (request.dryRun ? importing() : audited(ctx, audit, importing));
      job.status = 'completed';
    } catch (error) {
      job.status = 'failed';
      job.error = failure(error, request.file, job.fileName);
      if (!(error instanceof DomainError)) this.deps.logger.error({ err: error, job: job.id }, 'file import failed');
    }
    job.finishedAt = new Date(this.deps.now());
    this.forgetOld();
  }

  job(id: string): FileImportJob {
    const job = this.jobs.get(id);
    if (!job) throw notFound(`no file import ${id} in this process (it ended long ago, or another replica took the file)`);
    return job;
  }

  private forgetOld() {
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'running');
    for (const j of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) this.jobs.delete(j.id);
  }
}

/** What the caller is told: a typed error as it is, the temporary file named as the caller named it; anything else masked. */
function failure(error: unknown, file: string, name: string): FileImportJob['error'] {
  if (error instanceof DomainError) return { code: error.code, message: error.message.replaceAll(file, name) };
  return { code: 'INTERNAL_SERVER_ERROR', message: 'the import failed unexpectedly; the server log has the details' };
}
