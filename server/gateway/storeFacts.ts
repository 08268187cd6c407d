import { findMemoryRowById } from '../memory/memory.repository.ts';
import { createMemory, type MemoryDeps } from '../memory/memory.service.ts';
import { type Memory, rowToMemory } from '../memory/memory.ts';
import { addToMetadataList } from '../memory/storeOnce.ts';
import type { ExtractedFact } from './extraction.ts';

/** Where a batch of facts came from, kept in each memory's metadata. */
export interface FactOrigin {
  /** 'extraction': the rules; 'model': the extraction model. */
  source: 'extraction' | 'model';
  role: 'user' | 'assistant';
  sessionId: string | null;
  extractedAt: string;
  /** The captured turn the facts were said in (gateway/capture.ts), when it was captured. */
  sourceTurn?: string | null;
}

/**
 * Upserts extracted facts as memories of the key, on the caller's connection (run it in a transaction for all or
 * none). Facts describe the user, not the conversation, so they are stored key-wide; the session they came from is
 * kept in metadata, and the turn they were said in as sourceTurn.
 */
export async function storeFacts(
  deps: MemoryDeps,
  apiKeyId: string,
  facts: readonly ExtractedFact[],
  origin: FactOrigin,
): Promise<Memory[]> {
  const stored: Memory[] = [];
  for (const fact of facts) {
    const metadata = {
      source: origin.source,
      category: fact.category,
      polarity: fact.polarity,
      role: origin.role,
      sessionId: origin.sessionId,
      extractedAt: origin.extractedAt,
    };
    stored.push(
      await createMemory(deps, {
        apiKeyId,
        type: fact.type,
        key: fact.key,
        content: fact.content,
        metadata: origin.sourceTurn ? { ...metadata, sourceTurn: origin.sourceTurn } : metadata,
      }),
    );
  }
  return stored;
}

/**
 * Stores facts said in a captured turn and links both ways: each fact names the turn in sourceTurn, the turn lists the
 * facts. Run it in a transaction. `turnId` may name a turn deleted since it was captured (the extraction model answers
 * later): the facts are then stored without a source. Returns the facts and the turn as it is now.
 */
export async function storeFactsOfTurn(
  deps: MemoryDeps,
  apiKeyId: string,
  facts: readonly ExtractedFact[],
  origin: Omit<FactOrigin, 'sourceTurn'>,
  turnId: string | null,
): Promise<{ memories: Memory[]; turn: Memory | null }> {
  const row = turnId === null ? undefined : await findMemoryRowById(deps.db, turnId);
  const turn = row && row.api_key_id === apiKeyId ? rowToMemory(row) : null;
  const memories = await storeFacts(deps, apiKeyId, facts, { ...origin, sourceTurn: turn?.id ?? null });
  if (turn === null || memories.length === 0) return { memories, turn };
  const ids = memories.map((m) => m.id);
  return { memories, turn: await addToMetadataList(deps.db, turn, 'facts', ids) };
}
