import { type Embedder, EmbeddingError } from '../embedding/embedder.ts';
import type { Metrics } from './metrics.ts';

/** The same embedder, with each call to its model counted: texts per call, and the error kind of a failed one. */
export function meteredEmbedder(inner: Embedder, metrics: Metrics): Embedder {
  return {
    source: inner.source,
    model: inner.model,
    dimension: () => inner.dimension(),
    load: () => inner.load(),
    state: () => inner.state(),
    lastError: () => inner.lastError(),
    embed: async (texts) => {
      try {
        const vectors = await inner.embed(texts);
        metrics.observeEmbedding(inner.source, texts.length, null);
        return vectors;
      } catch (error) {
        metrics.observeEmbedding(inner.source, texts.length, error instanceof EmbeddingError ? error.kind : 'error');
        throw error;
      }
    },
  };
}
