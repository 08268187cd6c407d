import type { MemoryType } from '../generated/graphql';
import { formatNumber } from './format';
import { MEMORY_TYPES, TYPE_COLORS, TYPE_LABELS } from './types';

/** Counts by type: one stacked bar (plain SVG) and a legend that carries the numbers. */
export function TypeChart({ byType }: { byType: readonly { type: MemoryType; count: number }[] }) {
  const counts = new Map(byType.map((t) => [t.type, t.count]));
  const total = byType.reduce((n, t) => n + t.count, 0);
  let x = 0;
  const segments = MEMORY_TYPES.filter((t) => (counts.get(t) ?? 0) > 0).map((type) => {
    const width = ((counts.get(type) ?? 0) / total) * 100;
    const segment = { type, x, width };
    x += width;
    return segment;
  });
  const summary = MEMORY_TYPES.map((t) => `${TYPE_LABELS[t]} ${counts.get(t) ?? 0}`).join(', ');
  return (
    <div className="mem-typechart">
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="mem-typebar" role="img" aria-label={`Memories by type: ${summary}`}>
        <rect x="0" y="0" width="100" height="8" fill="#eceef5" />
        {segments.map((s) => (
          <rect key={s.type} x={s.x} y="0" width={s.width} height="8" fill={TYPE_COLORS[s.type]}>
            <title>{`${TYPE_LABELS[s.type]}: ${counts.get(s.type)}`}</title>
          </rect>
        ))}
      </svg>
      <ul className="mem-legend" aria-label="Counts by type">
        {MEMORY_TYPES.map((type) => {
          const count = counts.get(type) ?? 0;
          return (
            <li key={type} className={count === 0 ? 'none' : undefined}>
              <span className="mem-swatch" style={{ background: TYPE_COLORS[type] }} aria-hidden="true" />
              <span className="name">{TYPE_LABELS[type]}</span>
              <span className="count">{formatNumber(count)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
