import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useEvaluateMemorySearchQuery } from '../generated/graphql';
import { useDebouncedValue } from '../lib/useDebouncedValue';

export interface PickedMemory {
  id: string;
  key: string;
  content: string;
}

/** Finds a memory of the key by the words of its content or key, and hands the one chosen to `onPick`. */
export function MemorySearch({
  apiKeyId,
  label,
  actionLabel,
  exclude = [],
  onPick,
}: {
  apiKeyId: string;
  label: string;
  actionLabel: string;
  exclude?: readonly string[];
  onPick: (memory: PickedMemory) => void;
}) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 200);
  const resultsId = useId();
  const found = useEvaluateMemorySearchQuery(
    { apiKeyId, search },
    { enabled: search !== '' && apiKeyId !== '', placeholderData: keepPreviousData, staleTime: 10_000 },
  );
  const items = search === '' ? [] : (found.data?.memories.items ?? []).filter((m) => !exclude.includes(m.id));
  return (
    <div className="ev-search">
      <label className="field">
        <span>{label}</span>
        <input
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Words of the memory or its key"
          aria-controls={resultsId}
          autoComplete="off"
        />
      </label>
      <ul id={resultsId} className="ev-found" aria-label="Matches">
        {items.map((m) => (
          <li key={m.id}>
            <span className="ev-memory">
              <code>{m.key}</code> {m.content}
            </span>
            <button
              type="button"
              className="small"
              aria-label={`${actionLabel}: ${m.key}`}
              onClick={() => {
                onPick(m);
                setText('');
              }}
            >
              {actionLabel}
            </button>
          </li>
        ))}
        {search !== '' && found.isSuccess && items.length === 0 && <li className="muted">No memory of this key holds these words.</li>}
      </ul>
    </div>
  );
}
