export type Tone = 'ok' | 'warn' | 'danger' | 'grey' | 'accent';

/** A coloured pill with a dot: the state of one engine part at a glance. */
export function StatusChip({ tone, children, title }: { tone: Tone; children: string; title?: string }) {
  return (
    <span className={`chip chip-${tone}`} title={title}>
      <span className="chip-dot" aria-hidden="true" />
      {children}
    </span>
  );
}
