import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { parseInputAt } from '../validation.ts';
import { AUTHORS, changing } from './change.ts';
import * as repo from './memory.repository.ts';
import type { MemoryDeps } from './memory.service.ts';
import { type Memory, type MemoryInput, memoryInputSchema, memoryRow, rowToMemory } from './memory.ts';

/**
 * Memories written at most once: each input is stored unless its (API key, key) is taken, and a memory already stored
 * under that key is left exactly as it is (no new row, no new text, no fresher write time). What a retried or repeated
 * request captures twice is stored once. Returns every memory in input order, stored now or before, and the new ones.
 */
export async function storeOnce(deps: MemoryDeps, inputs: readonly MemoryInput[]): Promise<{ memories: Memory[]; stored: Memory[] }> {
  return storeRowsOnce(deps.db, memoryRows(inputs, deps.now()));
}

/** The rows inputs are stored as, checked against the clock `now`: their ids are known before anything is written. */
export function memoryRows(inputs: readonly MemoryInput[], now: number): ReturnType<typeof memoryRow>[] {
  return inputs.map((input) => memoryRow(parseInputAt(memoryInputSchema, input, now), now));
}

/** storeOnce of rows made already (memoryRows). */
export async function storeRowsOnce(
  db: Db,
  rows: readonly ReturnType<typeof memoryRow>[],
): Promise<{ memories: Memory[]; stored: Memory[] }> {
  const memories: Memory[] = [];
  const stored: Memory[] = [];
  // Writes first, reads after: a SQLite transaction whose first statement reads cannot wait for another writer.
  const inserted: (MemoryRow | undefined)[] = [];
  for (const row of rows) inserted.push(await repo.insertMemoryRowIfAbsent(db, row));
  const taken = rows.filter((_, i) => inserted[i] === undefined).map((r) => r.key);
  const existing = new Map((await repo.findMemoryRowsByKey(db, rows[0]?.api_key_id ?? '', taken)).map((r) => [r.key, r]));
  for (const [i, row] of rows.entries()) {
    const fresh = inserted[i];
    const found = fresh ?? existing.get(row.key);
    if (!found) continue;
    memories.push(rowToMemory(found));
    if (fresh) stored.push(memories[memories.length - 1]!);
  }
  return { memories, stored };
}

/** The keys of `keys` that no memory of the API key holds yet. */
export async function absentKeys(db: Db, apiKeyId: string, keys: readonly string[]): Promise<Set<string>> {
  const present = await repo.presentKeys(db, apiKeyId, keys);
  return new Set(keys.filter((k) => !present.has(k)));
}

/**
 * Adds ids to the list under metadata[field] (kept in order, each once), leaving the memory untouched when they are
 * all there already: a retry writes nothing.
 */
export async function addToMetadataList(db: Db, memory: Memory, field: string, ids: readonly string[]): Promise<Memory> {
  const listed = Array.isArray(memory.metadata[field]) ? (memory.metadata[field] as unknown[]) : [];
  const added = ids.filter((id) => !listed.includes(id));
  if (added.length === 0) return memory;
  const metadata = JSON.stringify({ ...memory.metadata, [field]: [...listed, ...added] });
  const change = { by: AUTHORS.system, why: `listed in ${field}` };
  return rowToMemory(await changing(db, change, (trx) => repo.updateMemoryRow(trx, memory.pk, { metadata })));
}
