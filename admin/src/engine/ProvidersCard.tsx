import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Card } from '../components/Card';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { FieldProblem } from '../components/FieldProblem';
import { KeyField, useWriteOnlyKey } from '../components/KeyState';
import { SaveActions } from '../components/SaveActions';
import { ScrollRegion } from '../components/ScrollRegion';
import { TableHead } from '../components/TableHead';
import {
  type ModelKind,
  type ModelProviderFieldsFragment,
  useDeleteModelProviderMutation,
  useEmbeddingProvidersQuery,
  useEngineStatusQuery,
  useMemorySettingsQuery,
  useTestModelProviderMutation,
  useUpsertModelProviderMutation,
} from '../generated/graphql';
import { numberOf } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import { modelTestResult } from './StatusPanel';

type Provider = ModelProviderFieldsFragment;

/** Remote embedding and rerank endpoints. API keys are write-only: the server only says whether one is set. */
export function ProvidersCard() {
  const queryClient = useQueryClient();
  const providers = useEmbeddingProvidersQuery();
  const settings = useMemorySettingsQuery();
  const [editing, setEditing] = useState<Provider | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: useEmbeddingProvidersQuery.getKey() });
    void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() });
  };
  const test = useTestModelProviderMutation();
  const remove = useDeleteModelProviderMutation({
    onSuccess: () => {
      if (editing !== 'new' && editing?.id === deleting?.id) setEditing(null);
      setDeleting(null);
      refresh();
    },
  });

  const s = settings.data?.memorySettings;
  const usedBy = (p: Provider) =>
    [s?.embeddingProviderModel, s?.rerankProviderModel].filter((name): name is string => !!name && name.startsWith(`${p.id}/`));
  const list = providers.data?.embeddingProviders ?? [];

  return (
    <Card
      titleId="providers-title"
      title="Remote providers"
      sub="OpenAI-compatible embeddings and Cohere/Jina-style rerank endpoints. Models are named provider/model."
      actions={
        <button type="button" onClick={() => setEditing('new')} disabled={editing === 'new'}>
          Add provider
        </button>
      }
    >
      {providers.isPending ? (
        <p className="muted">Loading providers…</p>
      ) : providers.error ? (
        <ErrorNote error={providers.error} prefix="Providers could not be loaded" />
      ) : list.length === 0 ? (
        <p className="muted empty-inline">No provider yet. Without one, embeddings come from a local model (static or transformers.js).</p>
      ) : (
        <ScrollRegion label="Providers table">
          <table className="providers">
            <TableHead columns={['ID', 'Base URL', 'Models', 'API key']} controls="Actions" />
            <tbody>
              {list.map((p) => (
                <tr key={p.id} aria-label={`Provider ${p.id}`}>
                  <td>
                    <strong>{p.id}</strong>
                    {p.origin === 'env' && (
                      <span className="badge grey" title="Configured by MNEMO_EMBEDDING_* / MNEMO_RERANK_* variables">
                        environment
                      </span>
                    )}
                    {usedBy(p).length > 0 && (
                      <span className="badge" title={usedBy(p).join(', ')}>
                        in use
                      </span>
                    )}
                  </td>
                  <td>
                    <code className="wrap">{p.baseUrl}</code>
                  </td>
                  <td>
                    {p.models.length === 0 ? (
                      <span className="muted">none listed</span>
                    ) : (
                      <ul className="model-list">
                        {p.models.map((m) => (
                          <li key={`${m.kind}:${m.name}`}>
                            <code>{m.name}</code> <span className="muted">{m.kind.toLowerCase()}</span>
                            {m.dimension !== null && <span className="muted"> · {m.dimension}d</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>
                    {p.hasApiKey ? (
                      <span className="badge ok">key set</span>
                    ) : p.keyless ? (
                      <span className="badge ok">keyless</span>
                    ) : (
                      <span className="badge warn">no key</span>
                    )}
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="small"
                      onClick={() => test.mutate({ id: p.id })}
                      disabled={test.isPending}
                      aria-label={`Test ${p.id}`}
                    >
                      {test.isPending && test.variables?.id === p.id ? 'Testing…' : 'Test'}
                    </button>
                    {p.origin === 'env' ? (
                      <span className="muted small-note"> read-only</span>
                    ) : (
                      <>
                        <button type="button" className="small" onClick={() => setEditing(p)} aria-label={`Edit ${p.id}`}>
                          Edit
                        </button>
                        <button type="button" className="small danger" onClick={() => setDeleting(p)} aria-label={`Delete ${p.id}`}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {test.data && (
        <section className="provider-test" aria-label={`Test of ${test.variables?.id}`}>
          <h3>Test of {test.variables?.id}</h3>
          {test.data.testModelProvider.length === 0 ? (
            <p className="muted">It lists no model to call.</p>
          ) : (
            <ul role="status">
              {test.data.testModelProvider.map((r) => {
                const { ok, text } = modelTestResult(r);
                return (
                  <li key={`${r.kind}:${r.model}`} className={ok ? 'ok-text' : 'error-text'}>
                    <span aria-hidden="true">{ok ? '✓ ' : '✗ '}</span>
                    {text}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
      <ErrorNote error={test.error} prefix="Test failed" />
      {editing && (
        <ProviderEditor
          key={editing === 'new' ? 'new' : editing.id}
          provider={editing === 'new' ? null : editing}
          taken={list.map((p) => p.id)}
          onDone={() => {
            setEditing(null);
            refresh();
          }}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete provider ${deleting?.id ?? ''}?`}
        confirmLabel="Delete provider"
        busyLabel="Deleting…"
        danger
        busy={remove.isPending}
        error={<ErrorNote error={remove.error} prefix="Not deleted" />}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>Its endpoint and API key are erased.</p>
        {deleting && usedBy(deleting).length > 0 && (
          <p className="warning">
            The settings use {usedBy(deleting).join(' and ')}: after deleting, that model no longer resolves and retrieval falls back (Auto
            picks the next source; rerank is skipped).
          </p>
        )}
      </ConfirmDialog>
    </Card>
  );
}

let nextModelRow = 0;
const modelRow = (fields: Omit<ModelDraft, 'row'> = { name: '', kind: 'EMBEDDING', dimension: '' }): ModelDraft => ({
  row: nextModelRow++,
  ...fields,
});

interface ModelDraft {
  /** Keys the row, so removing one keeps the focus and input state of the rows after it. */
  row: number;
  name: string;
  kind: ModelKind;
  dimension: string;
}

interface ProviderDraft {
  id: string;
  baseUrl: string;
  models: ModelDraft[];
}

/**
 * Adds or edits a provider. The API key field is a password input that is never filled from the server and
 * not controlled by React (so the key is never mirrored into the DOM): empty keeps the stored key. The id's and the
 * URL's form are the server's to judge; only what it cannot see is checked here (a taken id would be overwritten).
 */
function ProviderEditor(props: { provider: Provider | null; taken: string[]; onDone: () => void; onClose: () => void }) {
  const existing = props.provider;
  const [initial] = useState<ProviderDraft>(() => ({
    id: existing?.id ?? '',
    baseUrl: existing?.baseUrl ?? '',
    models: existing?.models.map((m) =>
      modelRow({ name: m.name, kind: m.kind, dimension: m.dimension === null ? '' : String(m.dimension) }),
    ) ?? [modelRow()],
  }));
  const key = useWriteOnlyKey();
  const save = useUpsertModelProviderMutation({
    onSuccess: () => {
      key.saved();
      form.saved();
      props.onDone();
    },
  });
  const form = useDraftForm<ProviderDraft>({
    source: initial,
    error: save.error,
    check: (d) => ({
      id:
        d.id.trim() === ''
          ? 'The provider needs an ID.'
          : !existing && props.taken.includes(d.id.trim())
            ? `A provider "${d.id.trim()}" exists already: edit it instead.`
            : undefined,
      baseUrl: d.baseUrl.trim() === '' ? 'The base URL is required.' : undefined,
      models: d.models.some((m) => m.name.trim() === '')
        ? 'Every model needs a name (remove empty rows).'
        : d.models.some((m) => Number.isNaN(numberOf(m.dimension)))
          ? 'A dimension must be a number, or empty to detect it.'
          : undefined,
    }),
    onSubmit: (d) => {
      save.mutate({
        input: {
          id: d.id.trim(),
          baseUrl: d.baseUrl.trim(),
          models: d.models.map((m) => ({ name: m.name.trim(), kind: m.kind, dimension: numberOf(m.dimension) })),
          ...key.change(),
        },
      });
    },
  });
  const { models } = form.draft!;
  const setModels = (change: (ms: ModelDraft[]) => ModelDraft[]) => form.edit({ models: change(models) });

  const setModel = (i: number, patch: Partial<ModelDraft>) => setModels((ms) => ms.map((m, j) => (j === i ? { ...m, ...patch } : m)));

  return (
    <form className="editor" onSubmit={form.submit} aria-label={existing ? `Edit provider ${existing.id}` : 'New provider'} noValidate>
      <h3>{existing ? `Edit provider ${existing.id}` : 'New provider'}</h3>
      <div className="editor-grid">
        <DraftField form={form} name="id" label="Provider ID" disabled={!!existing} placeholder="openai" autoComplete="off" />
        <DraftField form={form} name="baseUrl" label="Base URL" placeholder="https://api.openai.com/v1" autoComplete="off" />
      </div>

      <div className="models-editor">
        <div className="models-head" aria-hidden="true">
          <span>Model</span>
          <span>Kind</span>
          <span>Dimension</span>
          <span />
        </div>
        {models.map((m, i) => (
          <div className="model-row" key={m.row}>
            <input
              aria-label={`Model ${i + 1} name`}
              value={m.name}
              onChange={(e) => setModel(i, { name: e.target.value })}
              placeholder="text-embedding-3-small"
            />
            <select aria-label={`Model ${i + 1} kind`} value={m.kind} onChange={(e) => setModel(i, { kind: e.target.value as ModelKind })}>
              <option value="EMBEDDING">Embedding</option>
              <option value="RERANK">Rerank</option>
            </select>
            <input
              aria-label={`Model ${i + 1} dimension`}
              inputMode="numeric"
              value={m.dimension}
              onChange={(e) => setModel(i, { dimension: e.target.value })}
              placeholder={m.kind === 'RERANK' ? 'n/a' : 'auto'}
              disabled={m.kind === 'RERANK'}
            />
            <button
              type="button"
              className="small ghost"
              aria-label={`Remove model ${i + 1}`}
              onClick={() => setModels((ms) => ms.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="small" onClick={() => setModels((ms) => [...ms, modelRow()])}>
          Add model
        </button>
        <FieldProblem form={form} name="models" />
      </div>

      <KeyField secret={key} name="provider-api-key" hasKey={existing ? existing.hasApiKey : null} missingTone="warn" />
      <p className="muted small-note">Keys are write-only: stored on the server and used for its calls, never sent back to this page.</p>

      <SaveActions save={save} form={form} label="Save provider">
        <button type="button" onClick={props.onClose} disabled={save.isPending}>
          Cancel
        </button>
      </SaveActions>
    </form>
  );
}
