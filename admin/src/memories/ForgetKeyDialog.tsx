import { useEffect, useId, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { type ForgetApiKeyMutation, useForgetApiKeyMutation } from '../generated/graphql';
import { useInvalidateMemories } from './useInvalidateMemories';

export type ForgetReport = ForgetApiKeyMutation['forgetApiKey'];

interface Props {
  /** The API key to forget; null: closed. */
  apiKeyId: string | null;
  onClose: () => void;
  onForgotten: (report: ForgetReport) => void;
}

/**
 * Erases every trace of one API key after the admin types the key again: a modal <dialog> whose Forget button
 * stays disabled until the typed text is exactly the key. Cancel and Esc close it.
 */
export function ForgetKeyDialog({ apiKeyId, onClose, onForgotten }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const invalidate = useInvalidateMemories();
  const forget = useForgetApiKeyMutation({
    onSuccess: async (data) => {
      await invalidate();
      onForgotten(data.forgetApiKey);
    },
  });
  const { reset } = forget;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (apiKeyId !== null && !dialog.open) {
      reset();
      setTyped('');
      dialog.showModal();
      inputRef.current?.focus();
    } else if (apiKeyId === null && dialog.open) {
      dialog.close();
    }
  }, [apiKeyId, reset]);

  const confirmed = apiKeyId !== null && typed === apiKeyId;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className="mem-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!forget.isPending) onClose();
      }}
    >
      {apiKeyId !== null && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (confirmed) forget.mutate({ apiKeyId });
          }}
        >
          <h2 id={titleId}>Forget API key {apiKeyId}?</h2>
          <p>
            Every memory of <code>{apiKeyId}</code> is erased, with its summaries and archived originals, keyword entries, vectors, Qdrant
            points, counts and statistics. It cannot be undone: export first if you may need them. Tokens bound to the key are kept; revoke
            them in Access.
          </p>
          <label className="field">
            <span>Type the API key to confirm</span>
            <input ref={inputRef} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <ErrorNote error={forget.error} prefix="Not forgotten" />
          <div className="actions mem-dialog-actions">
            <button type="button" onClick={onClose} disabled={forget.isPending}>
              Cancel
            </button>
            <button type="submit" className="danger solid" disabled={!confirmed || forget.isPending}>
              {forget.isPending ? 'Forgetting…' : 'Forget this key'}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
