import type { ReactNode } from 'react';

/** One number with its name; the card is a labelled group so assistive tech (and tests) can find it by name. */
export function StatCard({ label, value, detail, busy }: { label: string; value: ReactNode; detail?: ReactNode; busy?: boolean }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <fieldset> groups form controls; this groups a figure and its name.
    <section className="card stat mem-stat" role="group" aria-label={label} aria-busy={busy || undefined}>
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {detail && <div className="mem-stat-detail muted">{detail}</div>}
    </section>
  );
}
