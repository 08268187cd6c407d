import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { formatTime } from './components/format';
import { HealthDot } from './components/HealthDot';
import { useUnreachableSince } from './lib/connection';
import { hashPath } from './lib/route';
import { getToken, onTokenChange, setToken } from './lib/session';
import { forgetAllDrafts, useUnsavedDrafts } from './lib/useDraftForm';
import { MemoriesTab } from './memories/MemoriesTab';
import { SignIn } from './SignIn';
import { MemoryOffBanner } from './settings/MemoryOffBanner';

// The first screen is Memories: the other tabs load when first opened, keeping their code out of the first paint.
const TABS = [
  { id: 'memories', label: 'Memories', Component: MemoriesTab },
  {
    id: 'playground',
    label: 'Playground',
    Component: lazy(() => import('./playground/PlaygroundTab').then((m) => ({ default: m.PlaygroundTab }))),
  },
  {
    id: 'evaluate',
    label: 'Evaluate',
    Component: lazy(() => import('./evaluate/EvaluateTab').then((m) => ({ default: m.EvaluateTab }))),
  },
  { id: 'engine', label: 'Engine', Component: lazy(() => import('./engine/EngineTab').then((m) => ({ default: m.EngineTab }))) },
  { id: 'settings', label: 'Settings', Component: lazy(() => import('./settings/SettingsTab').then((m) => ({ default: m.SettingsTab }))) },
  { id: 'access', label: 'Access', Component: lazy(() => import('./access/AccessTab').then((m) => ({ default: m.AccessTab }))) },
  { id: 'data', label: 'Data', Component: lazy(() => import('./lifecycle/DataTab').then((m) => ({ default: m.DataTab }))) },
  { id: 'audit', label: 'Audit log', Component: lazy(() => import('./audit/AuditTab').then((m) => ({ default: m.AuditTab }))) },
] as const;
type TabId = (typeof TABS)[number]['id'];

const tabFromHash = (): TabId => {
  const id = hashPath();
  return TABS.some((t) => t.id === id) ? (id as TabId) : 'memories';
};

export function App() {
  const token = useSyncExternalStore(onTokenChange, getToken);
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabId>(tabFromHash);

  useEffect(() => {
    const onHash = () => setTab(tabFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // Another token means other permissions: nothing cached for the previous one may be shown, nor its drafts. Cleared as
  // the token changes (the listener runs inside setToken, before React renders the new screen), not in an effect after
  // the render: by then the new screen's queries have started, and clear() would cancel them, leaving them pending.
  useEffect(
    () =>
      onTokenChange(() => {
        queryClient.clear();
        forgetAllDrafts();
      }),
    [queryClient],
  );

  const unreachable = useUnreachableSince() !== null;
  if (!token) return <SignIn />;
  const active = TABS.find((t) => t.id === tab)!;
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          mnemo <span className="muted">Memory Studio</span>
        </div>
        <Tabs active={tab} />
        <div className="topbar-end">
          <HealthDot />
          <button type="button" className="ghost" onClick={() => setToken(null)}>
            Sign out
          </button>
        </div>
      </header>
      <UnreachableBanner />
      <MemoryOffBanner />
      <main className={unreachable ? 'panel stale' : 'panel'}>
        <div role="tabpanel" id={`panel-${active.id}`} aria-labelledby={`tab-${active.id}`} className="panel-body">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <active.Component />
          </Suspense>
        </div>
      </main>
    </div>
  );
}

/**
 * The sections as WAI-ARIA tabs: one tab stop, arrow keys (and Home, End) move between the tabs and open them. A tab
 * whose forms hold unsaved edits says so; the edits are kept until saved or discarded.
 */
function Tabs({ active }: { active: TabId }) {
  const unsaved = useUnsavedDrafts();
  const refs = useRef(new Map<TabId, HTMLButtonElement>());
  const open = (id: TabId, focus: boolean) => {
    window.location.hash = `#/${id}`;
    if (focus) refs.current.get(id)?.focus();
  };
  function onKeyDown(event: KeyboardEvent) {
    const at = TABS.findIndex((t) => t.id === active);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    open(TABS[(to + TABS.length) % TABS.length]!.id, true);
  }
  return (
    <div role="tablist" aria-label="Sections" className="tabs" onKeyDown={onKeyDown}>
      {TABS.map((t) => {
        const dirty = unsaved.some((name) => name.startsWith(`${t.id}/`));
        return (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === active}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === active ? 0 : -1}
            className="tab"
            onClick={() => open(t.id, false)}
          >
            {t.label}
            {dirty && (
              <span className="tab-unsaved" title="Unsaved changes">
                <span aria-hidden="true">•</span>
                <span className="sr-only"> (unsaved changes)</span>
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

/** One banner for a server that does not answer, instead of an error in every panel; it goes when an answer comes. */
function UnreachableBanner() {
  const since = useUnreachableSince();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (since === null) return;
    // Keep asking, so the banner goes by itself once the server is back.
    const timer = setInterval(() => void queryClient.refetchQueries({ type: 'active' }), 5_000);
    return () => clearInterval(timer);
  }, [since, queryClient]);
  if (since === null) return null;
  return (
    <div className="banner banner-danger" role="alert">
      <strong>The server cannot be reached</strong> (since {formatTime(new Date(since).toISOString())}). What you see was loaded before;
      nothing can be loaded or saved until it answers again.
      <button type="button" className="small" onClick={() => void queryClient.refetchQueries({ type: 'active' })}>
        Try again
      </button>
    </div>
  );
}
