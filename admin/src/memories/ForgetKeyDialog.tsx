import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNote } from '../components/ErrorNote';
import { type ForgetApiKeyMutation, useForgetApiKeyMutation } from '../generated/graphql';
import { useInvalidateMemories } from './useInvalidateMemories';

export type ForgetReport = ForgetApiKeyMutation['forgetApiKey'];

/**
 * Erases every trace of one API key once the admin has typed the key again: until then the Forget button stays
 * disabled. Cancel (which has the focus first) and Esc close it.
 */
export function ForgetKeyDialog(props: { apiKeyId: string | null; onClose: () => void; onForgotten: (report: ForgetReport) => void }) {
  const { apiKeyId, onClose, onForgotten } = props;
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
    if (apiKeyId === null) return;
    setTyped('');
    reset();
  }, [apiKeyId, reset]);

  return (
    <ConfirmDialog
      open={apiKeyId !== null}
      title={`Forget API key ${apiKeyId ?? ''}?`}
      confirmLabel="Forget this key"
      busyLabel="Forgetting…"
      danger
      busy={forget.isPending}
      confirmDisabled={typed !== apiKeyId}
      error={<ErrorNote error={forget.error} prefix="Not forgotten" />}
      onConfirm={() => apiKeyId !== null && forget.mutate({ apiKeyId })}
      onCancel={() => !forget.isPending && onClose()}
    >
      <p>
        Every memory of <code>{apiKeyId}</code> is erased, with its summaries and archived originals, keyword entries, vectors, Qdrant
        points, counts and statistics. It cannot be undone: export first if you may need them. Tokens bound to the key are kept; revoke them
        in Access.
      </p>
      <label className="field">
        <span>Type the API key to confirm</span>
        <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
      </label>
    </ConfirmDialog>
  );
}
