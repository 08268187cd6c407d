import { useEffect, useState } from 'react';

/**
 * API keys seen in the lists so far, for the suggestions of the API key inputs. mnemo has no list of keys:
 * a key exists as soon as a memory is written for it.
 */
export function useKnownApiKeys(items: readonly { apiKeyId: string }[] | undefined): string[] {
  const [keys, setKeys] = useState<string[]>([]);
  useEffect(() => {
    if (!items?.length) return;
    setKeys((known) => {
      const fresh = items.map((m) => m.apiKeyId).filter((k) => !known.includes(k));
      return fresh.length === 0 ? known : [...new Set([...known, ...fresh])].sort();
    });
  }, [items]);
  return keys;
}
