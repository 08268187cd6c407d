import { ApiKeyInput } from '../components/ApiKeyInput';
import type { MemoryType } from '../generated/graphql';
import { MEMORY_TYPES, type MemoryFilters, TYPE_LABELS } from './types';

interface Props {
  filters: MemoryFilters;
  onChange: (patch: Partial<MemoryFilters>) => void;
  onClear: () => void;
}

/** Search (debounced by the list state), API key, session and type filters, and the expired/archived toggle. */
export function FilterBar({ filters, onChange, onClear }: Props) {
  const filtered = filters.search !== '' || filters.apiKeyId !== '' || filters.sessionId !== '' || filters.type !== '' || filters.showAll;
  return (
    <search className="mem-filters" aria-label="Filter memories">
      <label className="field mem-search">
        <span>Search</span>
        <input
          type="search"
          value={filters.search}
          onChange={(e) => onChange({ search: e.target.value })}
          placeholder="Words in the content or key"
        />
      </label>
      <label className="field">
        <span>API key</span>
        <ApiKeyInput value={filters.apiKeyId} onChange={(e) => onChange({ apiKeyId: e.target.value })} placeholder="All keys" />
      </label>
      <label className="field">
        <span>Session</span>
        <input
          value={filters.sessionId}
          onChange={(e) => onChange({ sessionId: e.target.value })}
          placeholder="All sessions"
          spellCheck={false}
        />
      </label>
      <label className="field">
        <span>Type</span>
        <select value={filters.type} onChange={(e) => onChange({ type: e.target.value as MemoryType | '' })}>
          <option value="">All types</option>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="switch mem-showall">
        <input type="checkbox" checked={filters.showAll} onChange={(e) => onChange({ showAll: e.target.checked })} />
        <span>Show expired and archived</span>
      </label>
      <button type="button" className="ghost small" onClick={onClear} disabled={!filtered}>
        Clear filters
      </button>
    </search>
  );
}
