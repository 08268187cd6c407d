import { ApiKeyFilter } from '../components/ApiKeyInput';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { type MemoryFilters, NO_FILTERS, SOURCE_LABELS, TYPE_LABELS } from './types';

interface Props {
  filters: MemoryFilters;
  onChange: (patch: Partial<MemoryFilters>) => void;
  onClear: () => void;
}

/** Search (debounced by the list state), API key, session, type and source filters, and the expired/archived and superseded toggles. */
export function FilterBar({ filters, onChange, onClear }: Props) {
  const filtered =
    filters.search !== '' ||
    filters.apiKeyId !== '' ||
    filters.sessionId !== '' ||
    filters.type !== '' ||
    filters.source !== NO_FILTERS.source ||
    filters.showAll ||
    filters.showSuperseded;
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
      <ChoiceSelect
        label="Show"
        labels={SOURCE_LABELS}
        value={filters.source}
        onChange={(source) => onChange({ source: source || 'ALL' })}
      />
      <label className="switch mem-showall">
        <input type="checkbox" checked={filters.showAll} onChange={(e) => onChange({ showAll: e.target.checked })} />
        <span>Show expired and archived</span>
      </label>
      <label className="switch mem-showall">
        <input type="checkbox" checked={filters.showSuperseded} onChange={(e) => onChange({ showSuperseded: e.target.checked })} />
        <span>Show superseded</span>
      </label>
      <button type="button" className="ghost small" onClick={onClear} disabled={!filtered}>
        Clear filters
      </button>
    </search>
  );
}
