import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal confirmation on the native <dialog>: focus moves into it (showModal() focuses its first control,
 * Cancel, the safe choice), Escape cancels, and focus returns to where it was when it closes.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while busy, e.g. "Deleting…". */
  busyLabel?: string;
  danger?: boolean;
  busy?: boolean;
  /** The confirm button waits for something more (a typed confirmation). */
  confirmDisabled?: boolean;
  /** Why the last attempt failed, shown above the buttons. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      {props.error}
      <div className="actions">
        <span className="spacer" />
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? 'danger solid' : 'primary'}
          disabled={props.busy || props.confirmDisabled}
          onClick={props.onConfirm}
        >
          {props.busy && props.busyLabel ? props.busyLabel : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
