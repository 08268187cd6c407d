import type { MemoryStatus, MemoryType } from '../generated/graphql';
import { TYPE_COLORS, TYPE_LABELS } from './types';

const STATUS: Record<MemoryStatus, { label: string; tone: string; hint: string }> = {
  ACTIVE: { label: 'Active', tone: 'ok', hint: 'Can be retrieved and injected' },
  EXPIRED: { label: 'Expired', tone: 'warn', hint: 'Its expiry has passed: kept, never injected' },
  OUT_OF_RETENTION: { label: 'Out of retention', tone: 'grey', hint: 'Last written before the retention window: kept, never injected' },
  ARCHIVED: { label: 'Archived', tone: 'grey', hint: 'Replaced by a summary; undoing the summary brings it back' },
  SUPERSEDED: { label: 'Superseded', tone: 'grey', hint: 'No longer true: replaced by a newer fact; Undo brings it back' },
};

export function StatusBadge({ status }: { status: MemoryStatus }) {
  const s = STATUS[status];
  return (
    <span className={`badge ${s.tone} mem-nowrap`} title={s.hint}>
      {s.label}
    </span>
  );
}

export function TypeBadge({ type }: { type: MemoryType }) {
  return (
    <span className="mem-type">
      <span className="mem-swatch" style={{ background: TYPE_COLORS[type] }} aria-hidden="true" />
      {TYPE_LABELS[type]}
    </span>
  );
}
