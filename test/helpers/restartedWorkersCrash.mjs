// Preloaded (node --import) by the workers test into `mnemo serve` and, through Node's cluster module, into each of its
// workers: the workers it starts first serve; each worker started in place of a crashed one (cluster ids above
// MNEMO_WORKERS) exits at once, before it loads anything, as a worker that crashes at every start would.
import cluster from 'node:cluster';

if (cluster.isWorker && cluster.worker.id > Number(process.env.MNEMO_WORKERS)) process.exit(9);
