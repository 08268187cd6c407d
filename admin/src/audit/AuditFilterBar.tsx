import { ApiKeyFilter } from '../components/ApiKeyInput';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { useAuditActorsQuery } from '../generated/graphql';
import { ACTION_LABELS, BUILT_IN_ACTORS } from './actions';
import type { AuditFilters } from './useAuditLogState';

interface Props {
  filters: AuditFilters;
  onChange: (patch: Partial<AuditFilters>) => void;
  onClear: () => void;
}

/** Action, actor (the built-in ones and every token, revoked too), API key and a time range. */
export function AuditFilterBar({ filters, onChange, onClear }: Props) {
  const tokens = useAuditActorsQuery(undefined, { staleTime: 60_000 }).data?.accessTokens ?? [];
  const known = BUILT_IN_ACTORS.some((a) => a.id === filters.actor) || tokens.some((t) => t.id === filters.actor);
  const filtered = Object.values(filters).some((v) => v !== '');
  return (
    <search className="audit-filters" aria-label="Filter the audit log">
      <ChoiceSelect
        label="Action"
        labels={ACTION_LABELS}
        value={filters.action}
        onChange={(action) => onChange({ action })}
        any="All actions"
      />
      <label className="field">
        <span>Actor</span>
        <select value={filters.actor} onChange={(e) => onChange({ actor: e.target.value })}>
          <option value="">Anyone</option>
          {BUILT_IN_ACTORS.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
          {tokens.map((t) => (
            <option key={t.id} value={t.id}>
              Token {t.name} ({t.tokenStart ? `${t.tokenStart}…` : `id ${t.id.slice(0, 8)}`})
            </option>
          ))}
          {/* An actor from the URL that no token here has (yet): still shown as chosen. */}
          {filters.actor !== '' && !known && <option value={filters.actor}>{filters.actor}</option>}
        </select>
      </label>
      <ApiKeyFilter value={filters.apiKeyId} onChange={(apiKeyId) => onChange({ apiKeyId })} />
      <label className="field">
        <span>From</span>
        <input type="datetime-local" value={filters.from} onChange={(e) => onChange({ from: e.target.value })} />
      </label>
      <label className="field">
        <span>Until</span>
        <input type="datetime-local" value={filters.until} onChange={(e) => onChange({ until: e.target.value })} />
      </label>
      <button type="button" className="ghost small" onClick={onClear} disabled={!filtered}>
        Clear filters
      </button>
    </search>
  );
}
