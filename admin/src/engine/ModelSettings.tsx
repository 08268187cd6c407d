import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { FieldProblem } from '../components/FieldProblem';
import { ModelField, useModelNames } from '../components/ModelField';
import { SaveActions } from '../components/SaveActions';
import { type EmbeddingSource, useEngineStatusQuery, useMemorySettingsQuery, useUpdateMemorySettingsMutation } from '../generated/graphql';
import { useDraftForm } from '../lib/useDraftForm';

const SOURCES: { value: EmbeddingSource; label: string; description: string }[] = [
  {
    value: 'AUTO',
    label: 'Auto',
    description: 'A remote model with a key, else the static model, else transformers.js, else keyword search only.',
  },
  { value: 'REMOTE', label: 'Remote provider', description: 'An OpenAI-compatible embeddings API from the providers below.' },
  { value: 'STATIC', label: 'Static', description: 'A model2vec model: fast on CPU, no network once downloaded.' },
  { value: 'TRANSFORMERS', label: 'Transformers.js', description: 'An ONNX sentence-transformer on CPU; better quality, slower.' },
];

/** Saves a settings patch, keeps the shared settings cache in step and re-probes the engine. */
function useSaveSettings() {
  const queryClient = useQueryClient();
  return useUpdateMemorySettingsMutation({
    onSuccess: (result) => {
      queryClient.setQueryData(useMemorySettingsQuery.getKey(), { memorySettings: result.updateMemorySettings });
      void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() });
    },
  });
}

export function EmbeddingSettings() {
  const settings = useMemorySettingsQuery();
  const save = useSaveSettings();
  const models = useModelNames('EMBEDDING');
  const listId = useId();
  const s = settings.data?.memorySettings;
  const form = useDraftForm({
    keep: 'engine/embedding',
    source: s
      ? {
          embeddingSource: s.embeddingSource,
          staticEnabled: s.staticEnabled,
          transformersEnabled: s.transformersEnabled,
          embeddingProviderModel: s.embeddingProviderModel ?? '',
        }
      : null,
    error: save.error,
    onSubmit: (d) => {
      const name = d.embeddingProviderModel.trim();
      save.mutate({ input: { ...d, embeddingProviderModel: name === '' ? null : name } }, { onSuccess: form.saved });
    },
  });
  const draft = form.draft;
  const edit = (patch: Partial<NonNullable<typeof draft>>) => {
    save.reset();
    form.edit(patch);
  };

  if (settings.isPending) return <SettingsPlaceholder title="Embedding source" />;
  if (!draft) return <ErrorNote error={settings.error} prefix="Settings could not be loaded" />;

  const providerModelNeeded = draft.embeddingSource === 'REMOTE' && draft.embeddingProviderModel.trim() === '';
  return (
    <form className="card" onSubmit={form.submit} aria-labelledby="embedding-title" noValidate>
      <h2 id="embedding-title">Embedding source</h2>
      <fieldset className="options" aria-label="Embedding source">
        {SOURCES.map((s) => (
          <div key={s.value} className={draft.embeddingSource === s.value ? 'option on' : 'option'}>
            <label>
              <input
                type="radio"
                name="embeddingSource"
                value={s.value}
                checked={draft.embeddingSource === s.value}
                onChange={() => edit({ embeddingSource: s.value })}
                aria-describedby={`${listId}-${s.value}`}
              />
              <span className="option-title">{s.label}</span>
            </label>
            <p id={`${listId}-${s.value}`} className="muted">
              {s.description}
            </p>
          </div>
        ))}
      </fieldset>
      <div className="switches">
        <label className="switch">
          <input type="checkbox" checked={draft.staticEnabled} onChange={(e) => edit({ staticEnabled: e.target.checked })} />
          <span>Static model enabled</span>
        </label>
        <label className="switch">
          <input type="checkbox" checked={draft.transformersEnabled} onChange={(e) => edit({ transformersEnabled: e.target.checked })} />
          <span>Transformers.js enabled</span>
        </label>
      </div>
      <p className="muted small-note">The switches decide what Auto may pick.</p>
      <ModelField
        label="Embedding provider model"
        listId={`${listId}-models`}
        value={draft.embeddingProviderModel}
        placeholder="provider/model, e.g. openai/text-embedding-3-small"
        options={models}
        onChange={(embeddingProviderModel) => edit({ embeddingProviderModel })}
        {...form.field('embeddingProviderModel')}
      />
      <FieldProblem form={form} name="embeddingProviderModel" />
      <p className="muted small-note">Empty uses MNEMO_EMBEDDING_MODEL when the environment sets one.</p>
      {providerModelNeeded && (
        <p className="warning" role="note">
          Remote needs a provider model, unless the environment sets MNEMO_EMBEDDING_MODEL.
        </p>
      )}
      <p className="muted small-note">
        Another model makes the stored vectors stale: semantic search falls back to keywords until a reindex.
      </p>
      <SaveActions save={save} form={form} label="Save embedding" />
    </form>
  );
}

export function RerankSettings() {
  const settings = useMemorySettingsQuery();
  const save = useSaveSettings();
  const models = useModelNames('RERANK');
  const listId = useId();
  const s = settings.data?.memorySettings;
  const form = useDraftForm({
    keep: 'engine/rerank',
    source: s ? { rerankEnabled: s.rerankEnabled, rerankProviderModel: s.rerankProviderModel ?? '' } : null,
    error: save.error,
    onSubmit: (d) => {
      const name = d.rerankProviderModel.trim();
      save.mutate({ input: { rerankEnabled: d.rerankEnabled, rerankProviderModel: name === '' ? null : name } }, { onSuccess: form.saved });
    },
  });
  const draft = form.draft;
  const edit = (patch: Partial<NonNullable<typeof draft>>) => {
    save.reset();
    form.edit(patch);
  };

  if (settings.isPending) return <SettingsPlaceholder title="Rerank" />;
  if (!draft) return <ErrorNote error={settings.error} prefix="Settings could not be loaded" />;

  return (
    <form className="card" onSubmit={form.submit} aria-labelledby="rerank-title" noValidate>
      <h2 id="rerank-title">Rerank</h2>
      <p className="muted">
        A Cohere/Jina-style rerank model reorders the best-ranked candidates after search. If it fails or times out, the fused order is
        kept.
      </p>
      <label className="switch">
        <input type="checkbox" checked={draft.rerankEnabled} onChange={(e) => edit({ rerankEnabled: e.target.checked })} />
        <span>Rerank enabled</span>
      </label>
      <ModelField
        label="Rerank provider model"
        listId={`${listId}-rerank`}
        value={draft.rerankProviderModel}
        placeholder="provider/model, e.g. cohere/rerank-v3.5"
        options={models}
        onChange={(rerankProviderModel) => edit({ rerankProviderModel })}
        {...form.field('rerankProviderModel')}
      />
      <FieldProblem form={form} name="rerankProviderModel" />
      <p className="muted small-note">Empty uses MNEMO_RERANK_MODEL when the environment sets one.</p>
      <SaveActions save={save} form={form} label="Save rerank" />
    </form>
  );
}

function SettingsPlaceholder({ title }: { title: string }) {
  return (
    <div className="card" aria-busy="true">
      <h2>{title}</h2>
      <p className="muted">Loading settings…</p>
    </div>
  );
}
