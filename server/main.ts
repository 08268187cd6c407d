#!/usr/bin/env node
// The `mnemo` command. Compiled to dist/server/main.js, which the bin and `npm start` run with plain node;
// in development `npx tsx server/main.ts` runs the same file from source.

// Before anything else loads: node reads a module's source map only when maps are on as it loads the module
// (stack traces then name the TypeScript lines), and graphql-js reads NODE_ENV once, when it loads. Hence the
// dynamic imports.
process.setSourceMapsEnabled(true);
await import('./nodeEnv.ts');
const { runCli } = await import('./cli.ts');

/** The CLI on this process's environment, streams and signals. */
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
