import { type ModelKind, useEmbeddingProvidersQuery } from '../generated/graphql';

/** "provider/model" names of the configured models of one kind, for suggestions. */
export function useModelNames(kind: ModelKind): string[] {
  const { data } = useEmbeddingProvidersQuery();
  return (data?.embeddingProviders ?? []).flatMap((p) => p.models.filter((m) => m.kind === kind).map((m) => `${p.id}/${m.name}`));
}

/** A "provider/model" text field that suggests the configured providers' models. */
export function ModelField({
  label,
  listId,
  value,
  placeholder,
  options,
  onChange,
  ...field
}: {
  label: string;
  listId: string;
  value: string;
  placeholder: string;
  options: string[];
  onChange: (value: string) => void;
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        value={value}
        list={listId}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        {...field}
      />
      <datalist id={listId}>
        {options.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
    </label>
  );
}
