import { useEffect, useId, useRef } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { type MemoryRowFieldsFragment, useDeleteMemoryMutation } from '../generated/graphql';
import { useInvalidateMemories } from './useInvalidateMemories';

export interface DeleteTarget {
  memory: MemoryRowFieldsFragment;
  /** Where the focus goes back to when the dialog closes without deleting. */
  trigger: HTMLElement;
}

interface Props {
  target: DeleteTarget | null;
  onClose: () => void;
  onDeleted: (memory: MemoryRowFieldsFragment) => void;
}

/**
 * A modal <dialog> that asks before deleting. Cancel has the focus first (the safe choice); Esc closes it;
 * on close the focus returns to the Delete button, or after a delete to whatever the caller chooses.
 */
export function DeleteDialog({ target, onClose, onDeleted }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const invalidate = useInvalidateMemories();
  const remove = useDeleteMemoryMutation({
    onSuccess: async () => {
      if (!target) return;
      await invalidate();
      onDeleted(target.memory);
    },
  });
  const { reset } = remove;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (target && !dialog.open) {
      reset();
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!target && dialog.open) {
      dialog.close();
    }
  }, [target, reset]);

  function close() {
    if (target?.trigger.isConnected) target.trigger.focus();
    onClose();
  }

  const memory = target?.memory;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className="mem-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!remove.isPending) close();
      }}
    >
      {memory && (
        <>
          <h2 id={titleId}>Delete this memory?</h2>
          <p>
            <code className="mem-key-full">{memory.key}</code>
          </p>
          <blockquote className="mem-quote">{memory.content.length > 280 ? `${memory.content.slice(0, 280)}…` : memory.content}</blockquote>
          <p className="muted">
            It is removed for API key <code>{memory.apiKeyId}</code> at once and cannot be restored. Export first if you may need it.
          </p>
          <ErrorNote error={remove.error} prefix="Not deleted" />
          <div className="actions mem-dialog-actions">
            <button ref={cancelRef} type="button" onClick={close} disabled={remove.isPending}>
              Cancel
            </button>
            <button type="button" className="danger solid" onClick={() => remove.mutate({ id: memory.id })} disabled={remove.isPending}>
              {remove.isPending ? 'Deleting…' : 'Delete memory'}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
