export interface CircuitBreakerOptions {
  /** Consecutive transport failures (timeouts, refused connections, bad answers) that open the circuit. Default 3. */
  failureThreshold?: number;
  /** How long an open circuit refuses calls before one trial call may go through. Default 5000 ms. */
  openMs?: number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * A small circuit breaker: while mnemo is down, calls fail at once instead of each waiting for its deadline,
 * so an outage costs the gateway one timeout per window (a single trial call), not one per request.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #openMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openedAt: number | null = null;
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions = {}, now: () => number = Date.now) {
    this.#threshold = Math.max(1, options.failureThreshold ?? 3);
    this.#openMs = Math.max(0, options.openMs ?? 5000);
    this.#now = now;
  }

  get state(): CircuitState {
    if (this.#openedAt === null) return 'closed';
    return this.#now() - this.#openedAt >= this.#openMs ? 'half-open' : 'open';
  }

  /** Whether a call may go out now; in half-open state only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  success(): void {
    this.#failures = 0;
    this.#openedAt = null;
    this.#trialInFlight = false;
  }

  failure(): void {
    this.#failures += 1;
    // A failed trial reopens the window; otherwise the circuit opens at the threshold.
    if (this.#trialInFlight || this.#failures >= this.#threshold) this.#openedAt = this.#now();
    this.#trialInFlight = false;
  }

  /** A call that ended without telling anything about mnemo's health (a GraphQL error, the caller's abort). */
  neutral(): void {
    if (this.#trialInFlight) this.success();
  }
}
