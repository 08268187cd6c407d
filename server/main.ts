#!/usr/bin/env -S npx tsx
// First: sets NODE_ENV before any dependency reads it.
import './nodeEnv.ts';

/**
 * `mnemo serve` takes SIGINT and SIGTERM as a request to stop from the very start: loading the server's modules
 * takes a second or more (several on a busy machine), and a signal in that time would otherwise kill the process
 * with the default action (exit 143) instead of stopping it cleanly. Other commands keep the default action. (The
 * command is told by its first word; `mnemo --port 1 serve` gets its handlers when serve starts, as it did before.)
 */
const stopSignal = process.argv.slice(2).find((arg) => !arg.startsWith('-')) === 'serve' ? stopOnSignal() : null;

// Loaded after the handlers are in place.
const { runCli } = await import('./cli.ts');

/** The `mnemo` command: the CLI on this process's environment, streams and signals. */
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stopRequested: () => stopSignal ?? stopOnSignal(),
});
process.exit(code);

function stopOnSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
