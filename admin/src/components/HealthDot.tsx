import { useMemoryHealthQuery } from '../generated/graphql';
import { useUnreachableSince } from '../lib/connection';

/**
 * Green when the store answered a real round trip, red when not, and red at once when any request found no server;
 * the latency is in the tooltip.
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
        ? `Memory store healthy · round trip ${health!.latencyMs.toFixed(1)} ms`
        : unreachable
          ? 'Server unreachable'
          : `Memory store unhealthy${health?.error ? `: ${health.error}` : ''}`;
  const text = state === 'up' ? `${health!.latencyMs.toFixed(1)} ms` : state === 'down' ? (unreachable ? 'unreachable' : 'unhealthy') : '…';
  return (
    <span className={`health health-${state}`} title={label} role="status" aria-label={label}>
      <span className="dot" aria-hidden="true" />
      <span className="health-text">{text}</span>
    </span>
  );
}
