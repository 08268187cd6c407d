import { useMemoryHealthQuery } from '../generated/graphql';
import { useUnreachableSince } from '../lib/connection';
import { STORE_NAME } from './storeName';

/** What the dot says when the storage under the database is at fault: the operator's next step differs. */
const STORAGE_FAULTS: Record<string, string> = {
  STORAGE_FULL: 'disk full',
  STORAGE_ERROR: 'storage error',
  UNAVAILABLE: 'database unreachable',
};

/**
 * Green when the store answered a real round trip and a committed write, red when not, and red at once when any
 * request found no server; the latency is in the tooltip.
 */
export function HealthDot() {
  const unreachable = useUnreachableSince() !== null;
  const { data, error, isPending } = useMemoryHealthQuery(undefined, { refetchInterval: 30_000 });
  const health = data?.memoryHealth;
  const state = unreachable ? 'down' : isPending ? 'pending' : error || !health?.ok ? 'down' : 'up';
  const label =
    state === 'pending'
      ? 'Checking memory health…'
      : state === 'up'
        ? `Memory store healthy (${STORE_NAME[health!.store]}) · round trip ${health!.latencyMs.toFixed(1)} ms`
        : unreachable
          ? 'Server unreachable'
          : `Memory store unhealthy${health?.error ? `: ${health.error}` : ''}`;
  const text =
    state === 'up'
      ? `${health!.latencyMs.toFixed(1)} ms`
      : state === 'down'
        ? unreachable
          ? 'unreachable'
          : (STORAGE_FAULTS[health?.errorCode ?? ''] ?? 'unhealthy')
        : '…';
  return (
    <span className={`health health-${state}`} title={label} role="status" aria-label={label}>
      <span className="dot" aria-hidden="true" />
      <span className="health-text">{text}</span>
    </span>
  );
}
