import type { Tone } from './StatusChip';

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
