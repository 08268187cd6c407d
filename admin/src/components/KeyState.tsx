import { type ReactNode, useRef, useState } from 'react';
import type { Tone } from './StatusChip';

/**
 * A write-only secret being edited: what is typed stays in the input (never in React state), and `change()` says
 * what to send: nothing keeps the stored key, "" removes it, the typed text replaces it.
 */
export function useWriteOnlyKey() {
  const ref = useRef<HTMLInputElement>(null);
  const [removing, setRemoving] = useState(false);
  const clearInput = () => {
    if (ref.current) ref.current.value = '';
  };
  return {
    ref,
    removing,
    remove: () => {
      clearInput();
      setRemoving(true);
    },
    keep: () => setRemoving(false),
    /** After a save: the typed key leaves the page and nothing is marked for removal any more. */
    saved: () => {
      clearInput();
      setRemoving(false);
    },
    change: (): { apiKey?: string } => {
      const typed = ref.current?.value.trim() ?? '';
      return removing ? { apiKey: '' } : typed ? { apiKey: typed } : {};
    },
  };
}

/** The password input of a write-only API key with its state beside it; `fixed` when the environment sets the key. */
export function KeyField({
  secret,
  name,
  hasKey,
  missingTone,
  fixed = false,
  onChange,
  children,
}: {
  secret: ReturnType<typeof useWriteOnlyKey>;
  name: string;
  /** null: nothing to say yet (a record not created). */
  hasKey: boolean | null;
  missingTone: Tone;
  fixed?: boolean;
  onChange?: () => void;
  /** A note under the input. */
  children?: ReactNode;
}) {
  return (
    <div className="key-field">
      <label className="field">
        <span>API key</span>
        <input
          ref={secret.ref}
          type="password"
          name={name}
          autoComplete="new-password"
          spellCheck={false}
          disabled={secret.removing || fixed}
          onChange={onChange}
          placeholder={hasKey ? 'Leave empty to keep the stored key' : 'Paste the key; it is never shown again'}
        />
        {children}
      </label>
      <KeyState
        hasKey={hasKey}
        removing={secret.removing}
        canRemove={!fixed}
        missingTone={missingTone}
        onKeep={secret.keep}
        onRemove={secret.remove}
      />
    </div>
  );
}

/**
 * The state of a write-only secret beside its input: stored (with a way to remove it), stored but marked for
 * removal (with a way back), or missing. The secret itself never reaches the page.
 */
export function KeyState({
  hasKey,
  removing,
  canRemove = true,
  missingTone,
  onRemove,
  onKeep,
}: {
  /** null: nothing to say yet (a record not created). */
  hasKey: boolean | null;
  removing: boolean;
  canRemove?: boolean;
  missingTone: Tone;
  onRemove: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="key-state">
      {hasKey ? (
        removing ? (
          <>
            <span className="badge danger">key will be removed</span>
            <button type="button" className="small ghost" onClick={onKeep}>
              Keep key
            </button>
          </>
        ) : (
          <>
            <span className="badge ok">key set</span>
            {canRemove && (
              <button type="button" className="small danger" onClick={onRemove}>
                Remove key
              </button>
            )}
          </>
        )
      ) : hasKey === false ? (
        <span className={`badge ${missingTone}`}>no key</span>
      ) : null}
    </div>
  );
}
