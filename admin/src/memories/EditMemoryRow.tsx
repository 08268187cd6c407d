import { type KeyboardEvent, useEffect, useRef } from 'react';
import { DraftField } from '../components/DraftField';
import { FieldProblem } from '../components/FieldProblem';
import { FormError } from '../components/FormError';
import { type MemoryRowFieldsFragment, type MemoryType, useUpdateMemoryMutation } from '../generated/graphql';
import { useDraftForm } from '../lib/useDraftForm';
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

interface Draft {
  content: string;
  type: MemoryType;
  key: string;
  metadata: string;
  expiresAt: string;
}

const draftOf = (m: MemoryRowFieldsFragment): Draft => ({
  content: m.content,
  type: m.type,
  key: m.key,
  metadata: metadataText(m.metadata),
  expiresAt: toLocalInput(m.expiresAt),
});

/** A row being edited in place: content, type, key, metadata and expiry. Esc cancels, Ctrl/⌘+Enter saves. */
export function EditMemoryRow({ memory, columns, onDone }: Props) {
  const invalidate = useInvalidateMemories();
  const update = useUpdateMemoryMutation({
    onSuccess: async () => {
      await invalidate();
      onDone(true);
    },
  });
  const form = useDraftForm<Draft>({
    source: draftOf(memory),
    error: update.error,
    onEdit: update.reset,
    check: (d) => ({
      content: d.content.trim() === '' ? 'Content must not be empty.' : undefined,
      key: d.key.trim() === '' ? 'Key must not be empty.' : undefined,
    }),
    onSubmit: (d) => {
      const metadata = parseMetadata(d.metadata);
      if (!metadata.ok || update.isPending) return;
      update.mutate({
        id: memory.id,
        input: { content: d.content, type: d.type, key: d.key.trim(), metadata: metadata.value, expiresAt: fromLocalInput(d.expiresAt) },
      });
    },
  });
  const draft = form.draft!;
  const edit = form.edit;
  const check = parseMetadata(draft.metadata);
  const formRef = useRef<HTMLFormElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => contentRef.current?.focus(), []);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone(false);
    }
  }

  function onContentKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  return (
    <tr className="mem-editing">
      <td colSpan={columns}>
        <form
          ref={formRef}
          className="mem-edit"
          aria-label={`Edit memory ${memory.key}`}
          onSubmit={form.submit}
          onKeyDown={onKeyDown}
          noValidate
        >
          <div className="mem-edit-grid">
            <label className="field mem-edit-content">
              <span>Content</span>
              <textarea
                ref={contentRef}
                value={draft.content}
                rows={4}
                onChange={(e) => edit({ content: e.target.value })}
                onKeyDown={onContentKeyDown}
                {...form.field('content')}
              />
              <FieldProblem form={form} name="content" />
            </label>
            <div className="mem-edit-side">
              <DraftField form={form} name="key" label="Key" spellCheck={false} />
              <TypeSelect value={draft.type} onChange={(type) => edit({ type })} />
              <ExpiryField form={form} />
            </div>
            <div className="mem-edit-meta">
              <MetadataField
                value={draft.metadata}
                onChange={(metadata) => edit({ metadata })}
                check={check}
                serverProblem={form.problem('metadata')}
                rows={4}
              />
            </div>
          </div>
          <FormError error={update.error} form={form} prefix="Not saved" />
          <div className="actions">
            <button type="submit" className="primary" disabled={!check.ok || update.isPending}>
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
