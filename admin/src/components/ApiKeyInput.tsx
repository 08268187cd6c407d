import { keepPreviousData } from '@tanstack/react-query';
import { type ComponentProps, useId } from 'react';
import { useApiKeySuggestionsQuery } from '../generated/graphql';
import { useDebouncedValue } from '../lib/useDebouncedValue';

const SUGGESTIONS = 20;

/**
 * The keys that have memories whose name contains `text` (debounced), with how many each; `settled` once they answer
 * for the text as it is now.
 */
export function useApiKeySuggestions(text: string) {
  const contains = useDebouncedValue(text.trim(), 200);
  const { data, isFetching } = useApiKeySuggestionsQuery(
    { contains: contains || null, limit: SUGGESTIONS },
    { placeholderData: keepPreviousData, staleTime: 30_000 },
  );
  return { items: data?.apiKeys.items ?? [], settled: contains === text.trim() && !isFetching && data !== undefined };
}

/**
 * A text input for an API key that suggests the keys that have memories (those containing what is typed, with how
 * many memories each), from the server's list rather than only the keys seen on the current page.
 */
export function ApiKeyInput({ value, ...props }: Omit<ComponentProps<'input'>, 'list' | 'value'> & { value: string }) {
  const listId = useId();
  const { items } = useApiKeySuggestions(value);
  return (
    <>
      <input {...props} value={value} list={listId} autoComplete="off" spellCheck={false} />
      <datalist id={listId}>
        {items.map((k) => (
          <option key={k.apiKeyId} value={k.apiKeyId} label={`${k.memories} ${k.memories === 1 ? 'memory' : 'memories'}`} />
        ))}
      </datalist>
    </>
  );
}

/** A list's API key filter: empty means all keys. */
export function ApiKeyFilter({ value, onChange }: { value: string; onChange: (apiKeyId: string) => void }) {
  return (
    <label className="field">
      <span>API key</span>
      <ApiKeyInput value={value} onChange={(e) => onChange(e.target.value)} placeholder="All keys" />
    </label>
  );
}
