import type { ReactNode } from 'react';
import type { DraftForm } from '../lib/useDraftForm';
import { FormError } from './FormError';

/**
 * The foot of every settings form: why a save failed, the submit button, extra buttons, "Saved", and whether edits
 * are waiting to be saved. The server's complaints about single fields stand beside those fields (useDraftForm);
 * here only what names none of them.
 */
export function SaveActions<T extends object>(props: {
  save: { error: unknown; isPending: boolean; isSuccess: boolean };
  form: DraftForm<T>;
  label: string;
  disabled?: boolean;
  /** What "Saved" says, e.g. which memory was saved. */
  savedText?: ReactNode;
  children?: ReactNode;
}) {
  const { save, form } = props;
  return (
    <>
      <FormError error={save.error} form={form} prefix="Not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={props.disabled || save.isPending}>
          {save.isPending ? 'Saving…' : props.label}
        </button>
        {props.children}
        {form.dirty && !save.isPending && (
          <>
            <span className="muted unsaved">Unsaved changes</span>
            <button type="button" className="ghost small" onClick={form.discard}>
              Discard
            </button>
          </>
        )}
        {save.isSuccess && !form.dirty && (
          <span role="status" className="ok">
            {props.savedText ?? 'Saved'}
          </span>
        )}
      </div>
    </>
  );
}
