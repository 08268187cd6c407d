import { useEffect, useRef, useState } from 'react';
import { DraftField } from '../components/DraftField';
import { FieldProblem } from '../components/FieldProblem';
import { SaveActions } from '../components/SaveActions';
import { type MemoryType, useCreateMemoryMutation } from '../generated/graphql';
import { useDraftForm } from '../lib/useDraftForm';
import { ExpiryField, MetadataField, TypeSelect } from './fields';
import { fromLocalInput } from './format';
import { parseMetadata } from './metadata';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  id: string;
  /** Prefilled from the API key filter, so a memory is added where the user is looking. */
  defaultApiKey: string;
  onClose: () => void;
}

interface Draft {
  apiKeyId: string;
  sessionId: string;
  type: MemoryType;
  key: string;
  content: string;
  metadata: string;
  expiresAt: string;
}

/** Creates a memory (or updates the one with the same key of the same API key: the server upserts). */
export function AddMemoryForm({ id, defaultApiKey, onClose }: Props) {
  const invalidate = useInvalidateMemories();
  // After a save the form is ready for the next memory of the same key, session and type.
  const [sticky, setSticky] = useState<Pick<Draft, 'apiKeyId' | 'sessionId' | 'type'> | null>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const create = useCreateMemoryMutation({
    onSuccess: async (_data, { input }) => {
      setSticky({ apiKeyId: input.apiKeyId ?? '', sessionId: input.sessionId ?? '', type: input.type ?? 'FACTUAL' });
      form.saved();
      contentRef.current?.focus();
      await invalidate();
    },
  });
  const form = useDraftForm<Draft>({
    keep: 'memories/add',
    source: { apiKeyId: defaultApiKey, sessionId: '', type: 'FACTUAL', ...sticky, key: '', content: '', metadata: '{}', expiresAt: '' },
    error: create.error,
    onEdit: create.reset,
    check: (d) => ({
      apiKeyId: d.apiKeyId.trim() === '' ? 'API key is required.' : undefined,
      content: d.content.trim() === '' ? 'Content is required.' : undefined,
    }),
    onSubmit: (d) => {
      const metadata = parseMetadata(d.metadata);
      if (!metadata.ok) return;
      create.mutate({
        input: {
          apiKeyId: d.apiKeyId.trim(),
          sessionId: d.sessionId.trim() || null,
          type: d.type,
          key: d.key.trim() || null,
          content: d.content,
          metadata: metadata.value,
          expiresAt: fromLocalInput(d.expiresAt),
        },
      });
    },
  });
  const draft = form.draft!;
  const check = parseMetadata(draft.metadata);

  const edit = form.edit;

  return (
    <form id={id} className="card mem-panel" aria-label="Add memory" onSubmit={form.submit} noValidate>
      <div className="mem-panel-head">
        <h2>Add a memory</h2>
        <button type="button" className="ghost small" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="mem-form-grid">
        <DraftField form={form} name="apiKeyId" label="API key" apiKey ref={firstRef} />
        <DraftField form={form} name="sessionId" label="Session (optional)" spellCheck={false} placeholder="Key-wide when empty" />
        <TypeSelect value={draft.type} onChange={(type) => edit({ type })} />
        <DraftField form={form} name="key" label="Key (optional)" spellCheck={false} placeholder="Derived from the content" />
        <label className="field mem-span-2">
          <span>Content</span>
          <textarea
            ref={contentRef}
            className="mem-prose"
            value={draft.content}
            rows={3}
            onChange={(e) => edit({ content: e.target.value })}
            {...form.field('content')}
          />
          <FieldProblem form={form} name="content" />
        </label>
        <div className="mem-span-1">
          <MetadataField
            value={draft.metadata}
            onChange={(metadata) => edit({ metadata })}
            check={check}
            serverProblem={form.problem('metadata')}
          />
        </div>
        <div className="mem-span-1">
          <ExpiryField form={form} />
        </div>
      </div>
      <SaveActions
        save={create}
        form={form}
        label="Save memory"
        disabled={!check.ok}
        savedText={
          <>
            Saved <code>{create.data?.createMemory.key}</code>
          </>
        }
      />
    </form>
  );
}
