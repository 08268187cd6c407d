import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_CRASHES } from '../../server/cluster/primary.ts';
import { EXIT } from '../../server/exitCodes.ts';
import { documentText } from '../helpers/graphqlHttp.ts';
import { type MnemoProcess, runMnemo, spawnMnemo } from '../helpers/mnemoProcess.ts';
import { CREATE_MEMORY, GET_SETTINGS, LIST_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';

// `mnemo serve` with MNEMO_WORKERS: real processes (dist/ after `npm run build`, else the sources). Every request here
// goes on a connection of its own, so the primary hands each to a worker in turn and the test sees both answer.

const ADMIN = 'workers-admin-token-0123456789';
const METRICS = 'workers-metrics-token-0123456789';

const folders: string[] = [];
const servers: MnemoProcess[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function dataFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-workers-'));
  folders.push(dir);
  return dir;
}

/** `mnemo serve` on the folder; killed after the test unless `kept` (a server that several tests share). */
function serve(dataDir: string, workers: string, { kept = false } = {}): MnemoProcess {
  const server = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], {
    MNEMO_DATA_DIR: dataDir,
    HOME: dataDir,
    MNEMO_ADMIN_TOKEN: ADMIN,
    MNEMO_METRICS_TOKEN: METRICS,
    MNEMO_WORKERS: workers,
    MNEMO_LOG_LEVEL: 'debug',
    MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
  });
  if (!kept) servers.push(server);
  return server;
}

interface Answer {
  /** The mnemo-worker header: which worker answered (absent from a server of one process). */
  worker: string | undefined;
  status: number;
  body: string;
}

