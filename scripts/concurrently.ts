import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * `tsx scripts/concurrently.ts <npm script>...`: runs the named npm scripts at the same time, as many at once as
 * there are cores (tsc is single-threaded, and the test suites often wait on processes they started), starting them
 * in the order given: the longest first. The first script's output is shown as it comes (its progress is what the
 * terminal follows); each other's is printed whole when it ends, so two never interleave. The command fails, after
 * every script has ended, when any of them failed, and says which.
 */
const scripts = process.argv.slice(2);
const lanes = Math.max(1, availableParallelism());

function run(script: string): Promise<boolean> {
  const live = script === scripts[0];
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('close', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) process.stdout.write(`npm run ${script} failed (${signal ?? `exit code ${code}`})\n`);
      resolve(code === 0);
    });
  });
}

const queue = [...scripts];
const failed: string[] = [];
await Promise.all(
  Array.from({ length: Math.min(lanes, queue.length) }, async () => {
    for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
      if (!(await run(script))) failed.push(script);
    }
  }),
);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
