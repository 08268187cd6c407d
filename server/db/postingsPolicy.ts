/**
 * How much of the keyword index a process holds in memory as keys' postings (keyPostings.ts), on either store
 * (sqlite/keywordIndex.ts, postgres/keywordIndex.ts).
 */
export const POSTINGS_POLICY = {
  /** Keys this small are built before the search that asked for them (tens of ms); larger ones behind it. */
  builtInline: 1_000,
  /** More changes than this since a key was last searched are caught up by building its postings anew. */
  mostChangesApplied: 2_000,
  /**
   * Postings held by one process across keys: about 110 MB (a key of 100,000 memories holds 1.6 million in about 90
   * MB). A key beyond it is always ranked by the store's own statement.
   */
  budget: 2_000_000,
} as const;
