import type { MetricsJson } from '../metrics/metrics.ts';

// What the primary of a server with several workers and its workers say to each other over the IPC channel that Node's
// cluster module opens for each worker.

/** Worker → primary. */
export type FromWorker =
  /** Its server listens (on the port the primary shares between the workers). */
  | { type: 'mnemo:listening'; port: number }
  /** A scrape of /metrics reached this worker: it wants the whole server's figures (answered with `scraped`). */
  | { type: 'mnemo:scrape'; id: number }
  /** Its own metrics, for a `collect` of the primary's. */
  | { type: 'mnemo:collected'; id: number; metrics: MetricsJson | null };

/** Primary → worker. */
export type FromPrimary =
  /** Asks for the worker's own metrics (answered with `collected`). */
  | { type: 'mnemo:collect'; id: number }
  /** The whole server's metrics in the Prometheus text exposition, for the worker's `scrape`. */
  | { type: 'mnemo:scraped'; id: number; text: string; contentType: string };

/** Whether an IPC message is one of mnemo's (Node's cluster module and prom-client send their own on the same channel). */
export function isMnemoMessage<T extends { type: string }>(message: unknown): message is T {
  return typeof (message as { type?: unknown } | null)?.type === 'string' && (message as { type: string }).type.startsWith('mnemo:');
}
