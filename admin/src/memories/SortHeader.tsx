import type { MemoryOrderField } from '../generated/graphql';
import type { MemorySort } from './types';

/** A column header that sorts by its field; a second click reverses the direction. */
export function SortHeader({
  field,
  label,
  sort,
  onSort,
  numeric,
}: {
  field: MemoryOrderField;
  label: string;
  sort: MemorySort;
  onSort: (f: MemoryOrderField) => void;
  numeric?: boolean;
}) {
  const active = sort.orderBy === field;
  const ariaSort = active ? (sort.direction === 'ASC' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={numeric ? 'mem-num' : undefined}>
      <button type="button" className={`sort${active ? ' active' : ''}`} onClick={() => onSort(field)}>
        {label}
        <span className="mem-sort-arrow" aria-hidden="true">
          {active ? (sort.direction === 'ASC' ? '↑' : '↓') : '↕'}
        </span>
      </button>
    </th>
  );
}
