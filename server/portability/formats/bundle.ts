import { createHash } from 'node:crypto';
import { badInput } from '../../errors.ts';
import { MEMORY_TYPES, type MemoryType } from '../../memory/memory.ts';
import type { RestoredVersion } from '../../memory/restore.service.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../export/bundleFormat.ts';
import { type SourceRow, sourceTime } from '../sourceRows.ts';
import { memoryFromFields } from './memoryFields.ts';
import { isObject, openSourceStream, textOf } from './sourceFile.ts';

/** Whether a file's first line is the header of mnemo's export bundle (export/bundleFormat.ts). */
export const isBundleHeader = (value: Record<string, unknown>) => value.format === BUNDLE_FORMAT;

/**
 * Checks a bundle against its header before anything of it is imported: a version this mnemo reads, and the sha256 of
 * every byte after the header's line equal to the header's checksum. Read as a stream, so a bundle of any size is
 * checked without being held. Throws a typed error that says what is wrong.
 */
export async function verifyBundle(file: string, header: Record<string, unknown>): Promise<void> {
  if (header.version !== BUNDLE_VERSION)
    throw badInput(
      `${file} is a ${BUNDLE_FORMAT} bundle of version ${JSON.stringify(header.version)}; this mnemo reads version ${BUNDLE_VERSION}`,
    );
  if (typeof header.checksum !== 'string') throw badInput(`${file}: the bundle's header has no checksum`);
  const hash = createHash('sha256');
  let inBody = false;
  for await (const chunk of await openSourceStream(file)) {
    const bytes = chunk as Buffer;
    if (inBody) hash.update(bytes);
    else {
      const end = bytes.indexOf(0x0a);
      if (end >= 0) {
        inBody = true;
        hash.update(bytes.subarray(end + 1));
      }
    }
  }
  const actual = hash.digest('hex');
  if (actual !== header.checksum)
    throw badInput(
      `${file} does not match its header's checksum (sha256 ${actual}, the header says ${header.checksum}): ` +
        'the bundle was changed or cut short after it was exported; nothing was imported',
    );
}

/** A line of the bundle's body: a memory with its history and supersession, or a tombstone. */
export function bundleRow(value: Record<string, unknown>, at: string): SourceRow {
  if (value.kind === 'tombstone') return tombstoneRow(value, at);
  if (value.kind !== 'memory') return { at, problem: `kind ${JSON.stringify(value.kind)} is neither memory nor tombstone` };
  const row = memoryFromFields(value, at);
  if (!('input' in row)) return row;
  const sourceId = textOf(value.id);
  if (sourceId === null) return { at, problem: 'no id' };
  const updatedAt = sourceTime(value.updatedAt, 'updatedAt');
  if (!updatedAt.ok) return { at, problem: updatedAt.problem };
  if (!Array.isArray(value.versions)) return { at, problem: 'versions is not a list' };
  const versions: RestoredVersion[] = [];
  for (const [i, v] of value.versions.entries()) {
    const version = bundleVersion(v);
    if (typeof version === 'string') return { at, problem: `version ${i + 1}: ${version}` };
    versions.push(version);
  }
  const ending = value.supersededBy;
  if (ending != null && !(isObject(ending) && textOf(ending.id) && textOf(ending.rule)))
    return { at, problem: 'supersededBy is not { id, rule, sentence }' };
  const supersededBy =
    ending == null
      ? null
      : { id: String(ending.id), rule: String(ending.rule), sentence: typeof ending.sentence === 'string' ? ending.sentence : null };
  return { ...row, sourceId, restore: { versions, updatedAt: updatedAt.date, supersededBy } };
}

function bundleVersion(v: unknown): RestoredVersion | string {
  if (!isObject(v)) return 'not a JSON object';
  if (typeof v.content !== 'string') return 'no content';
  if (!MEMORY_TYPES.includes(v.type as MemoryType)) return `type ${JSON.stringify(v.type)} is not one of ${MEMORY_TYPES.join(', ')}`;
  if (!isObject(v.metadata)) return 'metadata is not a JSON object';
  if (typeof v.changedBy !== 'string' || typeof v.reason !== 'string') return 'no changedBy or reason';
  const times: Partial<Record<'expiresAt' | 'validFrom' | 'validTo' | 'changedAt', Date | null>> = {};
  for (const field of ['expiresAt', 'validFrom', 'validTo', 'changedAt'] as const) {
    const time = sourceTime(v[field], field);
    if (!time.ok) return time.problem;
    times[field] = time.date;
  }
  if (!times.changedAt) return 'no changedAt';
  return {
    content: v.content,
    type: v.type as MemoryType,
    metadata: v.metadata,
    expiresAt: times.expiresAt ?? null,
    validFrom: times.validFrom ?? null,
    validTo: times.validTo ?? null,
    supersededBy: textOf(v.supersededBy),
    changedAt: times.changedAt,
    changedBy: v.changedBy,
    reason: v.reason,
  };
}

function tombstoneRow(value: Record<string, unknown>, at: string): SourceRow {
  const apiKeyId = textOf(value.apiKeyId);
  const memoryId = textOf(value.memoryId);
  const digest = textOf(value.keyDigest);
  const deletedBy = textOf(value.deletedBy);
  const deletedAt = sourceTime(value.deletedAt, 'deletedAt');
  if (apiKeyId === null || memoryId === null || deletedBy === null)
    return { at, problem: 'a tombstone needs apiKeyId, memoryId and deletedBy' };
  if (digest === null || !/^[0-9a-f]{64}$/.test(digest)) return { at, problem: 'keyDigest is not a sha256 digest' };
  if (!deletedAt.ok || deletedAt.date === null) return { at, problem: deletedAt.ok ? 'no deletedAt' : deletedAt.problem };
  const sessionId = textOf(value.sessionId);
  return { at, tombstone: { apiKeyId, sessionId, memoryId, keyDigest: digest, deletedAt: deletedAt.date, deletedBy } };
}
