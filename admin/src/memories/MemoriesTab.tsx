import { keepPreviousData } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { Pager } from '../components/Pager';
import { useMemoryListQuery, useMemoryOverviewQuery, useRestoreMemoryMutation } from '../generated/graphql';
import { AddMemoryForm } from './AddMemoryForm';
import { CompactPanel } from './CompactPanel';
import { ConversationPanel } from './ConversationPanel';
import { DeleteDialog, type DeleteTarget } from './DeleteDialog';
import { ExportButton } from './ExportButton';
import { ExtractionUsage } from './ExtractionUsage';
import { FilterBar } from './FilterBar';
import { ForgetKeyDialog, type ForgetReport } from './ForgetKeyDialog';
import { plural } from './format';
import { ImportPanel } from './ImportPanel';
import { MemoryTable } from './MemoryTable';
import type { TurnsOf } from './Origin';
import { StatCards } from './StatCards';
import { NO_FILTERS } from './types';
import { useInvalidateMemories } from './useInvalidateMemories';
import { useMemoryListState } from './useMemoryListState';
import './memories.css';

type Panel = 'add' | 'import' | 'compact' | 'conversation';
type Notice = { ok: string } | { error: unknown } | null;

/** Browse, search, edit, import, export and compact memories. */
export function MemoriesTab() {
  const list = useMemoryListState();
  const { data, error, isPending, isFetching, isPlaceholderData } = useMemoryListQuery(list.listVars, {
    placeholderData: keepPreviousData,
  });
  // The same query as the stat cards (one request): how many the retention window hides.
  const overview = useMemoryOverviewQuery(list.filterVars, { placeholderData: keepPreviousData });
  const [panel, setPanel] = useState<Panel | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [forgetting, setForgetting] = useState<string | null>(null);
  const [conversation, setConversation] = useState<TurnsOf | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const openers = useRef(new Map<Panel, HTMLButtonElement>());
  const ids = useId();
  const invalidate = useInvalidateMemories();
  const restore = useRestoreMemoryMutation({
    onSuccess: async ({ restoreMemory: m }) => {
      await invalidate();
      setNotice({ ok: `${m.key} is current again: it is retrieved and injected again.` });
      noticeRef.current?.focus();
    },
    onError: (e) => setNotice({ error: e }),
  });

  const page = data?.memories;
  const totalCount = page?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(totalCount / list.pageSize));
  const { page: current, setPage } = list;
  // A delete or a filter elsewhere can leave the page past the end: go to the last page that exists.
  useEffect(() => {
    if (page && !isPlaceholderData && current > pages) setPage(pages);
  }, [page, isPlaceholderData, current, pages, setPage]);

  const toggle = (p: Panel) => setPanel((open) => (open === p ? null : p));
  /** Closing a panel (its Close button, or Esc inside it) returns the focus to the button that opened it. */
  const close = () => {
    if (panel) openers.current.get(panel)?.focus();
    setPanel(null);
  };
  const onPanelKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close();
  };
  const panelId = (p: string) => `${ids}-${p}`;
  /** A row's button opens a session's conversation; closing it returns the focus to that button. */
  const openConversation = (turns: TurnsOf, trigger: HTMLButtonElement) => {
    openers.current.set('conversation', trigger);
    setConversation(turns);
    setPanel('conversation');
  };
  /** What makes a button the opener of panel `p`: it toggles the panel, says whether it is open, and gets the focus back. */
  const opens = (p: Panel) => ({
    ref: (el: HTMLButtonElement | null) => {
      if (el) openers.current.set(p, el);
    },
    'aria-expanded': panel === p,
    'aria-controls': panelId(p),
    onClick: () => toggle(p),
  });
  const filtered = Object.values(list.filterVars).some((v) => v !== undefined && v !== false);
  const stats = overview.data?.memories.stats;

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
          <h1>Memories</h1>
          <p className="muted">What mnemo remembers for each API key, and what it costs in tokens.</p>
        </div>
        <div className="mem-toolbar" role="toolbar" aria-label="Memory actions">
          <button type="button" className={panel === 'add' ? 'primary' : undefined} {...opens('add')}>
            Add memory
          </button>
          <button type="button" {...opens('import')}>
            Import
          </button>
          <ExportButton filters={list.filterVars} onDone={(ok) => setNotice({ ok })} onError={(e) => setNotice({ error: e })} />
          <button type="button" {...opens('compact')}>
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

      {/* Esc anywhere in an open panel closes it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys come from the controls inside; this only listens for Esc. */}
      <div onKeyDown={onPanelKey} className="mem-panels">
        {panel === 'add' && <AddMemoryForm id={panelId('add')} defaultApiKey={list.filters.apiKeyId} onClose={close} />}
        {panel === 'import' && <ImportPanel id={panelId('import')} onClose={close} />}
        {panel === 'compact' && <CompactPanel id={panelId('compact')} defaultApiKey={list.filters.apiKeyId} onClose={close} />}
        {panel === 'conversation' && conversation && (
          <ConversationPanel
            key={`${conversation.apiKeyId}\n${conversation.sessionId}`}
            id={panelId('conversation')}
            of={conversation}
            onClose={close}
            onShowAsTable={() => {
              setPanel(null);
              list.setFilters({ ...NO_FILTERS, ...conversation, source: 'TURNS' });
            }}
          />
        )}
      </div>

      <StatCards filters={list.filterVars} />

      <section className="card mem-list" aria-label="Memory list">
        <FilterBar filters={list.filters} onChange={list.setFilters} onClear={list.clearFilters} />
        {list.filterVars.apiKeyId && <ExtractionUsage apiKeyId={list.filterVars.apiKeyId} />}
        {page && page.searchWords.length > 0 && <ReadAs words={page.searchWords} />}
        {stats && stats.hiddenByRetention > 0 && !list.filters.showAll && (
          <p className="mem-hint" role="note">
            {plural(stats.hiddenByRetention, 'memory', 'memories')} older than the {stats.retentionDays}-day retention window{' '}
            {stats.hiddenByRetention === 1 ? 'is' : 'are'} hidden: kept, but never injected.{' '}
            <button type="button" className="linkish" onClick={() => list.setFilters({ showAll: true })}>
              Show {stats.hiddenByRetention === 1 ? 'it' : 'them'}
            </button>
          </p>
        )}
        {error != null && page && <ErrorNote error={error} prefix="Could not refresh" />}
        <MemoryTable
          items={page?.items ?? []}
          sort={list.sort}
          onSort={list.sortBy}
          onDelete={(memory, trigger) => setDeleting({ memory, trigger })}
          onOpenConversation={openConversation}
          onUndo={(m) => restore.mutate({ id: m.id })}
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

/** How the search was read: the words the index looks for, the last one as a beginning ("c++" is "c*"). */
function ReadAs({ words }: { words: readonly string[] }) {
  const last = words.at(-1) ?? '';
  return (
    <p className="mem-read-as muted">
      Read as{' '}
      {words.map((w, i) => (
        <span key={w}>
          {i > 0 && ' '}
          <code>{w}</code>
        </span>
      ))}
      : {words.length > 1 ? 'every word must appear; ' : ''}
      {last.endsWith('*') && (
        <>
          * matches any word starting with <code>{last.slice(0, -1)}</code>;{' '}
        </>
      )}
      punctuation and symbols are not searched.
    </p>
  );
}
