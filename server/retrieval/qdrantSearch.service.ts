import { z } from 'zod';
import { badInput, DomainError } from '../errors.ts';
import { type Memory, rowToMemory } from '../memory/memory.ts';
import { apiKeyIdSchema, LIMITS, parseInput } from '../validation.ts';
import { memoriesInScope } from './retrieval.repository.ts';
import { retrievalScope } from './retrieval.service.ts';
import type { RetrievalDeps } from './retrieval.ts';

const topKRange = `topK must be 1 to ${LIMITS.qdrantTopK}`;

const inputSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  query: z.string().trim().min(1, 'query must not be empty').max(LIMITS.qdrantQueryChars),
  topK: z.number().int().min(1, topKRange).max(LIMITS.qdrantTopK, topKRange),
});

export interface QdrantSearchResult {
  hits: { score: number; memory: Memory }[];
  latencyMs: number;
}

/**
 * The admin's check of what Qdrant holds: a query searched in Qdrant alone, within one API key and the same
 * scope as retrieval (expired, out-of-retention and archived memories are left out, in Qdrant and again here).
 * Fails with BAD_USER_INPUT while Qdrant or the model is not set up, and UNAVAILABLE while they cannot be reached.
 */
export async function searchQdrant(deps: RetrievalDeps, input: z.input<typeof inputSchema>): Promise<QdrantSearchResult> {
  const { apiKeyId, query, topK } = parseInput(inputSchema, input);
  if (!deps.vectors) throw badInput('Qdrant search failed: no vector search is configured');
  const scope = retrievalScope(deps.now(), await deps.settings.get(), { apiKeyId });
  const { hits, latencyMs } = await deps.vectors.searchQdrant(query, scope, topK).catch((error: unknown) => {
    throw error instanceof DomainError ? new DomainError(error.code, `Qdrant search failed: ${error.message}`, { cause: error }) : error;
  });
  const rows = new Map(
    (
      await memoriesInScope(
        deps.db,
        scope,
        hits.map((h) => h.pk),
      )
    ).map((r) => [r.pk, r]),
  );
  return {
    latencyMs,
    hits: hits.flatMap((h) => {
      const row = rows.get(h.pk);
      return row ? [{ score: h.similarity, memory: rowToMemory(row) }] : [];
    }),
  };
}
