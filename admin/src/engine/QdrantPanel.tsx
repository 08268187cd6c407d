import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Card } from '../components/Card';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { FormError } from '../components/FormError';
import { formatInt, formatScore } from '../components/format';
import { KeyField, useWriteOnlyKey } from '../components/KeyState';
import { SaveActions } from '../components/SaveActions';
import { ScrollRegion } from '../components/ScrollRegion';
import {
  type QdrantQuantization,
  type QdrantSettingsFieldsFragment,
  useEngineStatusQuery,
  useMemorySettingsQuery,
  useQdrantCleanupMutation,
  useQdrantHealthQuery,
  useQdrantSearchTestMutation,
  useQdrantSettingsQuery,
  useUpdateQdrantSettingsMutation,
} from '../generated/graphql';
import { numberOf, numberProblem } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import './qdrant.css';

type Settings = QdrantSettingsFieldsFragment;

const QUANTIZATIONS: { value: QdrantQuantization; label: string }[] = [
  { value: 'NONE', label: 'None' },
  { value: 'INT8', label: 'INT8 (scalar)' },
  { value: 'BINARY', label: 'Binary' },
];

const ENV_NAME: Record<string, string> = {
  url: 'MNEMO_QDRANT_URL',
  collection: 'MNEMO_QDRANT_COLLECTION',
  apiKey: 'MNEMO_QDRANT_API_KEY',
  timeoutMs: 'MNEMO_QDRANT_TIMEOUT_MS',
};

/**
 * Qdrant as the vector store: where it is (the API key is write-only), whether it is used, a connection
 * test, a search in Qdrant alone, and a clean-up of stale points. The Qdrant status card above shows what
 * it holds.
 */
export function QdrantPanel() {
  const settings = useQdrantSettingsQuery();
  const s = settings.data?.qdrantSettings;
  return (
    <Card
      titleId="qdrant-title"
      title="Qdrant"
      sub="An external vector store for large memory sets. The Qdrant card above says what answers whenever Qdrant cannot."
    >
      {settings.isPending ? (
        <p className="muted">Loading the Qdrant settings…</p>
      ) : !s ? (
        <ErrorNote error={settings.error} prefix="The Qdrant settings could not be loaded" />
      ) : (
        <div className="qdrant-grid">
          <ConnectionForm settings={s} />
          <div className="qdrant-tools">
            <SearchTest configured={s.url !== null} />
            <Cleanup configured={s.url !== null} />
          </div>
        </div>
      )}
    </Card>
  );
}

interface Draft {
  enabled: boolean;
  url: string;
  collection: string;
  quantization: QdrantQuantization;
  timeoutMs: string;
}

const draftOf = (s: Settings): Draft => ({
  enabled: s.enabled,
  url: s.url ?? '',
  collection: s.collection,
  quantization: s.quantization,
  timeoutMs: String(s.timeoutMs),
});

/**
 * The connection settings. The draft follows the server while untouched and is kept while edited. The API
 * key field is a password input never filled from the server and not controlled by React, so the key is
 * never mirrored into the page: empty keeps the stored key, "Remove key" sends "".
 */
