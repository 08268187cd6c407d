import { createReadStream, type ReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { badInput } from '../../errors.ts';

/** A JSON export file read whole (these formats are single documents), or a typed error that names the file. */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw badInput(`${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badInput(`${file} is not JSON; expected ${what}`);
  }
}

/** A source file opened for streaming, or a typed error that names the file (it is missing, or not readable). */
export async function openSourceStream(file: string): Promise<ReadStream> {
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(badInput(`${file} cannot be read: ${error.message}`)));
  });
  return stream;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
