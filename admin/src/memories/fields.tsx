import { useId } from 'react';
import { ChoiceSelect } from '../components/ChoiceSelect';
import type { MemoryType } from '../generated/graphql';
import type { MetadataCheck } from './metadata';
import { TYPE_LABELS } from './types';

/** The small labelled inputs the add form and the inline edit share. */

export function TypeSelect({ value, onChange }: { value: MemoryType; onChange: (t: MemoryType) => void }) {
  return <ChoiceSelect label="Type" labels={TYPE_LABELS} value={value} onChange={(t) => t && onChange(t)} />;
}

/** A JSON object, checked as it is typed: the error shows under the field and the form's Save stays disabled. */
export function MetadataField({
  value,
  onChange,
  check,
  serverProblem = null,
  rows = 3,
}: {
  value: string;
  onChange: (text: string) => void;
  check: MetadataCheck;
  /** What the server said was wrong with the metadata (e.g. too large), when it parses. */
  serverProblem?: string | null;
  rows?: number;
}) {
  const errorId = useId();
  const problem = check.ok ? serverProblem : check.error;
  return (
    <div className="mem-field-block">
      <label className="field">
        <span>Metadata (JSON)</span>
        <textarea
          value={value}
          rows={rows}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={errorId}
          placeholder='{"source": "chat"}'
        />
      </label>
      <p id={errorId} className={problem === null ? 'mem-field-hint muted' : 'error mem-field-error'} aria-live="polite">
        {problem ?? 'A JSON object; {} for none.'}
      </p>
    </div>
  );
}

/** Local date and time; empty means the memory never expires. */
export function ExpiryField({
  value,
  onChange,
  serverProblem = null,
}: {
  value: string;
  onChange: (v: string) => void;
  /** What the server said was wrong with the expiry (e.g. before 1970). */
  serverProblem?: string | null;
}) {
  const problemId = useId();
  return (
    <div className="mem-field-block">
      <label className="field">
        <span>Expires at</span>
        <input
          type="datetime-local"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={serverProblem !== null}
          aria-describedby={serverProblem === null ? undefined : problemId}
        />
      </label>
      {serverProblem !== null && (
        <p id={problemId} className="error mem-field-error">
          {serverProblem}
        </p>
      )}
      <p className="mem-field-hint muted">
        {value ? (
          <button type="button" className="mem-linkish" onClick={() => onChange('')}>
            Clear expiry
          </button>
        ) : (
          'Empty: never expires.'
        )}
      </p>
    </div>
  );
}
