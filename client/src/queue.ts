export interface ExtractQueueOptions {
  /** Extractions waiting at most; when full, the oldest is dropped (and counted). Default 1000. */
  maxSize?: number;
  /** Extractions sent at once. Default 2. */
  concurrency?: number;
}

/**
 * How one extraction ended: mnemo took the message, skipped it because memory is switched off there, or it failed
 * (no answer, an error, or facts mnemo could not store).
 */
export type ExtractDelivery = 'sent' | 'disabled' | 'failed';

export interface QueueStats {
  /** Waiting now. */
  queued: number;
  /** Sending now. */
  inFlight: number;
  /** Answered by mnemo, which took what it could from the message (facts it found are stored). */
  sent: number;
  /** Answered by mnemo with memory switched off in its settings: nothing was extracted or stored. Not counted in sent. */
  disabled: number;
  /** Dropped to make room, oldest first: the queue was full. */
  dropped: number;
  /** Sent and failed (an error, storing the facts included; a timeout; an open circuit). */
  failed: number;
}

/**
 * A bounded in-memory queue for fire-and-forget work: a slow or absent mnemo can never grow the gateway's
 * memory beyond `maxSize` items; it drops the oldest instead, and counts what it dropped.
 */
export class DropOldestQueue<T> {
  readonly #items: T[] = [];
  readonly #maxSize: number;
  readonly #concurrency: number;
  readonly #send: (item: T) => Promise<ExtractDelivery>;
  readonly #idle: (() => void)[] = [];
  #inFlight = 0;
  #sent = 0;
  #disabled = 0;
  #dropped = 0;
  #failed = 0;

  constructor(send: (item: T) => Promise<ExtractDelivery>, options: ExtractQueueOptions = {}) {
    this.#send = send;
    this.#maxSize = Math.max(1, options.maxSize ?? 1000);
    this.#concurrency = Math.max(1, options.concurrency ?? 2);
  }

  push(item: T): void {
    if (this.#items.length >= this.#maxSize) {
      this.#items.shift();
      this.#dropped += 1;
    }
    this.#items.push(item);
    this.#pump();
  }

  stats(): QueueStats {
    return {
      queued: this.#items.length,
      inFlight: this.#inFlight,
      sent: this.#sent,
      disabled: this.#disabled,
      dropped: this.#dropped,
      failed: this.#failed,
    };
  }

  /** Resolves once nothing is waiting or being sent. */
  idle(): Promise<void> {
    if (this.#items.length === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    while (this.#inFlight < this.#concurrency && this.#items.length > 0) {
      const item = this.#items.shift() as T;
      this.#inFlight += 1;
      this.#send(item).then(
        (delivery) => this.#settle(delivery),
        () => this.#settle('failed'),
      );
    }
  }

  #settle(outcome: ExtractDelivery): void {
    this.#inFlight -= 1;
    if (outcome === 'sent') this.#sent += 1;
    else if (outcome === 'disabled') this.#disabled += 1;
    else this.#failed += 1;
    this.#pump();
    if (this.#items.length === 0 && this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }
}
