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
  rows = 3,
}: {
  value: string;
  onChange: (text: string) => void;
  check: MetadataCheck;
  rows?: number;
}) {
  const errorId = useId();
  return (
    <div className="mem-field-block">
      <label className="field">
        <span>Metadata (JSON)</span>
        <textarea
          value={value}
          rows={rows}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!check.ok}
          aria-describedby={check.ok ? undefined : errorId}
          placeholder='{"source": "chat"}'
        />
      </label>
      <p id={errorId} className={check.ok ? 'mem-field-hint muted' : 'error mem-field-error'} aria-live="polite">
        {check.ok ? 'A JSON object; {} for none.' : check.error}
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
