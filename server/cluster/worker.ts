import cluster from 'node:cluster';
import type { Metrics, MetricsSource } from '../metrics/metrics.ts';
import { type FromPrimary, type FromWorker, isMnemoMessage } from './messages.ts';

/**
 * This process's label when it is one of the workers of a server (1, 2, … in the order the primary started them; a
 * worker started in place of one that crashed gets the next), else null.
 */
export function workerLabel(): string | null {
  return cluster.worker ? String(cluster.worker.id) : null;
}

function send(message: FromWorker) {
  // The channel closes when the primary is gone; this worker then exits (Node's cluster module ends it).
  if (process.connected) process.send!(message);
}

/** Tells the primary that this worker's server listens. */
export function reportListening(port: number): void {
  send({ type: 'mnemo:listening', port });
}

/**
 * Answers the primary's requests for this worker's metrics, and returns what a scrape reaching this worker serves: the
 * whole server's metrics, which the primary gathers from every worker.
 */
export function workerMetrics(metrics: Metrics): MetricsSource {
  let next = 0;
  const scrapes = new Map<number, (text: string) => void>();
  process.on('message', (message: unknown) => {
    if (!isMnemoMessage<FromPrimary>(message)) return;
    if (message.type === 'mnemo:collect') {
      const { id } = message;
      void metrics.json().then(
        (json) => send({ type: 'mnemo:collected', id, metrics: json }),
        () => send({ type: 'mnemo:collected', id, metrics: null }),
      );
    } else {
      scrapes.get(message.id)?.(message.text);
      scrapes.delete(message.id);
    }
  });
  return {
    contentType: metrics.contentType,
    text: () =>
      new Promise((resolve) => {
        const id = next++;
        scrapes.set(id, resolve);
        send({ type: 'mnemo:scrape', id });
      }),
  };
}
