import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../db/open.ts';
import { badInput } from '../../errors.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleCounts, type BundleHeader } from './bundleFormat.ts';
import { bundleLines, bundleSize } from './bundleLines.ts';

export interface BundleProgress {
  /** Lines of the body written so far. */
  done: number;
  /** Lines the body was expected to have when the export started. */
  total: number;
}

/** Where a bundle goes: a file, a response, standard output; a `write` answering false waits for 'drain', as Node's writables ask. */
export interface BundleSink {
  write(chunk: string | Buffer): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/** A bundle ready to be sent: its header known, its body in a temporary file until disposed of. */
export interface PreparedBundle {
  header: BundleHeader;
  /** Its size in bytes, header included. */
  bytes: number;
  writeTo(sink: BundleSink): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The export bundle of one key (null: every key). The header's counts and checksum cover the body, which is only
 * known once read, so the body is first written to a temporary file (each line read once, from pages: a store of any
 * size), and sent after the header from there.
 */
export async function prepareBundle(
  db: Db,
  opts: { apiKeyId: string | null; now: number; onProgress?: (p: BundleProgress) => void },
): Promise<PreparedBundle> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mnemo-export-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const body = path.join(dir, 'body.jsonl');
    const { counts, checksum } = await spoolBody(db, opts, body);
    const header: BundleHeader = {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      exportedAt: new Date(opts.now).toISOString(),
      apiKeyId: opts.apiKeyId,
      counts,
      checksum,
    };
    const headerLine = `${JSON.stringify(header)}\n`;
    return {
      header,
      bytes: Buffer.byteLength(headerLine) + (await stat(body)).size,
      writeTo: async (sink) => {
        await put(sink, headerLine);
        for await (const chunk of createReadStream(body)) await put(sink, chunk as Buffer);
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Writes the bundle (prepareBundle) to `sink` and returns its header. */
export async function writeBundle(db: Db, opts: Parameters<typeof prepareBundle>[1], sink: BundleSink): Promise<BundleHeader> {
  const bundle = await prepareBundle(db, opts);
  try {
    await bundle.writeTo(sink);
    return bundle.header;
  } finally {
    await bundle.dispose();
  }
}

/** writeBundle to a file: written beside it and renamed when whole, so a failed export leaves no part of one. */
export async function writeBundleFile(db: Db, opts: Parameters<typeof writeBundle>[1], file: string): Promise<BundleHeader> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  try {
    await once(out, 'open').catch((error: Error) => {
      throw badInput(`${file} cannot be written: ${error.message}`);
    });
    const header = await writeBundle(db, opts, out);
    out.end();
    await once(out, 'close');
    await rename(partial, file);
    return header;
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

async function spoolBody(
  db: Db,
  opts: { apiKeyId: string | null; onProgress?: (p: BundleProgress) => void },
  file: string,
): Promise<{ counts: BundleCounts; checksum: string }> {
  const total = await bundleSize(db, opts.apiKeyId);
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  const counts: BundleCounts = { memories: 0, versions: 0, tombstones: 0 };
  let done = 0;
  try {
    for await (const line of bundleLines(db, opts.apiKeyId)) {
      const text = `${JSON.stringify(line)}\n`;
      hash.update(text, 'utf8');
      await put(out, text);
      if (line.kind === 'memory') {
        counts.memories++;
        counts.versions += line.versions.length;
      } else counts.tombstones++;
      done++;
      if (done % 500 === 0) opts.onProgress?.({ done, total: Math.max(total, done) });
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  opts.onProgress?.({ done, total: done });
  return { counts, checksum: hash.digest('hex') };
}

async function put(sink: BundleSink, chunk: string | Buffer) {
  if (sink.write(chunk) === false && sink.once) await new Promise<void>((resolve) => sink.once?.('drain', resolve));
}
