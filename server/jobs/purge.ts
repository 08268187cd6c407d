import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';
import type { Db } from '../db/open.ts';
import type { Logger } from '../logger.ts';
import { type PurgeOutcome, purgeMemories, purgeTarget } from '../memory/purge.service.ts';
import { pruneInjectionLog } from '../retrieval/injectionLog.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { Leases } from './lease.ts';

const HOUR_MS = 3_600_000;

/**
 * The background purge: a pass at start and then every interval (an hour), never two at once (in this process, or in
 * another on the same database: a scheduled pass runs where the purge lease is held), stopped between two batches at
 * shutdown. It knows when its next pass starts, so the memory stats can say when a hidden memory goes.
 */
export class PurgeRunner {
  private timer: NodeJS.Timeout | null = null;
  private nextAt: number | null = null;
  private running: Promise<PurgeOutcome | null> | null = null;
  private abort: AbortController | null = null;
  /** Set by stop: a scheduled pass whose lease claim answers after it does not start (Leases.release waits for it). */
  private stopped = false;

  constructor(
    private readonly deps: { db: Db; now: () => number; settings: SettingsService; logger: Logger; leases: Leases },
    private readonly intervalMs = HOUR_MS,
  ) {}

  /** Runs a pass now and one every interval until stop(). */
  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.tick(), this.intervalMs).unref();
    this.tick();
  }

  /** Stops the schedule and the pass in progress (after its current batch); resolves once it has stopped. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.nextAt = null;
    this.abort?.abort();
    await this.running;
  }

  /** The first scheduled pass that starts at or after `due`; `due` itself when no pass is scheduled in this process. */
  firstPassFrom(due: number): number {
    if (this.nextAt === null || due <= this.nextAt) return this.nextAt ?? due;
    return this.nextAt + Math.ceil((due - this.nextAt) / this.intervalMs) * this.intervalMs;
  }

  /** One pass, unless one is running; resolves with what it did (null when it was skipped or failed). */
  pass(): Promise<PurgeOutcome | null> {
    if (this.running || this.stopped) return Promise.resolve(null);
    const abort = new AbortController();
    this.abort = abort;
    this.running = purgeMemories(this.deps, { signal: abort.signal })
      .then(async (outcome) => {
        if (outcome.expired + outcome.outOfRetention > 0) {
          this.deps.logger.info({ ...outcome }, 'purged expired and out-of-retention memories');
          await recordAudit(this.deps, { actor: SYSTEM_ACTOR, action: 'MEMORIES_PURGE', target: purgeTarget(outcome) });
        }
        // The injection log's entries past injectionLogDays go at the same pass.
        const entries = await pruneInjectionLog(this.deps);
        if (entries > 0) this.deps.logger.info({ entries }, 'injection log entries past their days deleted');
        return outcome;
      })
      .catch((err: unknown) => {
        this.deps.logger.error({ err }, 'purge pass failed');
        return null;
      })
      .finally(() => {
        this.running = null;
        this.abort = null;
      });
    return this.running;
  }

  private tick() {
    this.nextAt = this.deps.now() + this.intervalMs;
    this.deps.leases
      .whenHeld('purge', () => this.pass())
      .catch((err: unknown) => this.deps.logger.error({ err }, 'claiming the purge lease failed'));
  }
}
