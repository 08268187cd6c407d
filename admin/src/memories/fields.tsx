import { useId } from 'react';
import type { MemoryType } from '../generated/graphql';
import type { MetadataCheck } from './metadata';
import { MEMORY_TYPES, TYPE_LABELS } from './types';

/** The small labelled inputs the add form and the inline edit share. */

export function TypeSelect({ value, onChange }: { value: MemoryType; onChange: (t: MemoryType) => void }) {
  return (
    <label className="field">
      <span>Type</span>
      <select value={value} onChange={(e) => onChange(e.target.value as MemoryType)}>
        {MEMORY_TYPES.map((t) => (
          <option key={t} value={t}>
            {TYPE_LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
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
export function ExpiryField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <div className="mem-field-block">
      <label className="field">
        <span>Expires at</span>
        <input type="datetime-local" value={value} onChange={(e) => onChange(e.target.value)} />
      </label>
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
