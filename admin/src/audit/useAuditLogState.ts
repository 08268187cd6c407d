import { useEffect, useMemo, useState } from 'react';
import type { AuditAction, AuditLogQueryVariables } from '../generated/graphql';
import { useUrlPaging } from '../lib/paging';
import { hashParams, replaceHashParams } from '../lib/route';
import { useDebouncedValue } from '../lib/useDebouncedValue';
import { fromLocalInput } from '../memories/format';
import { isAuditAction } from './actions';

/** The filters as the admin set them; times as <input type="datetime-local"> values (local time). */
export interface AuditFilters {
  action: AuditAction | '';
  /** A token id, 'env', 'cli' or 'system'; '' for anyone. */
  actor: string;
  apiKeyId: string;
  from: string;
  until: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { action: '', actor: '', apiKeyId: '', from: '', until: '' };

/** The URL parameter of each filter: "#/audit?action=SETTINGS_UPDATE&key=acme&page=2". */
const PARAM: Record<keyof AuditFilters, string> = { action: 'action', actor: 'actor', apiKeyId: 'key', from: 'from', until: 'until' };

function filtersFromUrl(): AuditFilters {
  const params = hashParams();
  const get = (name: keyof AuditFilters) => params.get(PARAM[name]) ?? '';
  const action = get('action');
  return {
    action: isAuditAction(action) ? action : '',
    actor: get('actor'),
    apiKeyId: get('apiKeyId'),
    from: get('from'),
    until: get('until'),
  };
}

/**
 * What the audit table shows: the filters (the API key debounced as it is typed), page size and page, all in the URL
 * so a reload or a shared link opens the same entries. Any change to the filters starts again at page 1.
 */
export function useAuditLogState() {
  const [filters, setFilters] = useState<AuditFilters>(filtersFromUrl);
  const apiKeyId = useDebouncedValue(filters.apiKeyId.trim(), 300);
  const settled = useMemo(() => ({ ...filters, apiKeyId }), [filters, apiKeyId]);
  const filterVars = useMemo(
    (): Omit<AuditLogQueryVariables, 'limit' | 'offset'> => ({
      action: settled.action || undefined,
      actor: settled.actor || undefined,
      apiKeyId: settled.apiKeyId || undefined,
      since: fromLocalInput(settled.from) ?? undefined,
      until: fromLocalInput(settled.until) ?? undefined,
    }),
    [settled],
  );
  const paging = useUrlPaging(JSON.stringify(filterVars));
  useEffect(() => {
    replaceHashParams(
      Object.fromEntries(Object.entries(PARAM).map(([name, param]) => [param, settled[name as keyof AuditFilters] || null])),
    );
  }, [settled]);

  return {
    filters,
    /** The API key is still waiting for typing to pause. */
    pending: apiKeyId !== filters.apiKeyId.trim(),
    vars: { ...filterVars, limit: paging.pageSize, offset: (paging.page - 1) * paging.pageSize } satisfies AuditLogQueryVariables,
    ...paging,
    setFilters: (patch: Partial<AuditFilters>) => setFilters((f) => ({ ...f, ...patch })),
    clearFilters: () => setFilters(NO_AUDIT_FILTERS),
  };
}
