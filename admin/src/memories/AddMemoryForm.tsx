import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { type MemoryType, useCreateMemoryMutation } from '../generated/graphql';
import { ExpiryField, MetadataField, TypeSelect } from './fields';
import { fromLocalInput } from './format';
import { parseMetadata } from './metadata';
import { useInvalidateMemories } from './useInvalidateMemories';

interface Props {
  id: string;
  apiKeysListId: string;
  /** Prefilled from the API key filter, so a memory is added where the user is looking. */
  defaultApiKey: string;
  onClose: () => void;
}

/** Creates a memory (or updates the one with the same key of the same API key: the server upserts). */
export function AddMemoryForm({ id, apiKeysListId, defaultApiKey, onClose }: Props) {
  const invalidate = useInvalidateMemories();
  const [apiKeyId, setApiKeyId] = useState(defaultApiKey);
  const [sessionId, setSessionId] = useState('');
  const [type, setType] = useState<MemoryType>('FACTUAL');
  const [key, setKey] = useState('');
  const [content, setContent] = useState('');
  const [metadata, setMetadata] = useState('{}');
  const [expires, setExpires] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const create = useCreateMemoryMutation({
    onSuccess: async (data) => {
      setSaved(data.createMemory.key);
      // Ready for the next one of the same key and session.
      setKey('');
      setContent('');
      setMetadata('{}');
      setExpires('');
      contentRef.current?.focus();
      await invalidate();
    },
  });

  const check = parseMetadata(metadata);
  const missing = apiKeyId.trim() === '' ? 'API key' : content.trim() === '' ? 'Content' : null;
  const canSave = check.ok && missing === null && !create.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSave || !check.ok) return;
    create.mutate({
      input: {
        apiKeyId: apiKeyId.trim(),
        sessionId: sessionId.trim() || null,
        type,
        key: key.trim() || null,
        content,
        metadata: check.value,
        expiresAt: fromLocalInput(expires),
      },
    });
  }

  const touch =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setSaved(null);
      create.reset();
      set(v);
    };

  return (
    <form id={id} className="card mem-panel" aria-label="Add memory" onSubmit={submit}>
      <div className="mem-panel-head">
        <h2>Add a memory</h2>
        <button type="button" className="ghost small" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="mem-form-grid">
        <label className="field">
          <span>API key</span>
          <input
            ref={firstRef}
            value={apiKeyId}
            list={apiKeysListId}
            onChange={(e) => touch(setApiKeyId)(e.target.value)}
            required
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span>Session (optional)</span>
          <input
            value={sessionId}
            onChange={(e) => touch(setSessionId)(e.target.value)}
            spellCheck={false}
            placeholder="Key-wide when empty"
          />
        </label>
        <TypeSelect value={type} onChange={touch(setType)} />
        <label className="field">
          <span>Key (optional)</span>
          <input value={key} onChange={(e) => touch(setKey)(e.target.value)} spellCheck={false} placeholder="Derived from the content" />
        </label>
        <label className="field mem-span-2">
          <span>Content</span>
          <textarea
            ref={contentRef}
            className="mem-prose"
            value={content}
            rows={3}
            onChange={(e) => touch(setContent)(e.target.value)}
            required
          />
        </label>
        <div className="mem-span-1">
          <MetadataField value={metadata} onChange={touch(setMetadata)} check={check} />
        </div>
        <div className="mem-span-1">
          <ExpiryField value={expires} onChange={touch(setExpires)} />
        </div>
      </div>
      <ErrorNote error={create.error} prefix="Not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={!canSave}>
          {create.isPending ? 'Saving…' : 'Save memory'}
        </button>
        {missing && !saved && <span className="muted">{missing} is required.</span>}
        {saved && (
          <span role="status" className="ok">
            Saved <code>{saved}</code>
          </span>
        )}
      </div>
    </form>
  );
}
