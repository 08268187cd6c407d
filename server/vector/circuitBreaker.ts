import { CallRecord } from './recentCalls.ts';

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * Stops calling a failing service for a while. After `threshold` consecutive failures the breaker opens and
 * calls are refused at once for `cooldownMs`; then one trial call is let through (half open): success closes
 * it, failure opens it again. Keeps a dead Qdrant from adding its timeout to every chat request.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private lastFailure: string | null = null;
  /** The calls that were made (not those refused while open), for the engine status. */
  readonly calls: CallRecord;

  constructor(
    private readonly threshold = 3,
    private readonly cooldownMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {
    this.calls = new CallRecord(now);
  }

  state(): BreakerState {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.cooldownMs ? 'half_open' : 'open';
  }

  lastError(): string | null {
    return this.lastFailure;
  }

  /** Runs the call unless the breaker is open; records its outcome. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state();
    if (state === 'open' || (state === 'half_open' && this.trialInFlight)) {
      throw new CircuitOpenError(`circuit open after ${this.failures} failures (last: ${this.lastFailure ?? 'unknown'})`);
    }
    this.trialInFlight = state === 'half_open';
    try {
      const result = await this.calls.track(call);
      this.failures = 0;
      this.openedAt = null;
      this.lastFailure = null;
      return result;
    } catch (error) {
      this.failures++;
      this.lastFailure = error instanceof Error ? error.message : String(error);
      if (state === 'half_open' || this.failures >= this.threshold) this.openedAt = this.now();
      throw error;
    } finally {
      this.trialInFlight = false;
    }
  }
}

export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError';
}
