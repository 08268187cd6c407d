import { keepPreviousData } from '@tanstack/react-query';
import { ErrorNote } from '../components/ErrorNote';
import { Pager } from '../components/Pager';
import { useAuditLogQuery } from '../generated/graphql';
import { AuditFilterBar } from './AuditFilterBar';
import { AuditTable } from './AuditTable';
import { useAuditLogState } from './useAuditLogState';
import './audit.css';

/** Who did what, when, and how it ended: the admin-level actions the server recorded, newest first. */
export function AuditTab() {
  const state = useAuditLogState();
  const { data, error, isPending, isFetching } = useAuditLogQuery(state.vars, { placeholderData: keepPreviousData });
  const page = data?.auditLog;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Admin-level actions as they were recorded: who, when, on which API key, field by field for settings. Entries are never edited;
            the oldest are deleted after the audit retention.
          </p>
        </div>
      </div>
      <section className="card audit-list" aria-label="Audit entries" aria-busy={isFetching || state.pending}>
        <AuditFilterBar filters={state.filters} onChange={state.setFilters} onClear={state.clearFilters} />
        {isPending ? (
          <p className="muted">Loading the audit log…</p>
        ) : !page ? (
          <ErrorNote error={error} prefix="The audit log could not be loaded" />
        ) : (
          <>
            {error != null && <ErrorNote error={error} prefix="Could not refresh" />}
            {page.items.length === 0 ? (
              <p className="muted audit-empty">No entries match these filters.</p>
            ) : (
              <AuditTable items={page.items} />
            )}
            {page.totalCount > 0 && (
              <Pager
                page={state.page}
                pageSize={state.pageSize}
                totalCount={page.totalCount}
                shown={{ offset: page.offset, count: page.items.length }}
                onPage={state.setPage}
                onPageSize={state.setPageSize}
              />
            )}
          </>
        )}
      </section>
    </>
  );
}
