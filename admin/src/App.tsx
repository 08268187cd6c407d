import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { AccessTab } from './access/AccessTab';
import { HealthDot } from './components/HealthDot';
import { EngineTab } from './engine/EngineTab';
import { getToken, onTokenChange, setToken } from './lib/session';
import { MemoriesTab } from './memories/MemoriesTab';
import { PlaygroundTab } from './playground/PlaygroundTab';
import { SignIn } from './SignIn';
import { SettingsTab } from './settings/SettingsTab';

const TABS = [
  { id: 'memories', label: 'Memories', Component: MemoriesTab },
  { id: 'playground', label: 'Playground', Component: PlaygroundTab },
  { id: 'engine', label: 'Engine', Component: EngineTab },
  { id: 'settings', label: 'Settings', Component: SettingsTab },
  { id: 'access', label: 'Access', Component: AccessTab },
] as const;
type TabId = (typeof TABS)[number]['id'];

const tabFromHash = (): TabId => {
  const id = window.location.hash.replace(/^#\/?/, '');
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

  // Another token means other permissions: nothing cached for the previous one may be shown. Cleared as the token
  // changes (the listener runs inside setToken, before React renders the new screen), not in an effect after the
  // render: by then the new screen's queries have started, and clear() would cancel them, leaving them pending forever.
  useEffect(() => onTokenChange(() => queryClient.clear()), [queryClient]);

  if (!token) return <SignIn />;
  const active = TABS.find((t) => t.id === tab)!;
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          mnemo <span className="muted">Memory Studio</span>
        </div>
        <div role="tablist" aria-label="Sections" className="tabs">
          {TABS.map((t) => (
            <a
              key={t.id}
              role="tab"
              href={`#/${t.id}`}
              aria-selected={t.id === tab}
              aria-controls={`panel-${t.id}`}
              id={`tab-${t.id}`}
              className="tab"
            >
              {t.label}
            </a>
          ))}
        </div>
        <div className="topbar-end">
          <HealthDot />
          <button type="button" className="ghost" onClick={() => setToken(null)}>
            Sign out
          </button>
        </div>
      </header>
      <main role="tabpanel" id={`panel-${active.id}`} aria-labelledby={`tab-${active.id}`} className="panel">
        <active.Component />
      </main>
    </div>
  );
}
