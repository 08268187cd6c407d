/**
 * Starts the requests that do a server's work one per turn of the event loop, in the order they came.
 *
 * better-sqlite3 answers synchronously, so a request, once started, is served to its end without letting go of the
 * loop. Left to itself, the loop starts every request it read in one poll, back to back: with 16 clients each waiting
 * for its answer before asking again, one worker's loop was held for 16 requests at a time (150–350 ms under load),
 * and nothing else ran meanwhile: no timer (a lease's renewal, a subscription's keep-alive, the access-count flush),
 * no /healthz or /readyz, no new connection. Taken one per turn, the loop looks at its timers and sockets between any
 * two requests. Each request still waits for those ahead of it, as before: this changes who waits, not how long the
 * queue is.
 */
export interface RequestTurns {
  /** Resolves when it is this request's turn: in the loop's next check phase with no request ahead of it. */
  take(): Promise<void>;
  /**
   * Serves a request in its turn, unless its caller hung up while it waited (its response destroyed with the
   * connection): nobody would read the answer. A gateway's client gives up after its timeout, and under overload the
   * requests it abandoned would otherwise still be served, each in front of one that is waited for.
   */
  serve(res: { readonly destroyed: boolean }, serve: () => unknown): void;
}

/** `waited`: told, as each request starts, how long it waited for its turn (ms). */
export function requestTurns(o: { waited?: (ms: number) => void } = {}): RequestTurns {
  const waiting: { start: () => void; since: number }[] = [];
  let scheduled = false;
  // An immediate scheduled from an immediate runs in the loop's next turn (Node's setImmediate), after its timers and
  // its poll: one start per turn.
  const startNext = () => {
    const next = waiting.shift();
    // The next start is scheduled first: nothing this one does can stop the queue.
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(startNext);
    if (next) {
      next.start();
      o.waited?.(performance.now() - next.since);
    }
  };
  const take = () =>
    new Promise<void>((resolve) => {
      waiting.push({ start: resolve, since: performance.now() });
      if (!scheduled) {
        scheduled = true;
        setImmediate(startNext);
      }
    });
  return {
    take,
    serve: (res, serve) =>
      void take().then(() => {
        if (!res.destroyed) serve();
      }),
  };
}
