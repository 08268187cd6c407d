import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { SaveActions } from '../components/SaveActions';
import {
  type EmbeddingSource,
  type MemorySettingsQuery,
  type ModelKind,
  useEmbeddingProvidersQuery,
  useEngineStatusQuery,
  useMemorySettingsQuery,
  useUpdateMemorySettingsMutation,
} from '../generated/graphql';

type Settings = MemorySettingsQuery['memorySettings'];

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

/** "provider/model" names of the configured models of one kind, for suggestions. */
function useModelNames(kind: ModelKind): string[] {
  const { data } = useEmbeddingProvidersQuery();
  return (data?.embeddingProviders ?? []).flatMap((p) => p.models.filter((m) => m.kind === kind).map((m) => `${p.id}/${m.name}`));
}

/**
 * The draft of a settings form: taken from the server while untouched, kept while edited (a refetch
 * never overwrites typing), and re-synced after a save.
 */
function useDraft<T>(settings: Settings | undefined, pick: (s: Settings) => T) {
  const [draft, setDraft] = useState<T | null>(null);
  const [dirty, setDirty] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: pick is a pure projection written inline (new on every render); only new settings or the end of an edit re-sync the draft.
  useEffect(() => {
    if (settings && !dirty) setDraft(pick(settings));
  }, [settings, dirty]);
  return {
    draft,
    edit: (patch: Partial<T>) => {
      setDirty(true);
      setDraft((d) => (d ? { ...d, ...patch } : d));
    },
    saved: () => setDirty(false),
  };
}

export function EmbeddingSettings() {
  const settings = useMemorySettingsQuery();
  const save = useSaveSettings();
  const models = useModelNames('EMBEDDING');
  const listId = useId();
  const { draft, edit, saved } = useDraft(settings.data?.memorySettings, (s) => ({
    embeddingSource: s.embeddingSource,
    staticEnabled: s.staticEnabled,
    transformersEnabled: s.transformersEnabled,
    embeddingProviderModel: s.embeddingProviderModel ?? '',
  }));

  if (settings.isPending) return <SettingsPlaceholder title="Embedding source" />;
  if (!draft) return <ErrorNote error={settings.error} prefix="Settings could not be loaded" />;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const name = draft.embeddingProviderModel.trim();
    save.mutate({ input: { ...draft, embeddingProviderModel: name === '' ? null : name } }, { onSuccess: saved });
  }

  const providerModelNeeded = draft.embeddingSource === 'REMOTE' && draft.embeddingProviderModel.trim() === '';
  return (
    <form className="card" onSubmit={submit} aria-labelledby="embedding-title">
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
                onChange={() => {
                  save.reset();
                  edit({ embeddingSource: s.value });
                }}
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
          <input
            type="checkbox"
            checked={draft.staticEnabled}
            onChange={(e) => {
              save.reset();
              edit({ staticEnabled: e.target.checked });
            }}
          />
          <span>Static model enabled</span>
        </label>
        <label className="switch">
          <input
            type="checkbox"
            checked={draft.transformersEnabled}
            onChange={(e) => {
              save.reset();
              edit({ transformersEnabled: e.target.checked });
            }}
          />
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
        onChange={(embeddingProviderModel) => {
          save.reset();
          edit({ embeddingProviderModel });
        }}
      />
      <p className="muted small-note">Empty uses MNEMO_EMBEDDING_MODEL when the environment sets one.</p>
      {providerModelNeeded && (
        <p className="warning" role="note">
          Remote needs a provider model, unless the environment sets MNEMO_EMBEDDING_MODEL.
        </p>
      )}
      <p className="muted small-note">
        Another model makes the stored vectors stale: semantic search falls back to keywords until a reindex.
      </p>
      <SaveActions save={save} label="Save embedding" />
    </form>
  );
}

export function RerankSettings() {
  const settings = useMemorySettingsQuery();
  const save = useSaveSettings();
  const models = useModelNames('RERANK');
  const listId = useId();
  const { draft, edit, saved } = useDraft(settings.data?.memorySettings, (s) => ({
    rerankEnabled: s.rerankEnabled,
    rerankProviderModel: s.rerankProviderModel ?? '',
  }));

  if (settings.isPending) return <SettingsPlaceholder title="Rerank" />;
  if (!draft) return <ErrorNote error={settings.error} prefix="Settings could not be loaded" />;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const name = draft.rerankProviderModel.trim();
    save.mutate({ input: { rerankEnabled: draft.rerankEnabled, rerankProviderModel: name === '' ? null : name } }, { onSuccess: saved });
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="rerank-title">
      <h2 id="rerank-title">Rerank</h2>
      <p className="muted">
        A Cohere/Jina-style rerank model reorders the top 50 candidates after search. If it fails or times out, the fused order is kept.
      </p>
      <label className="switch">
        <input
          type="checkbox"
          checked={draft.rerankEnabled}
          onChange={(e) => {
            save.reset();
            edit({ rerankEnabled: e.target.checked });
          }}
        />
        <span>Rerank enabled</span>
      </label>
      <ModelField
        label="Rerank provider model"
        listId={`${listId}-rerank`}
        value={draft.rerankProviderModel}
        placeholder="provider/model, e.g. cohere/rerank-v3.5"
        options={models}
        onChange={(rerankProviderModel) => {
          save.reset();
          edit({ rerankProviderModel });
        }}
      />
      <p className="muted small-note">Empty uses MNEMO_RERANK_MODEL when the environment sets one.</p>
      <SaveActions save={save} label="Save rerank" />
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

/** A "provider/model" text field that suggests the configured providers' models. */
function ModelField(props: {
  label: string;
  listId: string;
  value: string;
  placeholder: string;
  options: string[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        value={props.value}
        list={props.listId}
        placeholder={props.placeholder}
        autoComplete="off"
        onChange={(e) => props.onChange(e.target.value)}
      />
      <datalist id={props.listId}>
        {props.options.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
    </label>
  );
}
