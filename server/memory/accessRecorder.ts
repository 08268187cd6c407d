import { setImmediate } from 'node:timers/promises';
import type { Db } from '../db/open.ts';
import type { Logger } from '../logger.ts';
import { type AccessBatch, writeAccess } from './access.repository.ts';

export interface AccessRecorderOptions {
  /** How long counts wait before they are written. */
  intervalMs?: number;
  /** Pending memories that trigger a write at once, which bounds one write's size. */
  maxPending?: number;
  logger?: Logger;
}

/**
 * What gateway retrievals count (each memory's access count and last access, each key's retrievals and hits),
 * written behind: collected in memory and written a moment later, a thousand memories a transaction. A retrieval never waits
 * on a write, and a busy gateway pays one commit per interval, with repeated memories merged, instead of one
 * commit per request touching the page of every memory it returned. Whatever shows the counters calls
 * flush() first, so no reader is behind its own retrievals; a crash loses at most one interval of counts.
 */
export class AccessRecorder {
  readonly #db: Db;
  readonly #intervalMs: number;
  readonly #maxPending: number;
  readonly #logger: Logger | undefined;
  #pending: AccessBatch = emptyBatch();
  #timer: NodeJS.Timeout | null = null;
  #written: Promise<void> = Promise.resolve();

  constructor(db: Db, options: AccessRecorderOptions = {}) {
    this.#db = db;
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#maxPending = options.maxPending ?? 10_000;
    this.#logger = options.logger;
  }

  record(apiKeyId: string, pks: readonly number[], now: number): void {
    const { memories, keys } = this.#pending;
    for (const pk of pks) {
      const seen = memories.get(pk);
      if (seen) {
        seen.count++;
        seen.lastAt = Math.max(seen.lastAt, now);
      } else memories.set(pk, { count: 1, lastAt: now });
    }
    const key = keys.get(apiKeyId) ?? { retrievals: 0, hits: 0 };
    key.retrievals++;
    if (pks.length > 0) key.hits++;
    keys.set(apiKeyId, key);
    if (memories.size >= this.#maxPending) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.#intervalMs).unref();
  }

  /**
   * Drops the counts of a key not written yet (forgetApiKey, after its rows are gone): written later, they would bring
   * back its retrieval statistics. A memory's pending count needs no dropping: its row is gone, so it changes nothing.
   */
  discard(apiKeyId: string): void {
    this.#pending.keys.delete(apiKeyId);
  }

  /** Resolves once everything recorded before the call is in the database (or its loss is logged). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    if (batch.memories.size > 0 || batch.keys.size > 0) {
      this.#pending = emptyBatch();
      this.#written = this.#written.then(() => this.#write(batch));
    }
    return this.#written;
  }

  /**
   * Writes the batch in parts of at most WRITE_PART memories, each its own transaction, and lets the server serve
   * others between them: a busy key's second of counts touches thousands of memories, about 10 µs each, which one
   * statement would write while every request waits (90 ms and more for 9,000 at 10,000 memories).
   */
  async #write(batch: AccessBatch) {
    // In pk order, so that each part writes pages of its own: rows are stored by pk, and a page written by two commits
    // goes to the write-ahead log twice.
    const memories = [...batch.memories].sort(([a], [b]) => a - b);
    const parts = Math.max(1, Math.ceil(memories.length / WRITE_PART));
    for (let i = 0; i < parts; i++) {
      if (i > 0) await setImmediate();
      const part = { memories: new Map(memories.slice(i * WRITE_PART, (i + 1) * WRITE_PART)), keys: i === 0 ? batch.keys : new Map() };
      try {
        await writeAccess(this.#db, part);
      } catch (err: unknown) {
        const lost = { memories: memories.length - i * WRITE_PART, keys: part.keys.size };
        this.#logger?.error({ err, ...lost }, 'could not write access counts; they are lost');
        return;
      }
    }
  }
}

/** Memories' counts written in one transaction: about 10 ms of the event loop. */
const WRITE_PART = 1_000;

const emptyBatch = (): AccessBatch => ({ memories: new Map(), keys: new Map() });
