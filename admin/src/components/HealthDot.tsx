import { useMemoryHealthQuery } from '../generated/graphql';

/** Green when the store answered a real round trip, red when not; the latency is in the tooltip. */
export function HealthDot() {
  const { data, error, isPending } = useMemoryHealthQuery(undefined, { refetchInterval: 30_000 });
  const health = data?.memoryHealth;
  const state = isPending ? 'pending' : error || !health?.ok ? 'down' : 'up';
  const label =
    state === 'pending'
      ? 'Checking memory health…'
      : state === 'up'
        ? `Memory store healthy · round trip ${health!.latencyMs.toFixed(1)} ms`
        : `Memory store unhealthy${health?.error ? `: ${health.error}` : ''}`;
  return (
    <span className={`health health-${state}`} title={label} role="status" aria-label={label}>
      <span className="dot" aria-hidden="true" />
      <span className="health-text">{state === 'up' ? `${health!.latencyMs.toFixed(1)} ms` : state === 'down' ? 'unhealthy' : '…'}</span>
    </span>
  );
}
