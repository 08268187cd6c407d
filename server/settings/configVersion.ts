import type { Db } from '../db/open.ts';
import { readConfigVersion } from './configVersion.repository.ts';

/** How stale a cached setting may be after another process changed it. */
export const CONFIG_CHECK_MS = 250;

/**
 * The stored configuration's version, which changes at every write of settings or model providers, by this process or
 * another one sharing the database: the caches of settings, Qdrant settings and providers compare it before use, so a
 * change made on one replica is seen by all within CONFIG_CHECK_MS, for one small read per interval.
 */
export class ConfigVersion {
  private read: { at: number; version: Promise<number> } | null = null;

  constructor(
    private readonly deps: { db: Db; now: () => number },
    private readonly maxAgeMs = CONFIG_CHECK_MS,
  ) {}

  /** The version as stored at most maxAgeMs ago. */
  current(): Promise<number> {
    const now = this.deps.now();
    if (this.read && now >= this.read.at && now - this.read.at < this.maxAgeMs) return this.read.version;
    const version = readConfigVersion(this.deps.db);
    const read = { at: now, version };
    this.read = read;
    // A failed read is not kept: the next caller reads again.
    version.catch(() => {
      if (this.read === read) this.read = null;
    });
    return version;
  }

  /** After a write in this process: the next `current` reads the database, so this process sees its own change at once. */
  expire(): void {
    this.read = null;
  }
}
