import type { MemoryRowFieldsFragment } from '../generated/graphql';
import { formatDate, formatDateTime } from './format';

/**
 * Why a memory no longer holds, under its content: the newer memory that superseded it, the rule that decided it and
 * the sentence that said it; or, for a memory imported as ended, only since when.
 */
export function SupersededNote({ memory: m }: { memory: MemoryRowFieldsFragment }) {
  if (!m.validTo) return null;
  const s = m.supersession;
  const since = (
    <time dateTime={m.validTo} title={formatDateTime(m.validTo)}>
      {formatDate(m.validTo)}
    </time>
  );
  if (!s) return <div className="mem-superseded">No longer true since {since}</div>;
  return (
    <div className="mem-superseded">
      Superseded {since} by {s.supersededBy ? <q className="mem-superseded-by">{s.supersededBy.content}</q> : <code>{m.supersededBy}</code>}
      <span className="muted">
        {' '}
        · rule <code>{s.rule}</code>
      </span>
      {s.sentence && (
        <div className="mem-superseded-sentence muted">
          said: <q>{s.sentence}</q>
        </div>
      )}
    </div>
  );
}
