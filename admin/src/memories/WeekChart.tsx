import { formatDay, formatNumber, plural } from './format';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const WEEKS = 12;

/** Monday 00:00 UTC of the week holding `ms`, as the server groups them. */
function weekStartOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  return (day - ((((day + 3) % 7) + 7) % 7)) * DAY_MS;
}

/**
 * Memories created per week over the last 12 weeks, as plain SVG columns. When every matching memory is
 * older than that (an old import), the window ends at the newest week that has any, so the chart is never blank
 * while the cards count memories.
 */
export function WeekChart({ byWeek, now = Date.now() }: { byWeek: readonly { weekStart: string; count: number }[]; now?: number }) {
  const counts = new Map(byWeek.map((w) => [new Date(w.weekStart).getTime(), w.count]));
  const newestWithData = Math.max(-Infinity, ...counts.keys());
  let end = weekStartOf(now);
  if (Number.isFinite(newestWithData) && newestWithData < end - (WEEKS - 1) * WEEK_MS) end = newestWithData;
  const weeks = Array.from({ length: WEEKS }, (_, i) => {
    const start = end - (WEEKS - 1 - i) * WEEK_MS;
    return { start, count: counts.get(start) ?? 0 };
  });
  const max = Math.max(1, ...weeks.map((w) => w.count));
  const inWindow = weeks.reduce((n, w) => n + w.count, 0);

  const width = 300;
  const height = 84;
  const top = 14;
  const bottom = 18;
  const plot = height - top - bottom;
  const slot = width / WEEKS;
  const bar = slot * 0.62;
  const first = weeks[0]!;
  const last = weeks[WEEKS - 1]!;
  const label = `Memories created per week, ${formatDay(first.start)} to ${formatDay(last.start + 6 * DAY_MS)}: ${plural(inWindow, 'memory', 'memories')}; ${weeks
    .map((w) => `${formatDay(w.start)} ${w.count}`)
    .join(', ')}`;

  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="mem-weekchart" role="img" aria-label={label}>
      <line x1="0" x2={width} y1={top} y2={top} className="mem-grid" />
      <text x="0" y={top - 4} className="mem-axis">
        {formatNumber(max)}
      </text>
      <line x1="0" x2={width} y1={top + plot} y2={top + plot} className="mem-baseline" />
      {weeks.map((w, i) => {
        const h = w.count === 0 ? 0 : Math.max(2, (w.count / max) * plot);
        return (
          <g key={w.start}>
            <rect x={i * slot + (slot - bar) / 2} y={top + plot - h} width={bar} height={h} rx="2" className="mem-col" />
            {/* A full-height hit area, so the tooltip also works over short and empty weeks. */}
            <rect x={i * slot} y={top} width={slot} height={plot} fill="transparent">
              <title>{`Week of ${formatDay(w.start)}: ${plural(w.count, 'memory', 'memories')}`}</title>
            </rect>
          </g>
        );
      })}
      <text x="0" y={height - 4} className="mem-axis">
        {formatDay(first.start)}
      </text>
      <text x={width} y={height - 4} textAnchor="end" className="mem-axis">
        {formatDay(last.start)}
      </text>
    </svg>
  );
}
