import { useId } from 'react';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { FieldProblem } from '../components/FieldProblem';
import type { MemoryType } from '../generated/graphql';
import type { DraftForm } from '../lib/useDraftForm';
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

/** Local date and time; empty means the memory never expires. The server's objection shows under it, as on any draft field. */
export function ExpiryField<T extends { expiresAt: string }>({ form }: { form: DraftForm<T> }) {
  const value = form.draft?.expiresAt ?? '';
  const onChange = (expiresAt: string) => form.edit({ expiresAt } as Partial<T>);
  const name = 'expiresAt' as Extract<keyof T, string>;
  return (
    <div className="mem-field-block">
      <label className="field">
        <span>Expires at</span>
        <input type="datetime-local" value={value} onChange={(e) => onChange(e.target.value)} {...form.field(name)} />
        <FieldProblem form={form} name={name} />
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
