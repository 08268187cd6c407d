/**
 * Starts the HTTP lane's client (httpClient.ts) in a child process and drives it block by block. While a
 * block runs, the caller should await it and do nothing else, so its process only serves.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClientBlock, ClientConfig, ClientReply } from './httpClient.ts';
import type { LoadConfig, LoadReply } from './loadClient.ts';

export type { ClientBlock, ClientReply } from './httpClient.ts';

export interface HttpClientProcess {
  /** Sends one block of requests; resolves with its timings, rejects if any response failed its checks. */
  run(block: ClientBlock): Promise<ClientReply>;
  /** Ends the child (closing its connection) and waits for it to exit. */
  close(): Promise<void>;
}

const CLIENT = fileURLToPath(new URL('./httpClient.ts', import.meta.url));
const LOAD_CLIENT = fileURLToPath(new URL('./loadClient.ts', import.meta.url));
/** The TypeScript loader `npm run bench` runs under (tsx), resolved from here so any working directory works. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export function spawnHttpClient(config: ClientConfig): HttpClientProcess {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let spawnError: Error | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (err) => {
      spawnError = err;
      resolve(null);
    });
  });
  // A child that died is reported by run() (no reply); writing to it must not crash this process.
  child.stdin.on('error', () => {});
  const replies = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  child.stdin.write(`${JSON.stringify(config)}\n`);

  return {
    async run(block) {
      child.stdin.write(`${JSON.stringify(block)}\n`);
      const next = await replies.next();
      if (next.done)
        throw new Error(`${config.label}: the HTTP client exited (${spawnError?.message ?? `code ${await exited}`}) without replying`);
      const reply = JSON.parse(next.value) as ClientReply | { error: string };
      if ('error' in reply) throw new Error(reply.error);
      return reply;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.stdin.end();
      const timeout = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/**
 * Runs the mixed-load clients (loadClient.ts) in a child process; resolves with their timings once they are done.
 * `warm` is awaited when their warm-up ends.
 */
export async function runLoadClients(config: LoadConfig, warm: () => Promise<void>): Promise<LoadReply> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, LOAD_CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdin.on('error', () => {});
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  child.stdin.end(`${JSON.stringify(config)}\n`);
  let line = await lines.next();
  if (!line.done && 'warm' in (JSON.parse(line.value) as object)) {
    await warm();
    line = await lines.next();
  }
  if (line.done) throw new Error(`the load clients exited (code ${await exited}) without replying`);
  const reply = JSON.parse(line.value) as LoadReply | { error: string };
  await exited;
  if ('error' in reply) throw new Error(reply.error);
  return reply;
}
