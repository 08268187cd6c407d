import type { Db } from '../db/open.ts';
import type { Logger } from '../logger.ts';
import { claimLease, releaseLease } from './lease.repository.ts';

/** How long a lease outlives its holder's last renewal: how long a duty waits when the process running it dies. */
export const LEASE_MS = 15_000;

/** The background duties that run in one process at a time among those sharing a database. */
export type Duty = 'purge' | 'auto-summarize' | 'audit-retention' | 'embedding-worker' | 'database-maintenance';

/**
 * This process's leases on background duties. Several `mnemo serve` processes may share one database: each duty runs
 * in the one that holds its lease, which it keeps while it lives (renewed every LEASE_MS / 3); when that process dies
 * the lease expires and another process takes the duty over. A duty's runner asks `hold` before each pass.
 */
export class Leases {
  /** Duties asked for here: kept while held, claimed again when they come free. */
  private readonly wanted = new Set<Duty>();
  private readonly held = new Set<Duty>();
  private timer: NodeJS.Timeout | null = null;
  private released = false;
  /** Passes of whenHeld, from the claim to the pass's end. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: { db: Db; now: () => number; logger: Logger },
    /** This process among those sharing the database (server/processInstance.ts). */
    readonly owner: string,
    private readonly ttlMs = LEASE_MS,
  ) {}

  /** Whether this process holds the duty now: claims it when it is free or expired, renews it when held here. */
  async hold(duty: Duty): Promise<boolean> {
    if (this.released) return false;
    this.wanted.add(duty);
    const now = this.deps.now();
    const holds = await claimLease(this.deps.db, { name: duty, owner: this.owner, now, expiresAt: now + this.ttlMs });
    // Said when the duty comes here (at start, or taken over from a process that is gone): which process runs what.
    if (holds && !this.held.has(duty)) this.deps.logger.debug({ duty, owner: this.owner }, 'background duty runs here');
    if (holds) this.held.add(duty);
    else this.held.delete(duty);
    return holds;
  }

  /**
   * Runs a pass of the duty when this process holds it; null when another process does, or when `release` came while
   * the lease was being claimed. `release` waits for the passes in flight.
   */
  async whenHeld<T>(duty: Duty, pass: () => Promise<T>): Promise<T | null> {
    const run = (async () => ((await this.hold(duty)) && !this.released ? pass() : null))();
    this.inFlight.add(run);
    try {
      return await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  /** Renews the leases held here, and claims the wanted ones that came free, until `release`. */
  keep(): void {
    this.timer ??= setInterval(() => void this.renew(), this.ttlMs / 3).unref();
  }

  /**
   * Stops renewing and gives up every lease held here for good, so other processes take the duties over at once; first
   * waits for the passes in flight (their runners were stopped before: a pass must not outlive the database).
   */
  async release(): Promise<void> {
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.wanted.clear();
    await Promise.allSettled([...this.inFlight]);
    const held = [...this.held];
    this.held.clear();
    await Promise.all(held.map((duty) => releaseLease(this.deps.db, duty, this.owner)));
  }

  private async renew() {
    for (const duty of this.wanted) {
      await this.hold(duty).catch((err: unknown) => this.deps.logger.warn({ err, duty }, 'renewing a lease failed'));
    }
  }
}