function ConnectionForm({ settings }: { settings: Settings }) {
  const queryClient = useQueryClient();
  const id = useId();
  const key = useWriteOnlyKey();

  const health = useMutation({ mutationFn: () => useQdrantHealthQuery.fetcher()() });
  const save = useUpdateQdrantSettingsMutation({
    onSuccess: ({ updateQdrantSettings }) => {
      queryClient.setQueryData(useQdrantSettingsQuery.getKey(), { qdrantSettings: updateQdrantSettings });
      void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() });
      // Enabling Qdrant changes vectorStore in the memory settings.
      void queryClient.invalidateQueries({ queryKey: useMemorySettingsQuery.getKey() });
      key.saved();
      form.saved();
      health.reset();
    },
  });
  const fixed = (field: string) => settings.fromEnvironment.includes(field);
  // The URL's and the collection's form, the timeout's range and "a URL before enabling" are the server's to judge.
  const form = useDraftForm<Draft>({
    keep: 'engine/qdrant',
    source: draftOf(settings),
    error: save.error,
    onEdit: save.reset,
    check: (d) => ({ timeoutMs: numberProblem('The timeout', d.timeoutMs, { required: true }) }),
    onSubmit: (d) => {
      const url = d.url.trim();
      save.mutate({
        input: {
          enabled: d.enabled,
          // Values fixed by the environment are not sent: the server would store them and still use the variable.
          ...(fixed('url') ? {} : { url: url === '' ? null : url }),
          ...(fixed('collection') ? {} : { collection: d.collection.trim() }),
          ...(fixed('timeoutMs') ? {} : { timeoutMs: numberOf(d.timeoutMs) }),
          quantization: d.quantization,
          ...(fixed('apiKey') ? {} : key.change()),
        },
      });
    },
  });
  const draft = form.draft!;
  const dirty = form.dirty || key.removing;
  const edit = form.edit;

  const envNote = (field: string) =>
    fixed(field) ? (
      <span className="muted small-note env-note">
        set by <code>{ENV_NAME[field]}</code>
      </span>
    ) : null;

  return (
    <form className="qdrant-connection" onSubmit={form.submit} aria-label="Qdrant connection" noValidate>
      <label className="switch">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => edit({ enabled: e.target.checked })} />
        <span>Use Qdrant as the vector store</span>
      </label>
      <p className="muted small-note qdrant-switch-note">
        On sets vectorStore to QDRANT; off returns it to AUTO. A reindex afterwards gives Qdrant the vector of every memory.
      </p>
      <div className="qdrant-fields">
        <DraftField
          form={form}
          name="url"
          label="URL"
          className="qdrant-url"
          placeholder="http://localhost:6333"
          autoComplete="off"
          spellCheck={false}
          disabled={fixed('url')}
        >
          {envNote('url')}
        </DraftField>
        <DraftField form={form} name="collection" label="Collection" autoComplete="off" spellCheck={false} disabled={fixed('collection')}>
          {envNote('collection')}
        </DraftField>
        <label className="field">
          <span>Quantization</span>
          <select value={draft.quantization} onChange={(e) => edit({ quantization: e.target.value as QdrantQuantization })}>
            {QUANTIZATIONS.map((q) => (
              <option key={q.value} value={q.value}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
        <DraftField form={form} name="timeoutMs" label="Timeout (ms)" inputMode="numeric" disabled={fixed('timeoutMs')}>
          {envNote('timeoutMs')}
        </DraftField>
      </div>
      <p className="muted small-note">
        Quantization applies when the collection is created: smaller vectors in Qdrant's memory, rescored with the originals on every
        search.
      </p>

      <KeyField
        secret={key}
        name={`${id}-qdrant-api-key`}
        hasKey={settings.hasApiKey}
        missingTone="grey"
        fixed={fixed('apiKey')}
        onChange={() => save.reset()}
      >
        {envNote('apiKey')}
      </KeyField>

      <SaveActions save={save} form={form} label="Save Qdrant settings">
        <button type="button" onClick={() => health.mutate()} disabled={health.isPending || settings.url === null}>
          {health.isPending ? 'Testing…' : 'Test connection'}
        </button>
      </SaveActions>
      {settings.url === null && <p className="muted small-note">Save a URL to test the connection.</p>}
      {dirty && settings.url !== null && <p className="muted small-note">The test uses the saved settings.</p>}
      <ErrorNote error={health.error} prefix="Test failed" />
      {health.data && (
        <p
          role="status"
          aria-label="Connection test"
          className={health.data.qdrantHealth.ready ? 'qdrant-test ok-line' : 'qdrant-test error'}
        >
          {health.data.qdrantHealth.ready ? (
            <>
              <strong className="ok-text">Connected</strong>: Qdrant is ready, answered in {health.data.qdrantHealth.latencyMs.toFixed(1)}{' '}
              ms.
            </>
          ) : (
            <>Not ready: {health.data.qdrantHealth.error ?? 'no reason given'}</>
          )}
        </p>
      )}
    </form>
  );
}

interface SearchDraft {
  query: string;
  apiKeyId: string;
  topK: string;
}

const NEW_SEARCH: SearchDraft = { query: '', apiKeyId: '', topK: '10' };

/** Searches Qdrant alone for one API key, with the current embedding model: what does it hold? */
function SearchTest({ configured }: { configured: boolean }) {
  const search = useQdrantSearchTestMutation();
  // topK's range is the server's to judge; its message shows beside the field.
  const form = useDraftForm<SearchDraft>({
    source: NEW_SEARCH,
    error: search.error,
    check: (d) => ({
      query: d.query.trim() === '' ? 'Type what to search for.' : undefined,
      apiKeyId: d.apiKeyId.trim() === '' ? 'Enter the API key to search within.' : undefined,
      topK: numberProblem('Top K', d.topK, { required: true }),
    }),
    onSubmit: (d) => search.mutate({ query: d.query.trim(), apiKeyId: d.apiKeyId.trim(), topK: numberOf(d.topK) }),
  });

  const result = search.data?.qdrantSearchTest;
  return (
    <form className="qdrant-tool" onSubmit={form.submit} aria-label="Qdrant search test" noValidate>
      <h3>Search test</h3>
      <p className="muted small-note">Embeds the query with the current model and searches Qdrant alone, within one API key.</p>
      <div className="qdrant-search-fields">
        <DraftField form={form} name="query" label="Query" placeholder="what does the user like?" autoComplete="off" />
        <DraftField form={form} name="apiKeyId" label="API key ID" apiKey placeholder="acme" />
        <DraftField form={form} name="topK" label="Top K" inputMode="numeric" />
        <button type="submit" className="primary" disabled={!configured || search.isPending}>
          {search.isPending ? 'Searching…' : 'Search'}
        </button>
      </div>
      <FormError error={search.error} form={form} prefix="Search failed" />
      {result && (
        <section className="qdrant-hits" aria-label="Search test hits">
          <p className="muted small-note">
            {result.hits.length === 0 ? 'No hits' : `${formatInt(result.hits.length)} ${result.hits.length === 1 ? 'hit' : 'hits'}`} ·
            Qdrant answered in {result.latencyMs.toFixed(1)} ms
          </p>
          {result.hits.length > 0 && (
            <ScrollRegion label="Hits table">
              <table>
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      Score
                    </th>
                    <th scope="col">Memory</th>
                  </tr>
                </thead>
                <tbody>
                  {result.hits.map((h) => (
                    <tr key={h.memory.id}>
                      <td className="num">{formatScore(h.score)}</td>
                      <td>
                        <div className="qdrant-hit-content">{h.memory.content}</div>
                        <div className="muted qdrant-hit-meta">
                          <code>{h.memory.key}</code> · {h.memory.type.toLowerCase()}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </section>
      )}
    </form>
  );
}

/** Deletes points Qdrant should no longer hold, after a confirmation, and says how many. */
function Cleanup({ configured }: { configured: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cleanup = useQdrantCleanupMutation({
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() });
    },
  });
  const deleted = cleanup.data?.qdrantCleanup;
  return (
    <fieldset className="qdrant-tool" aria-label="Qdrant clean-up">
      <h3>Clean up</h3>
      <p className="muted small-note">
        Deletes the points of expired and out-of-retention memories, and points whose memory no longer exists. Memories are not touched.
      </p>
      <div className="actions">
        <button
          type="button"
          disabled={!configured || cleanup.isPending}
          onClick={() => {
            cleanup.reset();
            setConfirming(true);
          }}
        >
          Clean up…
        </button>
        {deleted !== undefined && (
          <span role="status" className={deleted > 0 ? 'ok' : 'muted'}>
            {deleted === 0
              ? 'Nothing to delete: Qdrant held no stale points.'
              : `Deleted ${formatInt(deleted)} stale ${deleted === 1 ? 'point' : 'points'}.`}
          </span>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Clean up Qdrant?"
        confirmLabel="Delete stale points"
        busyLabel="Cleaning up…"
        danger
        busy={cleanup.isPending}
        error={<ErrorNote error={cleanup.error} prefix="Not cleaned up" />}
        onConfirm={() => cleanup.mutate({})}
        onCancel={() => {
          cleanup.reset();
          setConfirming(false);
        }}
      >
        <p>
          Points of memories that have expired, fell out of the retention window or were deleted are removed from the Qdrant collection. The
          memories themselves are not changed; search already leaves these points out.
        </p>
      </ConfirmDialog>
    </fieldset>
  );
}
