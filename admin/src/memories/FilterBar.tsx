import { ApiKeyFilter } from '../components/ApiKeyInput';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { type MemoryFilters, TYPE_LABELS } from './types';

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
      <ApiKeyFilter value={filters.apiKeyId} onChange={(apiKeyId) => onChange({ apiKeyId })} />
      <label className="field">
        <span>Session</span>
        <input
          value={filters.sessionId}
          onChange={(e) => onChange({ sessionId: e.target.value })}
          placeholder="All sessions"
          spellCheck={false}
        />
      </label>
      <ChoiceSelect label="Type" labels={TYPE_LABELS} value={filters.type} onChange={(type) => onChange({ type })} any="All types" />
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
