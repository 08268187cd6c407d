#!/usr/bin/env node
// The `mnemo` command. Bundled into dist/server/main.js (scripts/buildServer.ts), which the bin and `npm start` run
// with plain node; in development `npx tsx server/main.ts` runs the same file from source.
import cluster from 'node:cluster';
import { boundHeapGrowth } from './heapGrowth.ts';

/**
 * `mnemo serve` takes SIGINT and SIGTERM as a request to stop from the very start: loading the server's modules
 * takes a second or more (several on a busy machine), and a signal in that time would otherwise kill the process
 * with the default action (exit 143) instead of stopping it cleanly. Other commands keep the default action. (The
 * command is told by its first word; `mnemo --port 1 serve` gets its handlers when serve starts, as it did before.)
 */
const serving = process.argv.slice(2).find((arg) => !arg.startsWith('-')) === 'serve';
const stopSignal = serving ? stopOnSignal() : null;
// A serving process, primary or worker, keeps less garbage between full collections (heapGrowth.ts); the other commands
// are batch jobs and keep V8's own trade-off. Set before the server's modules load: their loading runs the first full
// collections, and each sets the next one's threshold with the factor of that moment.
if (serving) boundHeapGrowth();

// Before anything else loads: node reads a module's source map only when maps are on as it loads the module
// (stack traces then name the TypeScript lines), and graphql-js reads NODE_ENV once, when it loads. Hence the
// dynamic imports, after the handlers are in place.
process.setSourceMapsEnabled(true);
await import('./nodeEnv.ts');
const { runCli } = await import('./cli.ts');

/** The CLI on this process's environment, streams and signals. */
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stopRequested: () => stopSignal ?? stopOnSignal(),
});
process.exit(code);

function stopOnSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => resolve();
    // A worker of a server with several (server/cluster/) keeps its handlers: the primary asks it to stop with SIGTERM,
    // and a signal sent to all of them at once (Ctrl-C to the terminal's process group, systemd to the service's
    // processes) reaches it as well, which must not kill it half-way through its drain.
    const listen = cluster.isWorker ? process.on.bind(process) : process.once.bind(process);
    listen('SIGINT', stop);
    listen('SIGTERM', stop);
  });
}
