import type { MemoryListQueryVariables, MemoryOrderField, MemorySource, MemoryType, SortDirection } from '../generated/graphql';

export const MEMORY_TYPES: readonly MemoryType[] = ['FACTUAL', 'EPISODIC', 'PROCEDURAL', 'SEMANTIC', 'ENFORCED'];

export const TYPE_LABELS: Record<MemoryType, string> = {
  FACTUAL: 'Factual',
  EPISODIC: 'Episodic',
  PROCEDURAL: 'Procedural',
  SEMANTIC: 'Semantic',
  ENFORCED: 'Enforced',
};

/** One colour per type, shared by the badges and both charts. */
export const TYPE_COLORS: Record<MemoryType, string> = {
  FACTUAL: '#6d5efc',
  EPISODIC: '#0ea5e9',
  PROCEDURAL: '#16a34a',
  SEMANTIC: '#f59e0b',
  ENFORCED: '#e5484d',
};

export const SOURCE_LABELS: Record<MemorySource, string> = {
  FACTS: 'Facts',
  TURNS: 'Captured turns',
  ALL: 'All',
};

export const isMemorySource = (v: unknown): v is MemorySource => typeof v === 'string' && Object.hasOwn(SOURCE_LABELS, v);

/** What the user typed into the filter bar, before trimming and debouncing. */
export interface MemoryFilters {
  search: string;
  apiKeyId: string;
  sessionId: string;
  type: MemoryType | '';
  /** Facts (and everything else not captured), captured chat turns, or both. */
  source: MemorySource;
  /** Expired, out-of-retention and archived memories too. */
  showAll: boolean;
  /** Memories that no longer hold (superseded by a newer fact) too. */
  showSuperseded: boolean;
}

export const NO_FILTERS: MemoryFilters = {
  search: '',
  apiKeyId: '',
  sessionId: '',
  type: '',
  source: 'ALL',
  showAll: false,
  showSuperseded: false,
};

export interface MemorySort {
  orderBy: MemoryOrderField;
  direction: SortDirection;
}

/** The filter arguments shared by the list, the stats and the export. */
export type FilterVariables = Omit<MemoryListQueryVariables, 'limit' | 'offset' | 'orderBy' | 'direction'>;

export function filterVariables(f: MemoryFilters): FilterVariables {
  const text = (s: string) => s.trim() || undefined;
  return {
    search: text(f.search),
    apiKeyId: text(f.apiKeyId),
    sessionId: text(f.sessionId),
    type: f.type || undefined,
    source: f.source === 'ALL' ? undefined : f.source,
    includeExpired: f.showAll,
    includeArchived: f.showAll,
    includeSuperseded: f.showSuperseded,
  };
}

export const isMemoryType = (v: unknown): v is MemoryType => typeof v === 'string' && (MEMORY_TYPES as readonly string[]).includes(v);
