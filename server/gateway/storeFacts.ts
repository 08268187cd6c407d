import { createMemory, type MemoryDeps } from '../memory/memory.service.ts';
import type { Memory } from '../memory/memory.ts';
import type { ExtractedFact } from './extraction.ts';

/** Where a batch of facts came from, kept in each memory's metadata. */
export interface FactOrigin {
  /** 'extraction': the rules; 'model': the extraction model. */
  source: 'extraction' | 'model';
  role: 'user' | 'assistant';
  sessionId: string | null;
  extractedAt: string;
}

/**
 * Upserts extracted facts as memories of the key, all in one transaction. Facts describe the user, not the
 * conversation, so they are stored key-wide; the session they came from is kept in metadata.
 */
export function storeFacts(deps: MemoryDeps, apiKeyId: string, facts: readonly ExtractedFact[], origin: FactOrigin): Promise<Memory[]> {
  return deps.db.transaction().execute(async (trx) => {
    const stored: Memory[] = [];
    for (const fact of facts) {
      stored.push(
        await createMemory(
          { ...deps, db: trx },
          {
            apiKeyId,
            type: fact.type,
            key: fact.key,
            content: fact.content,
            metadata: {
              source: origin.source,
              category: fact.category,
              polarity: fact.polarity,
              role: origin.role,
              sessionId: origin.sessionId,
              extractedAt: origin.extractedAt,
            },
          },
        ),
      );
    }
    return stored;
  });
}
