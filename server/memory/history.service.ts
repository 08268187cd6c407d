import { z } from 'zod';
import type { MemoryVersionRow } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { parseInput } from '../validation.ts';
import type { Change } from './change.ts';
import * as repo from './history.repository.ts';
import { type KeyGuard, type MemoryDeps, requireMemory, updateMemory } from './memory.service.ts';
import type { Memory, MemoryType } from './memory.ts';

/**
 * A memory's history: the versions that its changes replaced (kept by the history trigger, migrations 020 and 008,
 * validity since 026 and 014, whatever path changed it), at most historyVersionsKept of them, and the way back to any of them.
 */

/** A version a change replaced: what the memory said and over which time it held, and when, by whom and why it changed. */
export interface MemoryVersion {
  version: number;
  content: string;
  type: MemoryType;
  metadata: Record<string, unknown>;
  expiresAt: Date | null;
  /** The memory's validity then; validFrom is null only on versions kept before validity was recorded (migration 026). */
  validFrom: Date | null;
  validTo: Date | null;
  supersededBy: string | null;
  changedAt: Date;
  changedBy: string;
  reason: string;
}

const versionSchema = z.number().int('version must be a whole number').min(1, 'version must be at least 1');

function rowToVersion(row: MemoryVersionRow): MemoryVersion {
  return {
    version: row.version,
    content: row.content,
    type: row.type,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    validFrom: row.valid_from === null ? null : new Date(row.valid_from),
    validTo: row.valid_to === null ? null : new Date(row.valid_to),
    supersededBy: row.superseded_by,
    changedAt: new Date(row.changed_at),
    changedBy: row.changed_by,
    reason: row.reason,
  };
}

/** The kept versions of a memory the caller may see, newest first; NOT_FOUND for another key's memory, as memory(). */
export async function memoryHistory(deps: MemoryDeps, id: string, canSee: KeyGuard): Promise<MemoryVersion[]> {
  const memory = await requireMemory(deps, id, canSee);
  return (await repo.versionRows(deps.db, memory.pk)).map(rowToVersion);
}

/**
 * Makes a kept version the memory's current one: its content, type, metadata and expiry come back, and what they
 * replace is kept as a version in turn (why: "revert to version N"), so a revert can itself be undone. A revert is one
 * of wording, never of validity: the memory holds, or stays superseded, as it does now. Going back to a version kept
 * before a supersession does not silently make a superseded memory current again (and hide what replaced it), nor
 * does one kept while it was superseded end a current memory; restoreMemory is the undo of a supersession.
 */
export async function revertMemory(deps: MemoryDeps, id: string, version: number, canSee: KeyGuard, by: string): Promise<Memory> {
  const wanted = parseInput(versionSchema, version);
  const memory = await requireMemory(deps, id, canSee);
  const row = await repo.versionRow(deps.db, memory.pk, wanted);
  if (!row) throw notFound(`memory ${id} keeps no version ${wanted}`);
  const kept = rowToVersion(row);
  const change: Change = { by, why: `revert to version ${wanted}` };
  const patch = { content: kept.content, type: kept.type, metadata: kept.metadata, expiresAt: kept.expiresAt };
  return updateMemory(deps, id, patch, canSee, change);
}
