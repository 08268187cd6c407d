import { type Embedder, EmbeddingError, observedEmbedder } from '../embedding/embedder.ts';
import type { Metrics } from './metrics.ts';

/** The same embedder, with each call to its model counted: texts per call, and the error kind of a failed one. */
export function meteredEmbedder(inner: Embedder, metrics: Metrics): Embedder {
  return observedEmbedder(inner, (texts, error) =>
    metrics.observeEmbedding(inner.source, texts, error === null ? null : error instanceof EmbeddingError ? error.kind : 'error'),
  );
}
