import type { RetrievalStrategy } from '../generated/graphql';

/** The retrieval strategies as the Studio offers them, in the order it lists them. */
export const STRATEGY_LABELS: Record<RetrievalStrategy, string> = {
  HYBRID: 'Hybrid (keyword + semantic)',
  SEMANTIC: 'Semantic',
  EXACT: 'Exact (newest first)',
};
