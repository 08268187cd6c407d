import { badInput } from '../../errors.ts';
import type { MemoryType } from '../../memory/memory.ts';
import { type Placement, type SourceReader, type SourceRow, sourceTime } from '../sourceRows.ts';
import { isObject, readJsonFile, textOf } from './sourceFile.ts';

/**
 * A Letta agent file (.af), as letta/serialize_schemas/pydantic_agent_schema.py describes it: `agents` (each with
 * id, name and the block_ids of its core memory), `blocks` (id, label, value, description) and, where the file has
 * them, archival `passages` (id, text, agent_id, created_at, tags). Each agent's blocks become memories keyed by agent
 * and label: the "human" block is what the agent knows of its user (factual), "persona" how it behaves (procedural),
 * any other label semantic. The memories go to --api-key, or to a key named after each agent.
 */
export const readLetta: SourceReader = async function* (file, placement) {
  const document = await readJsonFile(file, 'a Letta agent file');
  if (!isObject(document) || !Array.isArray(document.agents) || !Array.isArray(document.blocks)) {
    throw badInput(`${file} is not a Letta agent file: expected "agents" and "blocks"`);
  }
  const blocks = new Map(document.blocks.filter(isObject).map((b) => [String(b.id), b]));
  const agentKeys = new Map<string, { name: string; apiKeyId: string }>();
  for (const agent of document.agents.filter(isObject)) {
    const name = textOf(agent.name) ?? String(agent.id);
    agentKeys.set(String(agent.id), { name, apiKeyId: placement.apiKeyId ?? name });
    for (const blockId of Array.isArray(agent.block_ids) ? agent.block_ids : []) {
      const block = blocks.get(String(blockId));
      yield block
        ? blockRow(block, name, placement.apiKeyId ?? name)
        : { at: `agent ${name}`, problem: `names block ${String(blockId)}, which the file lacks` };
    }
  }
  const passages = Array.isArray(document.passages) ? document.passages : [];
  for (const [i, passage] of passages.entries()) yield passageRow(passage, i, agentKeys, placement);
};

const BLOCK_TYPES: Record<string, MemoryType> = { human: 'factual', persona: 'procedural' };

function blockRow(block: Record<string, unknown>, agent: string, apiKeyId: string): SourceRow {
  const label = textOf(block.label) ?? String(block.id);
  const at = `block ${label} of agent ${agent}`;
  const value = textOf(block.value);
  if (value === null) return { at, problem: 'the block is empty' };
  return {
    at,
    input: {
      apiKeyId,
      type: BLOCK_TYPES[label] ?? 'semantic',
      key: `letta:${agent}:${label}`,
      content: value,
      metadata: {
        label,
        ...(textOf(block.description) ? { description: block.description } : {}),
        importedFrom: { system: 'letta', agent, block: String(block.id) },
      },
    },
  };
}

function passageRow(passage: unknown, i: number, agents: Map<string, { name: string; apiKeyId: string }>, placement: Placement): SourceRow {
  if (!isObject(passage)) return { at: `passage ${i + 1}`, problem: 'not a JSON object' };
  const at = `passage ${i + 1}${passage.id ? ` (${String(passage.id)})` : ''}`;
  const text = textOf(passage.text);
  if (text === null) return { at, problem: 'no text' };
  const agent = agents.get(String(passage.agent_id));
  const apiKeyId = placement.apiKeyId ?? agent?.apiKeyId ?? null;
  if (apiKeyId === null) return { at, problem: 'belongs to no agent of the file (or give --api-key)' };
  const createdAt = sourceTime(passage.created_at, 'created_at');
  if (!createdAt.ok) return { at, problem: createdAt.problem };
  return {
    at,
    input: {
      apiKeyId,
      type: 'semantic',
      key: `letta:passage:${String(passage.id ?? i + 1)}`,
      content: text,
      metadata: {
        ...(Array.isArray(passage.tags) ? { tags: passage.tags } : {}),
        importedFrom: { system: 'letta', ...(agent ? { agent: agent.name } : {}), passage: String(passage.id ?? i + 1) },
      },
      createdAt: createdAt.date,
    },
  };
}
