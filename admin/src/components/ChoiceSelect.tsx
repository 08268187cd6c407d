/**
 * A labelled select over a fixed set of values, each shown by its label (in the labels' order); `any` adds a first
 * choice that stands for none of them (''), as a filter's "All …".
 */
export function ChoiceSelect<T extends string>({
  label,
  labels,
  value,
  onChange,
  any,
}: {
  label: string;
  labels: Record<T, string>;
  value: T | '';
  onChange: (value: T | '') => void;
  any?: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        {any !== undefined && <option value="">{any}</option>}
        {(Object.keys(labels) as T[]).map((v) => (
          <option key={v} value={v}>
            {labels[v]}
          </option>
        ))}
      </select>
    </label>
  );
}
