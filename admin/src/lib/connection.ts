import { useSyncExternalStore } from 'react';

/**
 * Whether the server answered the last request. One failed request (a network error: no HTTP answer at all) turns
 * the whole app "unreachable" at once, so one banner can say so instead of every panel failing on its own; the next
 * answer of any kind turns it back.
 */
let unreachableSince: number | null = null;
const listeners = new Set<() => void>();

export function reportReachable(reachable: boolean) {
  const next = reachable ? null : (unreachableSince ?? Date.now());
  if (next === unreachableSince) return;
  unreachableSince = next;
  for (const listener of listeners) listener();
}

/** null while the server answers; else when it stopped answering (ms since the epoch). */
export function useUnreachableSince(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unreachableSince,
  );
}

/** A request that got no HTTP answer: the server is down, restarting, or out of reach. */
export class ServerUnreachableError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached.', { cause });
    this.name = 'ServerUnreachableError';
  }
}
