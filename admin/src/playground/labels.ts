import type { RetrievalTier } from '../generated/graphql';

export const TIER_LABEL: Record<RetrievalTier, string> = {
  ENFORCED: 'Enforced',
  EXACT: 'Exact',
  KEYWORD: 'Keyword',
  VECTOR: 'Vector',
  HYBRID: 'Hybrid',
  ADJACENT: 'Adjacent',
  PROFILE: 'Profile',
};
