import { badInput } from '../../errors.ts';
import type { MemoryType } from '../../memory/memory.ts';
import type { RestoredMemory, RestoredVersion } from '../../memory/restore.service.ts';
import { type Mem0Field, type Placement, type SourceReader, type SourceRow, sourceObject, sourceTime } from '../sourceRows.ts';
import { isObject, readJsonFile, textOf } from './sourceFile.ts';

/**
 * mem0's memories as its `get_all()` returns them (mem0/memory/main.py in its open-source package, and the platform's
 * export): `{ "results": [...] }` or a bare list, each memory with id, memory (the text), hash, metadata, categories,
 * created_at, updated_at and the user_id, agent_id and run_id it belongs to. Which of those names the API key and the
 * session is the operator's choice (--key-from, --session-from); each memory is keyed by its mem0 id, so importing
 * the file again updates the same memories. Where the file has them, each memory's history entries, as mem0's
 * `history(memory_id)` returns them, become its earlier versions: a `history` list on the memory, or a top-level
 * `history` object of lists by memory id.
 */
export const readMem0: SourceReader = async function* (file, placement) {
  const document = await readJsonFile(file, 'a mem0 export: { "results": [...] } or a list of memories');
  const memories = Array.isArray(document) ? document : isObject(document) ? document.results : undefined;
  if (!Array.isArray(memories)) throw badInput(`${file} is not a mem0 export: expected { "results": [...] } or a list of memories`);
  const histories = isObject(document) && isObject(document.history) ? document.history : {};
  for (const [i, item] of memories.entries()) {
    const row = toRow(item, i, placement);
    if (!('input' in row) || !isObject(item)) yield row;
    else {
      const history = withHistory(item.history ?? histories[String(item.id)], row.input.type ?? 'factual', row.input.metadata ?? {});
      yield typeof history === 'string' ? { at: row.at, problem: history } : { ...row, restore: history };
    }
  }
};

/**
 * mem0's history entries of a memory (mem0/memory/storage.py, SQLiteManager.get_history: id, memory_id, old_memory,
 * new_memory, event ADD/UPDATE/DELETE, created_at, updated_at, is_deleted, actor_id, role; main.py's update writes
 * the memory's created_at and the update's time as updated_at) as the versions mnemo keeps: each UPDATE replaced
 * old_memory at its updated_at, by its actor_id. An ADD replaced nothing; a DELETE is of a memory the file no longer
 * holds. Each version held from the change before it (the ADD's time, or the memory's creation) until replaced.
 */
function withHistory(entries: unknown, type: MemoryType, metadata: Record<string, unknown>): RestoredMemory | string | undefined {
  if (entries === undefined || entries === null) return undefined;
  if (!Array.isArray(entries)) return 'history is not a list of mem0 history entries';
  const versions: RestoredVersion[] = [];
  let since: Date | null = null;
  for (const [i, entry] of entries.entries()) {
    if (!isObject(entry)) return `history entry ${i + 1} is not a JSON object`;
    const created = sourceTime(entry.created_at, `history entry ${i + 1} created_at`);
    const updated = sourceTime(entry.updated_at, `history entry ${i + 1} updated_at`);
    if (!created.ok) return created.problem;
    if (!updated.ok) return updated.problem;
    if (entry.event === 'ADD') since = created.date;
    if (entry.event !== 'UPDATE') continue;
    const changedAt = updated.date ?? created.date;
    if (typeof entry.old_memory !== 'string' || changedAt === null) return `history entry ${i + 1}: an UPDATE needs old_memory and a time`;
    versions.push({
      content: entry.old_memory,
      type,
      metadata,
      expiresAt: null,
      validFrom: since ?? created.date,
      validTo: null,
      supersededBy: null,
      changedAt,
      changedBy: textOf(entry.actor_id) ?? 'mem0',
      reason: 'mem0 UPDATE',
    });
    since = changedAt;
  }
  return { versions };
}

function toRow(item: unknown, i: number, placement: Placement): SourceRow {
  if (!isObject(item)) return { at: `memory ${i + 1}`, problem: 'not a JSON object' };
  const id = textOf(item.id);
  const at = `memory ${i + 1}${id ? ` (${id})` : ''}`;
  const content = textOf(item.memory);
  if (id === null) return { at, problem: 'no id' };
  if (content === null) return { at, problem: 'no memory text' };
  const apiKeyId = placement.apiKeyId ?? textOf(item[placement.keyFrom ?? 'user_id']);
  if (apiKeyId === null) return { at, problem: `no ${placement.keyFrom ?? 'user_id'} to choose its API key (or give --api-key)` };
  const metadata = sourceObject(item.metadata, 'metadata');
  const createdAt = sourceTime(item.created_at, 'created_at');
  if (!metadata.ok) return { at, problem: metadata.problem };
  if (!createdAt.ok) return { at, problem: createdAt.problem };
  const owners = Object.fromEntries(
    (['user_id', 'agent_id', 'run_id'] satisfies Mem0Field[]).flatMap((f) => (textOf(item[f]) ? [[f, item[f]]] : [])),
  );
  return {
    at,
    input: {
      apiKeyId,
      sessionId: placement.sessionFrom ? textOf(item[placement.sessionFrom]) : null,
      // mem0 tells procedural memories (an agent's steps) apart; everything else is a fact about its user.
      type: (metadata.object.memory_type === 'procedural_memory' ? 'procedural' : 'factual') satisfies MemoryType,
      key: `mem0:${id}`,
      content,
      metadata: {
        ...metadata.object,
        ...(Array.isArray(item.categories) ? { categories: item.categories } : {}),
        importedFrom: { system: 'mem0', id, ...owners },
      },
      createdAt: createdAt.date,
    },
  };
}
