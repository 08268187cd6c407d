/** A table's header row: the named columns, then one for the row's controls, named only for screen readers. */
export function TableHead({ columns, controls }: { columns: readonly string[]; controls: string }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        <th scope="col">
          <span className="sr-only">{controls}</span>
        </th>
      </tr>
    </thead>
  );
}
