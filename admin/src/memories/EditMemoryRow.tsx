import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { type MemoryRowFieldsFragment, type MemoryType, useUpdateMemoryMutation } from '../generated/graphql';
import { ExpiryField, MetadataField, TypeSelect } from './fields';
import { fromLocalInput, toLocalInput } from './format';
import { metadataText, parseMetadata } from './metadata';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  memory: MemoryRowFieldsFragment;
  columns: number;
  /** Leaves edit mode; `saved` tells whether the change went through. */
  onDone: (saved: boolean) => void;
}

/** A row being edited in place: content, type, key, metadata and expiry. Esc cancels, Ctrl/⌘+Enter saves. */
export function EditMemoryRow({ memory, columns, onDone }: Props) {
  const invalidate = useInvalidateMemories();
  const update = useUpdateMemoryMutation({
    onSuccess: async () => {
      await invalidate();
      onDone(true);
    },
  });
  const [content, setContent] = useState(memory.content);
  const [type, setType] = useState<MemoryType>(memory.type);
  const [key, setKey] = useState(memory.key);
  const [metadata, setMetadata] = useState(metadataText(memory.metadata));
  const [expires, setExpires] = useState(toLocalInput(memory.expiresAt));
  const contentRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => contentRef.current?.focus(), []);

  const check = parseMetadata(metadata);
  const problem = content.trim() === '' ? 'Content must not be empty.' : key.trim() === '' ? 'Key must not be empty.' : null;
  const canSave = check.ok && problem === null && !update.isPending;

  function save(event?: FormEvent) {
    event?.preventDefault();
    if (!canSave || !check.ok) return;
    update.mutate({
      id: memory.id,
      input: { content, type, key: key.trim(), metadata: check.value, expiresAt: fromLocalInput(expires) },
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone(false);
    }
  }

  function onContentKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  }

  return (
    <tr className="mem-editing">
      <td colSpan={columns}>
        <form className="mem-edit" aria-label={`Edit memory ${memory.key}`} onSubmit={save} onKeyDown={onKeyDown}>
          <div className="mem-edit-grid">
            <label className="field mem-edit-content">
              <span>Content</span>
              <textarea
                ref={contentRef}
                value={content}
                rows={4}
                onChange={(e) => setContent(e.target.value)}
                onKeyDown={onContentKeyDown}
                aria-invalid={content.trim() === ''}
              />
            </label>
            <div className="mem-edit-side">
              <label className="field">
                <span>Key</span>
                <input value={key} onChange={(e) => setKey(e.target.value)} spellCheck={false} aria-invalid={key.trim() === ''} />
              </label>
              <TypeSelect value={type} onChange={setType} />
              <ExpiryField value={expires} onChange={setExpires} />
            </div>
            <div className="mem-edit-meta">
              <MetadataField value={metadata} onChange={setMetadata} check={check} rows={4} />
            </div>
          </div>
          {problem && <p className="error">{problem}</p>}
          <ErrorNote error={update.error} prefix="Not saved" />
          <div className="actions">
            <button type="submit" className="primary" disabled={!canSave}>
              {update.isPending ? 'Saving…' : 'Save changes'}
            </button>
            <button type="button" onClick={() => onDone(false)}>
              Cancel
            </button>
            <span className="muted mem-kbd-hint">
              <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> in the content saves · <kbd>Esc</kbd> cancels
            </span>
          </div>
        </form>
      </td>
    </tr>
  );
}
