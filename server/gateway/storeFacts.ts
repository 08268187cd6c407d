import { AUTHORS } from '../memory/change.ts';
import { createMemory, type MemoryDeps } from '../memory/memory.service.ts';
import type { Memory } from '../memory/memory.ts';
import type { Settings } from '../settings/settings.service.ts';
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
 * Upserts extracted facts as memories of the key (or merges them into the memories they restate), on the caller's
 * connection (run it in a transaction for all or none, with the settings read before it). Facts describe the user, not the conversation, so they are stored key-wide; the session they came from is
 * kept in metadata, and the turn they were said in as sourceTurn.
 */
export async function storeFacts(
  deps: MemoryDeps,
  apiKeyId: string,
  facts: readonly ExtractedFact[],
  origin: FactOrigin,
  settings: Settings,
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
      await createMemory(
        deps,
        {
          apiKeyId,
          type: fact.type,
          key: fact.key,
          content: fact.content,
          metadata: origin.sourceTurn ? { ...metadata, sourceTurn: origin.sourceTurn } : metadata,
        },
        { by: AUTHORS.extraction, why: origin.source === 'model' ? 'said in a message (extraction model)' : 'said in a message' },
        { keyFromText: true, settings },
      ),
    );
  }
  return stored;
}
