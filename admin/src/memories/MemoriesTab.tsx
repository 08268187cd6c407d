import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useMemoryListQuery } from '../generated/graphql';
import { AddMemoryForm } from './AddMemoryForm';
import { CompactPanel } from './CompactPanel';
import { DeleteDialog, type DeleteTarget } from './DeleteDialog';
import { ExportButton } from './ExportButton';
import { FilterBar } from './FilterBar';
import { ForgetKeyDialog, type ForgetReport } from './ForgetKeyDialog';
import { plural } from './format';
import { ImportPanel } from './ImportPanel';
import { MemoryTable } from './MemoryTable';
import { Pager } from './Pager';
import { StatCards } from './StatCards';
import { useKnownApiKeys } from './useKnownApiKeys';
import { useMemoryListState } from './useMemoryListState';
import './memories.css';

type Panel = 'add' | 'import' | 'compact' | null;
type Notice = { ok: string } | { error: unknown } | null;

/** Browse, search, edit, import, export and compact memories. */
export function MemoriesTab() {
  const list = useMemoryListState();
  const { data, error, isPending, isFetching, isPlaceholderData } = useMemoryListQuery(list.listVars, {
    placeholderData: keepPreviousData,
  });
  const [panel, setPanel] = useState<Panel>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [forgetting, setForgetting] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const ids = useId();
  const apiKeysListId = `${ids}-api-keys`;
  const apiKeys = useKnownApiKeys(data?.memories.items);

  const page = data?.memories;
  const totalCount = page?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(totalCount / list.pageSize));
  const { page: current, setPage } = list;
  // A delete or a filter elsewhere can leave the page past the end: go to the last page that exists.
  useEffect(() => {
    if (page && !isPlaceholderData && current > pages) setPage(pages);
  }, [page, isPlaceholderData, current, pages, setPage]);

  const toggle = (p: Exclude<Panel, null>) => setPanel((open) => (open === p ? null : p));
  const panelId = (p: string) => `${ids}-${p}`;
  const filtered = Object.values(list.filterVars).some((v) => v !== undefined && v !== false);

  const placeholder = isPending ? (
    <p className="muted">Loading memories…</p>
  ) : error && !page ? (
    <ErrorNote error={error} prefix="Memories could not be loaded" />
  ) : (
    <div className="mem-empty">
      <p>
        <strong>No memories match</strong>
      </p>
      <p className="muted">
        {filtered
          ? 'Try other words or filters, or show expired and archived memories too.'
          : 'Add one, import a file, or let your gateway store some.'}
      </p>
    </div>
  );

  return (
    <div className="mem-tab">
      <div className="mem-header">
        <div>
          <h2>Memories</h2>
          <p className="muted">What mnemo remembers for each API key, and what it costs in tokens.</p>
        </div>
        <div className="mem-toolbar" role="toolbar" aria-label="Memory actions">
          <button
            type="button"
            className={panel === 'add' ? 'primary' : undefined}
            aria-expanded={panel === 'add'}
            aria-controls={panelId('add')}
            onClick={() => toggle('add')}
          >
            Add memory
          </button>
          <button type="button" aria-expanded={panel === 'import'} aria-controls={panelId('import')} onClick={() => toggle('import')}>
            Import
          </button>
          <ExportButton filters={list.filterVars} onDone={(ok) => setNotice({ ok })} onError={(e) => setNotice({ error: e })} />
          <button type="button" aria-expanded={panel === 'compact'} aria-controls={panelId('compact')} onClick={() => toggle('compact')}>
            Compact old
          </button>
          <button
            type="button"
            className="danger"
            disabled={!list.filterVars.apiKeyId}
            title={list.filterVars.apiKeyId ? undefined : 'Filter by an API key first'}
            onClick={() => setForgetting(list.filterVars.apiKeyId ?? null)}
          >
            Forget this key
          </button>
        </div>
      </div>

      <div ref={noticeRef} tabIndex={-1} className="mem-notice" aria-live="polite">
        {notice && 'ok' in notice && (
          <p className="mem-ok-note">
            {notice.ok}{' '}
            <button type="button" className="ghost small" onClick={() => setNotice(null)} aria-label="Dismiss">
              ×
            </button>
          </p>
        )}
        {notice && 'error' in notice && <ErrorNote error={notice.error} prefix="Failed" />}
      </div>

      {panel === 'add' && (
        <AddMemoryForm
          id={panelId('add')}
          apiKeysListId={apiKeysListId}
          defaultApiKey={list.filters.apiKeyId}
          onClose={() => setPanel(null)}
        />
      )}
      {panel === 'import' && <ImportPanel id={panelId('import')} onClose={() => setPanel(null)} />}
      {panel === 'compact' && (
        <CompactPanel
          id={panelId('compact')}
          apiKeysListId={apiKeysListId}
          defaultApiKey={list.filters.apiKeyId}
          onClose={() => setPanel(null)}
        />
      )}

      <StatCards filters={list.filterVars} />

      <section className="card mem-list" aria-label="Memory list">
        <FilterBar filters={list.filters} onChange={list.setFilters} onClear={list.clearFilters} apiKeysListId={apiKeysListId} />
        {error != null && page && <ErrorNote error={error} prefix="Could not refresh" />}
        <MemoryTable
          items={page?.items ?? []}
          sort={list.sort}
          onSort={list.sortBy}
          onDelete={(memory, trigger) => setDeleting({ memory, trigger })}
          placeholder={placeholder}
          busy={isFetching || list.searchPending}
        />
        {page && page.totalCount > 0 && (
          <Pager
            page={list.page}
            pageSize={list.pageSize}
            totalCount={page.totalCount}
            shown={{ offset: page.offset, count: page.items.length }}
            onPage={list.setPage}
            onPageSize={list.setPageSize}
          />
        )}
      </section>

      <datalist id={apiKeysListId}>
        {apiKeys.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>

      <ForgetKeyDialog
        apiKeyId={forgetting}
        onClose={() => setForgetting(null)}
        onForgotten={(report) => {
          setForgetting(null);
          list.setFilters({ apiKeyId: '' });
          setNotice({ ok: forgottenNote(report) });
          noticeRef.current?.focus();
        }}
      />

      <DeleteDialog
        target={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(m) => {
          setDeleting(null);
          setNotice({ ok: `Deleted ${m.key}.` });
          noticeRef.current?.focus();
        }}
      />
    </div>
  );
}

function forgottenNote(r: ForgetReport): string {
  const removed = [
    plural(r.memories, 'memory', 'memories'),
    plural(r.summaries, 'summary', 'summaries'),
    plural(r.archivedOriginals, 'archived original'),
    plural(r.vectors, 'vector'),
  ].join(', ');
  const qdrant = r.qdrantDeletesQueued > 0 ? `; ${plural(r.qdrantDeletesQueued, 'Qdrant removal')} queued` : '';
  return `Forgot ${r.apiKeyId}: ${removed} removed${qdrant}.`;
}