/** One request on a connection of its own (no keep-alive), so that the next one may reach another worker. */
function send(url: string, target: string, init: { method?: string; token?: string; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', 'content-type': 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const req = request(`${url}${target}`, { method: init.method ?? 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ worker: res.headers['mnemo-worker'] as string | undefined, status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const graphql = (url: string, query: Parameters<typeof documentText>[0], variables: Record<string, unknown>) =>
  send(url, '/graphql', { method: 'POST', token: ADMIN, body: JSON.stringify({ query: documentText(query), variables }) });

/** Sends until a worker other than `not` answers (each send is a new connection; the primary deals them out in turn). */
async function answeredByAnother(not: string | undefined, call: () => Promise<Answer>): Promise<Answer> {
  for (let i = 0; i < 20; i++) {
    const answer = await call();
    if (answer.worker !== not) return answer;
  }
  throw new Error(`every answer came from worker ${not}`);
}

/** The JSON lines the server logged with this message. */
function logged(server: MnemoProcess, msg: string): Record<string, unknown>[] {
  return server.out.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

/** The sum of a metric's series in a Prometheus text exposition, over the series whose labels include `labels`. */
function metricSum(text: string, name: string, labels: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('mnemo serve with MNEMO_WORKERS=2', () => {
  let dataDir: string;
  let server: MnemoProcess;
  let url: string;

  beforeAll(async () => {
    dataDir = dataFolder();
    server = serve(dataDir, '2', { kept: true });
    url = await server.listening();
  });
  afterAll(() => server.child.kill('SIGKILL'));

  it('answers from both workers, and a memory written through one is read through the other at once', async () => {
    const created = await graphql(url, CREATE_MEMORY, { input: { apiKeyId: 'k1', content: 'the deploy runs on Tuesdays' } });
    expect(created.status).toBe(200);
    expect(['1', '2']).toContain(created.worker);
    const read = await answeredByAnother(created.worker, () => graphql(url, LIST_MEMORIES, { apiKeyId: 'k1' }));
    expect(['1', '2']).toContain(read.worker);
    const items = (JSON.parse(read.body) as { data: { memories: { items: { content: string }[] } } }).data.memories.items;
    expect(items.map((m) => m.content)).toEqual(['the deploy runs on Tuesdays']);
  });

  it('lets the other worker see a settings change made through one (within the config version check, 250 ms)', async () => {
    const changed = await graphql(url, UPDATE_SETTINGS, { input: { maxTokens: 777 } });
    expect(changed.status).toBe(200);
    const maxTokensSeenByAnother = async () => {
      const read = await answeredByAnother(changed.worker, () => graphql(url, GET_SETTINGS, {}));
      return (JSON.parse(read.body) as { data: { memorySettings: { maxTokens: number } } }).data.memorySettings.maxTokens;
    };
    await vi.waitFor(async () => expect(await maxTokensSeenByAnother()).toBe(777), { timeout: 5_000 });
  });

  it('runs each background duty in one worker only', async () => {
    const duties = ['purge', 'audit-retention', 'embedding-worker', 'database-maintenance'];
    await vi.waitFor(() => expect(new Set(logged(server, 'background duty runs here').map((l) => l.duty))).toEqual(new Set(duties)), {
      timeout: 20_000,
    });
    const workersOf = (duty: string) =>
      new Set(
        logged(server, 'background duty runs here')
          .filter((l) => l.duty === duty)
          .map((l) => l.worker),
      );
    for (const duty of duties) expect([duty, workersOf(duty).size]).toEqual([duty, 1]);
  });

  it("serves the whole server's metrics, whichever worker is scraped", async () => {
    const scrape = () => send(url, '/metrics', { token: METRICS });
    const before = await scrape();
    const counted = (answer: Answer) => metricSum(answer.body, 'mnemo_graphql_requests_total', 'field="memories"');
    const reads: Answer[] = [];
    for (let i = 0; i < 6; i++) reads.push(await graphql(url, LIST_MEMORIES, { apiKeyId: 'k1' }));
    expect(new Set(reads.map((r) => r.worker))).toEqual(new Set(['1', '2']));
    const first = await scrape();
    const second = await answeredByAnother(first.worker, scrape);
    expect(counted(first) - counted(before)).toBe(6);
    expect(counted(second)).toBe(counted(first));
    // Figures read from the database are the same in every worker and counted once, not once per worker.
    expect(metricSum(first.body, 'mnemo_memories', 'state="active"')).toBe(1);
  });

  it('refuses a second mnemo serve on the same data folder', async () => {
    const second = serve(dataDir, '2');
    expect(await second.exited).toBe(EXIT.unavailable);
    expect(second.out.stderr).toContain('holds this data folder');
  });

  it('starts a worker in place of one that crashes, and says so', async () => {
    const [victim] = logged(server, 'worker is listening');
    process.kill(victim!.workerPid as number, 'SIGKILL');
    await vi.waitFor(() => expect(logged(server, 'worker is listening')).toHaveLength(3), { timeout: 30_000 });
    expect(logged(server, 'a worker stopped unexpectedly; starting another')).toMatchObject([
      { worker: victim!.worker, workerPid: victim!.workerPid, signal: 'SIGKILL' },
    ]);
    expect((await send(url, '/healthz')).status).toBe(200);
  });

  it('drains every worker on SIGTERM, sent to all its processes at once (as Ctrl-C or systemd do), and exits 0', async () => {
    const workers = serving(server);
    for (const pid of [server.child.pid!, ...Object.values(workers)]) process.kill(pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    const stoppedWorkers = new Set(logged(server, 'stopped').map((l) => l.worker));
    // Each worker that serves drained and stopped; the primary said so last.
    expect(stoppedWorkers).toEqual(new Set([...Object.keys(workers).map(Number), undefined]));
    // The primary gave the data folder up: another server starts on it.
    const next = serve(dataDir, '1');
    await next.listening();
  });
});

/** The serving workers' labels and pids, from the log: those that listened and did not crash since. */
function serving(server: MnemoProcess): Record<string, number> {
  const live = logged(server, 'worker is listening').filter(
    (l) => !logged(server, 'a worker stopped unexpectedly; starting another').some((c) => c.worker === l.worker),
  );
  return Object.fromEntries(live.map((l) => [String(l.worker), l.workerPid as number]));
}

describe('mnemo serve with MNEMO_WORKERS=1', () => {
  it('serves in one process, as a server without workers does', async () => {
    const server = serve(dataFolder(), '1');
    const url = await server.listening();
    const answer = await send(url, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.worker).toBeUndefined();
    expect(readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8').trim()).toBe('');
  });
});

describe('MNEMO_WORKERS', () => {
  it.each(['0', '65', '1.5', 'many'])('refuses %j as a usage error', async (value) => {
    const { code, stderr } = await runMnemo(['serve'], { MNEMO_DATA_DIR: dataFolder(), MNEMO_WORKERS: value });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('MNEMO_WORKERS must be a whole number of processes, 1 to 64');
  });

  it('stops the server with a clear error when its workers keep crashing', async () => {
    const dataDir = dataFolder();
    const server = spawnMnemo(
      ['serve', '--port', '0', '--host', '127.0.0.1'],
      { MNEMO_DATA_DIR: dataDir, HOME: dataDir, MNEMO_ADMIN_TOKEN: ADMIN, MNEMO_WORKERS: '2', MNEMO_LOG_LEVEL: 'debug' },
      {},
      [pathToFileURL(path.join(import.meta.dirname, '../helpers/restartedWorkersCrash.mjs')).href],
    );
    servers.push(server);
    await server.listening();
    // One worker dies; each one started in its place dies at once (the preload), until the primary gives up.
    const [victim] = logged(server, 'worker is listening');
    process.kill(victim!.workerPid as number, 'SIGKILL');
    expect(await server.exited).toBe(EXIT.software);
    expect(server.out.stderr).toContain(`mnemo: workers crashed ${MAX_CRASHES} times within 60 s (the last with code 9); stopping`);
    expect(logged(server, 'a worker stopped unexpectedly; starting another')).toHaveLength(MAX_CRASHES - 1);
    // Starting a server of two workers takes seconds on a busy machine.
  }, 120_000);
});
