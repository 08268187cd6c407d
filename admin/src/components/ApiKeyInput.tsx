import { keepPreviousData } from '@tanstack/react-query';
import { type ComponentProps, useId } from 'react';
import { useApiKeySuggestionsQuery } from '../generated/graphql';
import { useDebouncedValue } from '../lib/useDebouncedValue';

const SUGGESTIONS = 20;

/**
 * A text input for an API key that suggests the keys that have memories (those containing what is typed, with how
 * many memories each), from the server's list rather than only the keys seen on the current page.
 */
export function ApiKeyInput({ value, ...props }: Omit<ComponentProps<'input'>, 'list' | 'value'> & { value: string }) {
  const listId = useId();
  const contains = useDebouncedValue(value.trim(), 200);
  const { data } = useApiKeySuggestionsQuery(
    { contains: contains || null, limit: SUGGESTIONS },
    { placeholderData: keepPreviousData, staleTime: 30_000 },
  );
  return (
    <>
      <input {...props} value={value} list={listId} autoComplete="off" spellCheck={false} />
      <datalist id={listId}>
        {data?.apiKeys.items.map((k) => (
          <option key={k.apiKeyId} value={k.apiKeyId} label={`${k.memories} ${k.memories === 1 ? 'memory' : 'memories'}`} />
        ))}
      </datalist>
    </>
  );
}
