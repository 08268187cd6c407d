import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, prometheusContentType, Registry } from 'prom-client';
import { listen, listenRefusal } from '../app.ts';
import type { CliIo } from '../cli.ts';
import type { Config } from '../config.ts';
import { EXIT } from '../exitCodes.ts';
import type { Logger } from '../logger.ts';
import type { MetricsJson, MetricsSource } from '../metrics/metrics.ts';
import { createMetricsServer } from '../metrics/metricsEndpoint.ts';
import { databaseName } from '../openData.ts';
import { type FromPrimary, type FromWorker, isMnemoMessage } from './messages.ts';

/** Workers that crash this many times within CRASH_WINDOW_MS stop the server: restarting them again would not help. */
export const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 60_000;
/** How long a scrape waits for a worker's metrics; a worker that does not answer in time is left out of it. */
const COLLECT_TIMEOUT_MS = 5_000;

/** How the primary's watch over its workers ended. */
type Outcome = { stop: true } | { stop: false; code: number; message: string | null };

/**
 * The primary of a server with several workers: it holds the data folder (its caller took the lock), starts
 * `config.workers` workers that serve the port together (Node's cluster module shares it; each runs `mnemo serve` as
 * a worker, serve.ts), says it listens once they all do, serves MNEMO_METRICS_PORT with the metrics of all of them,
 * starts a worker in place of one that crashes, and on a stop request drains them all. Resolves with the exit code.
 */
export async function runWorkers(config: Config, io: CliIo, logger: Logger, stopRequested: Promise<void>): Promise<number> {
  const listening = new Set<Worker>();
  const crashes: number[] = [];
  const metrics = new ServerMetrics();
  let state: 'starting' | 'serving' | 'stopping' = 'starting';
  let settle!: (outcome: Outcome) => void;
  const ended = new Promise<Outcome>((resolve) => (settle = resolve));
  let allListening!: (port: number) => void;
  const started = new Promise<number>((resolve) => (allListening = resolve));

  const onMessage = (worker: Worker, message: unknown) => {
    if (!isMnemoMessage<FromWorker>(message)) return;
    if (message.type === 'mnemo:listening') {
      listening.add(worker);
      logger.debug({ worker: worker.id, workerPid: worker.process.pid }, 'worker is listening');
      if (state === 'starting' && listening.size === config.workers) allListening(message.port);
    } else if (message.type === 'mnemo:collected') {
      metrics.received(message.id, message.metrics);
    } else {
      const { id } = message;
      void metrics.text().then((text) => send(worker, { type: 'mnemo:scraped', id, text, contentType: metrics.contentType }));
    }
  };
  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    const served = listening.delete(worker);
    if (state === 'stopping') return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    // A worker that fails to start (port in use, a database it cannot open) said why itself: the server stops with its code.
    if (state === 'starting' && !served) {
      settle({ stop: false, code: code || EXIT.software, message: code ? null : `mnemo: a worker stopped while starting (${how})\n` });
      return;
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes[0]! <= now - CRASH_WINDOW_MS) crashes.shift();
    if (crashes.length >= MAX_CRASHES) {
      logger.error(
        { worker: worker.id, workerPid: worker.process.pid, code, signal },
        'a worker stopped unexpectedly; workers keep crashing',
      );
      const message = `mnemo: workers crashed ${crashes.length} times within ${CRASH_WINDOW_MS / 1000} s (the last with ${how}); stopping\n`;
      settle({ stop: false, code: EXIT.software, message });
      return;
    }
    logger.error({ worker: worker.id, workerPid: worker.process.pid, code, signal }, 'a worker stopped unexpectedly; starting another');
    cluster.fork();
  };
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  for (let i = 0; i < config.workers; i++) cluster.fork();

  const stopped = stopRequested.then((): Outcome => ({ stop: true }));
  let outcome = await Promise.race([ended, stopped, started.then(() => null)]);
  let metricsServer: ReturnType<typeof createMetricsServer> | null = null;
  if (outcome === null) {
    const port = await started;
    let metricsUrl: string | undefined;
    if (config.metricsPort !== null) {
      metricsServer = createMetricsServer(metrics);
      try {
        metricsUrl = `http://${config.host}:${(await listen(metricsServer, config.metricsPort, config.host)).port}/metrics`;
      } catch (error) {
        const refusal = listenRefusal(error, config.host, { number: config.metricsPort, setting: 'MNEMO_METRICS_PORT' });
        if (refusal === undefined) throw error;
        metricsServer = null;
        outcome = { stop: false, code: EXIT.unavailable, message: refusal };
      }
    }
    if (outcome === null) {
      state = 'serving';
      logger.info(
        { url: `http://${config.host}:${port}/`, metrics: metricsUrl, data: databaseName(config), workers: config.workers },
        'mnemo is listening',
      );
      outcome = await Promise.race([ended, stopped]);
    }
  }
  state = 'stopping';
  logger.info({ workers: Object.keys(cluster.workers ?? {}).length }, 'stopping the workers');
  const codes = await stopWorkers();
  cluster.off('message', onMessage);
  cluster.off('exit', onExit);
  metricsServer?.close();
  if (!outcome.stop) {
    if (outcome.message) io.stderr.write(outcome.message);
    return outcome.code;
  }
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) logger.error({ code: failed }, 'a worker did not stop cleanly');
  return failed ?? 0;
}

/**
 * Asks every worker to stop as `mnemo serve` stops (SIGTERM: each drains its requests, stops its duties between
 * batches and gives up its leases), and waits for all of them. Their exit codes (a signal counts as EXIT.software).
 */
function stopWorkers(): Promise<number[]> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  return Promise.all(
    workers.map(
      (worker) =>
        new Promise<number>((resolve) => {
          if (worker.isDead()) return resolve(worker.process.exitCode ?? EXIT.software);
          worker.once('exit', (code: number | null) => resolve(code ?? EXIT.software));
          worker.process.kill('SIGTERM');
        }),
    ),
  );
}

function send(worker: Worker, message: FromPrimary) {
  if (worker.isConnected()) worker.send(message);
}

/**
 * The whole server's metrics: each worker's, gathered at each scrape and combined as each metric says (summed, or the
 * first worker's for the figures every worker reads from the database), with the primary's own process figures.
 */
class ServerMetrics implements MetricsSource {
  readonly contentType = prometheusContentType;
  private readonly own = new Registry();
  private ownStarted = false;
  private next = 0;
  private readonly collecting = new Map<number, { responses: MetricsJson[]; waiting: number; done: () => void }>();

  async text(): Promise<string> {
    if (!this.ownStarted) {
      this.ownStarted = true;
      collectDefaultMetrics({ register: this.own });
    }
    const responses: MetricsJson[] = [];
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w?.isConnected() ?? false);
    if (workers.length > 0) {
      const id = this.next++;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, COLLECT_TIMEOUT_MS);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.collecting.set(id, { responses, waiting: workers.length, done });
        for (const worker of workers) send(worker, { type: 'mnemo:collect', id });
      });
      this.collecting.delete(id);
    }
    responses.push(await this.own.getMetricsAsJSON());
    return AggregatorRegistry.aggregate(responses).metrics();
  }

  received(id: number, metrics: MetricsJson | null) {
    const collecting = this.collecting.get(id);
    if (!collecting) return;
    if (metrics) collecting.responses.push(metrics);
    if (--collecting.waiting === 0) collecting.done();
  }
}
