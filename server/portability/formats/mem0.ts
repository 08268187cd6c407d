import { badInput } from '../../errors.ts';
import type { MemoryType } from '../../memory/memory.ts';
import { type Mem0Field, type Placement, type SourceReader, type SourceRow, sourceObject, sourceTime } from '../sourceRows.ts';
import { isObject, readJsonFile, textOf } from './sourceFile.ts';

/**
 * mem0's memories as its `get_all()` returns them (mem0/memory/main.py in its open-source package, and the platform's
 * export): `{ "results": [...] }` or a bare list, each memory with id, memory (the text), hash, metadata, categories,
 * created_at, updated_at and the user_id, agent_id and run_id it belongs to. Which of those names the API key and the
 * session is the operator's choice (--key-from, --session-from); each memory is keyed by its mem0 id, so importing
 * the file again updates the same memories.
 */
export const readMem0: SourceReader = async function* (file, placement) {
  const document = await readJsonFile(file, 'a mem0 export: { "results": [...] } or a list of memories');
  const memories = Array.isArray(document) ? document : isObject(document) ? document.results : undefined;
  if (!Array.isArray(memories)) throw badInput(`${file} is not a mem0 export: expected { "results": [...] } or a list of memories`);
  for (const [i, item] of memories.entries()) yield toRow(item, i, placement);
};

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
