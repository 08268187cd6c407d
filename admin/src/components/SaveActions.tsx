import type { ReactNode } from 'react';
import { ErrorNote } from './ErrorNote';

/** The foot of every settings form: why a save failed, the submit button, extra buttons, and "Saved". */
export function SaveActions(props: {
  save: { error: unknown; isPending: boolean; isSuccess: boolean };
  label: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const { save } = props;
  return (
    <>
      <ErrorNote error={save.error} prefix="Not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={props.disabled || save.isPending}>
          {save.isPending ? 'Saving…' : props.label}
        </button>
        {props.children}
        {save.isSuccess && (
          <span role="status" className="ok">
            Saved
          </span>
        )}
      </div>
    </>
  );
}
