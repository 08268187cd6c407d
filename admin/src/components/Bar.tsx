/**
 * A horizontal bar for a part of a whole: a token budget (role meter) or a job's progress (role progressbar).
 * `tone` colours the fill; the accessible value is the rounded percentage.
 */
export function Bar(props: {
  value: number;
  max: number;
  label: string;
  role?: 'meter' | 'progressbar';
  tone?: 'accent' | 'ok' | 'warn' | 'danger' | 'grey';
  valueText?: string;
}) {
  const percent = props.max > 0 ? Math.min(100, Math.max(0, (props.value / props.max) * 100)) : 0;
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is meter or progressbar, both named by aria-label; the rule cannot see through the expression.
    <div
      className={`bar bar-${props.tone ?? 'accent'}`}
      role={props.role ?? 'meter'}
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      aria-valuetext={props.valueText}
    >
      <div className="bar-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
