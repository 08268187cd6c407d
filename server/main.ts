#!/usr/bin/env -S npx tsx
// First: sets NODE_ENV before any dependency reads it.
import './nodeEnv.ts';
import { runCli } from './cli.ts';

/** The `mnemo` command: the CLI on this process's environment, streams and signals. */
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stopRequested: () =>
    new Promise((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
});
process.exit(code);
