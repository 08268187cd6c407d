import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../server/cli.ts';
import { CliForgetApiKeyDocument, CliTokenNamesDocument } from '../generated/graphql.ts';
import { graphqlAt } from '../helpers/graphqlHttp.ts';
import { runMnemo, spawnMnemo as spawnMnemoProcess } from '../helpers/mnemoProcess.ts';
import {
  CREATE_MEMORY,
  CREATE_TOKEN,
  GET_SETTINGS,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  MEMORY_STATS,
  REINDEX_PROGRESS,
  RETRIEVE_PREVIEW,
  START_REINDEX,
} from '../helpers/operations.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { topicEngineEnv, topicModelDir, writeTopicModel } from '../helpers/topicModel.ts';

const TOKEN = /mnemo_[A-Za-z0-9_-]{43}/;

let tmp: string;
let dataDir: string;
/** Servers still running when a test ends; stopped after it. */
const running = new Set<() => Promise<number>>();

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-cli-'));
  dataDir = path.join(tmp, 'data');
});

afterEach(async () => {
  await Promise.all([...running].map((stop) => stop()));
  running.clear();
  rmSync(tmp, { recursive: true, force: true });
});

/** The environment a command sees: only what the test gives (no MNEMO_* leaks in from outside). */
// One process: the workers of a server with several would be forks of this test runner (in-process runs), or would
// change what the tests that signal or kill the server's process mean (real processes).
const envOf = (env: Record<string, string>) => ({ HOME: process.env.HOME ?? tmp, MNEMO_DATA_DIR: dataDir, MNEMO_WORKERS: '1', ...env });

/**
 * Runs `mnemo ...args` in this process. Process-level behaviour (signals, the exit code reaching the shell) is tested
 * on a real process below.
 */
const run = (args: string[], env: Record<string, string> = {}) => runMnemo(args, envOf(env));

/** Starts `mnemo serve` in this process on a free port; resolves once it listens. */
async function serve(env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  let requestStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  const exited = runCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
    env: envOf(env),
    stdout: {
      write: (text: string) => {
        out.stdout += text;
        if (text.includes('mnemo is listening')) listening((JSON.parse(text) as { url: string }).url.replace(/\/$/, ''));
      },
    },
    stderr: { write: (text: string) => (out.stderr += text) },
    stopRequested: () => stopRequested,
  });
  const stop = () => {
    requestStop();
    running.delete(stop);
    return exited;
  };
  running.add(stop);
  const failed = exited.then((code) => Promise.reject(new Error(`serve exited with ${code}:\n${out.stdout}\n${out.stderr}`)));
  return { url: await Promise.race([url, failed]), out, stop };
}

const MINTED = 'shown only this once';
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('mnemo --help and usage errors', () => {
  it('prints usage for --help and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage:');
    expect(stdout).toContain('mnemo serve');
    expect(stdout).toContain('MNEMO_ADMIN_TOKEN');
  });

  it('prints usage and exits 64 when no command is given', async () => {
    const { code, stdout } = await run([]);
    expect(code).toBe(64);
    expect(stdout).toContain('Usage:');
  });

  it('exits 64 and names an unknown command', async () => {
    const { code, stderr } = await run(['frobnicate']);
    expect(code).toBe(64);
    expect(stderr).toContain('unknown command "frobnicate"');
    expect(stderr).toContain('--help');
  });

  it('exits 64 for an unknown flag', async () => {
    const { code } = await run(['serve', '--colour']);
    expect(code).toBe(64);
  });

  it('exits 64, before serving anything, when the trusted-documents manifest cannot be read', async () => {
    const { code, stderr } = await run(['serve', '--port', '0'], { MNEMO_TRUSTED_DOCUMENTS: path.join(tmp, 'no-such-manifest.json') });
    expect(code).toBe(64);
    expect(stderr).toContain('no-such-manifest.json does not exist');
  });

  it('exits 64 for a port that is not a number', async () => {
    const { code, stderr } = await run(['serve'], { MNEMO_PORT: 'abc' });
    expect(code).toBe(64);
    expect(stderr).toContain('port');
  });

  it('exits 64 for a lease shorter than three seconds, and says the range', async () => {
    const { code, stderr } = await run(['serve'], { MNEMO_LEASE_SECONDS: '1' });
    expect(code).toBe(64);
    expect(stderr).toContain('MNEMO_LEASE_SECONDS must be 3 to 3600');
  });

  it('exits 64 for an admin token that is too short to be safe', async () => {
    const { code, stderr } = await run(['migrate'], { MNEMO_ADMIN_TOKEN: 'short' });
    expect(code).toBe(64);
    expect(stderr).toContain('MNEMO_ADMIN_TOKEN');
  });
});

describe('mnemo serve', () => {
  it('answers /healthz once it listens', async () => {
    const { url } = await serve({ MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789' });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('accepts MNEMO_ADMIN_TOKEN as an admin token and then prints no generated one', async () => {
    const admin = 'cli-admin-token-0123456789';
    const { out, url } = await serve({ MNEMO_ADMIN_TOKEN: admin });
    expect(out.stdout).not.toContain(MINTED);
    const res = await graphqlAt(url, GET_SETTINGS, undefined, admin);
    expect(res.errors).toBeUndefined();
  });

  it('without MNEMO_ADMIN_TOKEN mints an admin token, prints it once, and does not mint another on the next start', async () => {
    const first = await serve();
    expect(count(first.out.stdout, MINTED)).toBe(1);
    const token = TOKEN.exec(first.out.stdout)?.[0];
    expect(token).toBeDefined();
    expect(count(first.out.stdout + first.out.stderr, token!)).toBe(1);
    const asAdmin = await graphqlAt(first.url, CliTokenNamesDocument, undefined, token!);
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data.accessTokens).toEqual([{ name: 'initial admin', role: 'ADMIN' }]);
    expect(await first.stop()).toBe(0);

    const second = await serve();
    expect(second.out.stdout).not.toContain(MINTED);
    expect(second.out.stdout).not.toMatch(TOKEN);
    expect((await graphqlAt(second.url, GET_SETTINGS, undefined, token!)).errors).toBeUndefined();
  });

  it('serves /metrics only on MNEMO_METRICS_PORT when it is set', async () => {
    const { out, url } = await serve({ MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789', MNEMO_METRICS_PORT: '0' });
    const listening = JSON.parse(out.stdout.split('\n').find((l) => l.includes('mnemo is listening'))!) as { metrics: string };
    const scraped = await fetch(listening.metrics);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('mnemo_graphql_requests_total');
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    expect((await fetch(listening.metrics.replace('/metrics', '/graphql'))).status).toBe(404);
  });

  it('shuts down with exit code 0 when asked to stop', async () => {
    const { out, stop } = await serve({ MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789' });
    expect(await stop()).toBe(0);
    expect(out.stdout).toContain('shutting down');
  });

  describe('on a port that is already taken', () => {
    let blocker: Server;
    afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    /** `mnemo serve` on a port another server listens on. */
    const serveOnTakenPort = async () => {
      blocker = createServer();
      const port = await new Promise<number>((resolve) =>
        blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
      );
      return {
        port,
        ...(await run(['serve', '--port', String(port), '--host', '127.0.0.1'], { MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789' })),
      };
    };

    it('exits 69 and says the port is already in use', async () => {
      const { port, code, stderr } = await serveOnTakenPort();
      expect(code).toBe(69);
      expect(stderr).toContain('already in use');
      expect(stderr).toContain(String(port));
    });

    it('says nothing more than that: no stack trace from another part of the server', async () => {
      const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const { stderr } = await serveOnTakenPort();
        expect(stderr).not.toContain('    at ');
        expect(printed).not.toHaveBeenCalled();
      } finally {
        printed.mockRestore();
      }
    });
  });

  it('exits 73 and says the data folder is not writable when it cannot be created', async () => {
    const file = path.join(tmp, 'a-regular-file');
    writeFileSync(file, 'not a folder');
    const blocked = path.join(file, 'data');
    const { code, stderr } = await run(['serve', '--port', '0'], { MNEMO_DATA_DIR: blocked });
    expect(code).toBe(73);
    expect(stderr).toContain('not writable');
    expect(stderr).toContain(blocked);
  });
});

describe('mnemo backup and restore', () => {
  const admin = 'cli-admin-token-0123456789';
  /** The generated topic model (test/helpers/topicModel.ts), so that the restored server has vectors to answer from. */
  const withModel = (env: Record<string, string> = {}) => topicEngineEnv(models, { MNEMO_ADMIN_TOKEN: admin, ...env });
  let models: string;
  beforeEach(() => {
    models = topicModelDir();
  });
  const create = (url: string, token: string, key: string, content: string) =>
    graphqlAt(url, CREATE_MEMORY, { input: { apiKeyId: 'k1', key, content } }, token);

  it('backs up while 8 clients write, and a server restored from it has every memory acknowledged before, its vectors and tokens', async () => {
    const source = await serve(withModel());
    const gateway = (await graphqlAt(source.url, CREATE_TOKEN, { input: { name: 'gw', apiKeyId: 'k1' } }, admin)).data.createAccessToken
      .token;
    for (let i = 0; i < 10; i++)
      expect((await create(source.url, admin, `seed-${i}`, `the dog fetched ball number ${i}`)).errors).toBeUndefined();
    const job = (await graphqlAt(source.url, START_REINDEX, undefined, admin)).data.reindex.id;
    await subscribe(source.url, REINDEX_PROGRESS, { jobId: job }, admin).rest();

    let acknowledged = 0;
    let writing = true;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const res = await create(source.url, admin, `w${w}-${i}`, `writer ${w} line ${i}`);
        if (!res.errors) acknowledged++;
      }
    });
    // Some writes have landed before the backup starts; the rest go on while it runs.
    // Each its own fact: the same text under another key would be merged into one memory.
    while (acknowledged < 40)
      await create(source.url, admin, `pre-${acknowledged}`, `written before the backup, number ${acknowledged}`).then(
        () => acknowledged++,
      );
    const acknowledgedBefore = acknowledged;
    const file = path.join(tmp, 'mnemo-backup.db');
    const backup = await run(['backup', file]);
    writing = false;
    await Promise.all(writers);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain('integrity ok');
    expect(backup.stderr).toMatch(/backup [\d.]+\/[\d.]+ MiB/);
    expect(await source.stop()).toBe(0);

    const restoredDir = path.join(tmp, 'restored');
    const restore = await run(['restore', file], { MNEMO_DATA_DIR: restoredDir });
    expect(restore.code).toBe(0);
    const copy = new SQLite(path.join(restoredDir, 'mnemo.db'), { readonly: true });
    sqliteVec.load(copy);
    expect((copy.prepare('select count(*) as n from memory_vec').get() as { n: number }).n).toBeGreaterThanOrEqual(10);
    copy.close();
    const restored = await serve(withModel({ MNEMO_DATA_DIR: restoredDir }));
    // The request path never waits for a model to load; a reindex job loads it (and embeds the writers' lines).
    const loaded = (await graphqlAt(restored.url, START_REINDEX, undefined, admin)).data.reindex.id;
    await subscribe(restored.url, REINDEX_PROGRESS, { jobId: loaded }, admin).rest();
    const stats = await graphqlAt(restored.url, MEMORY_STATS, { apiKeyId: 'k1' }, admin);
    expect(stats.data.memories.stats.totalEntries).toBeGreaterThanOrEqual(10 + acknowledgedBefore);
    const found = await graphqlAt(
      restored.url,
      RETRIEVE_PREVIEW,
      { input: { query: 'puppy kitten', strategy: 'SEMANTIC', limit: 3 } },
      gateway,
    );
    expect(found.errors).toBeUndefined();
    expect(found.data.retrievePreview.resolution.tiers).toContain('VECTOR');
    expect(found.data.retrievePreview.items[0]?.memory.key).toMatch(/^seed-/);
  });

  it('restore refuses while a server holds the data folder (exit 69) and a file that is not a backup (exit 65)', async () => {
    const running = await serve({ MNEMO_ADMIN_TOKEN: admin });
    const file = path.join(tmp, 'b.db');
    expect((await run(['backup', file])).code).toBe(0);
    const busy = await run(['restore', file]);
    expect(busy.code).toBe(69);
    expect(busy.stderr).toContain('holds this data folder');
    expect(await running.stop()).toBe(0);

    const junk = path.join(tmp, 'junk.db');
    writeFileSync(junk, 'not a database '.repeat(500));
    const refused = await run(['restore', junk]);
    expect(refused.code).toBe(65);
    expect(refused.stderr).toContain('integrity');
    expect((await run(['restore', file])).code).toBe(0);
  });

  it('a second server on a data folder that is being served exits 69', async () => {
    await serve({ MNEMO_ADMIN_TOKEN: admin });
    const second = await run(['serve', '--port', '0', '--host', '127.0.0.1'], { MNEMO_ADMIN_TOKEN: admin });
    expect(second.code).toBe(69);
    expect(second.stderr).toContain('holds this data folder');
  });
});

describe('mnemo migrate', () => {
  it('creates and migrates the database, exits 0, and is safe to run again', async () => {
    const first = await run(['migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(path.join(dataDir, 'mnemo.db'));
    expect(first.stdout).toContain('up to date');
    expect((await run(['migrate'])).code).toBe(0);
  });

  it('says when it created the database, and only then', async () => {
    const file = path.join(dataDir, 'mnemo.db');
    expect((await run(['migrate'])).stdout).toBe(`created database ${file} is up to date\n`);
    expect((await run(['migrate'])).stdout).toBe(`database ${file} is up to date\n`);
  });

  it('honours --data-dir over MNEMO_DATA_DIR', async () => {
    const other = path.join(tmp, 'other');
    const { code, stdout } = await run(['migrate', '--data-dir', other]);
    expect(code).toBe(0);
    expect(stdout).toContain(path.join(other, 'mnemo.db'));
  });

  it('exits 73 when the data folder is not writable', async () => {
    const file = path.join(tmp, 'a-regular-file');
    writeFileSync(file, 'not a folder');
    const { code, stderr } = await run(['migrate'], { MNEMO_DATA_DIR: path.join(file, 'data') });
    expect(code).toBe(73);
    expect(stderr).toContain('not writable');
  });
});

describe('a command run where there is no database', () => {
  it.each([
    [['token', 'create', '--name', 'ci']],
    [['token', 'list']],
    [['token', 'revoke', 'some-id']],
    [['reindex']],
    [['purge']],
    [['audit', 'export']],
  ])('mnemo %j exits 66, names the file it looked for, points to --create, and creates nothing', async (args) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(66);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `mnemo: no mnemo database at ${path.join(dataDir, 'mnemo.db')}; pass --data-dir or MNEMO_DATA_DIR, or --create to start a new one\n`,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('mnemo backup exits 66 and names the file it looked for', async () => {
    const { code, stderr } = await run(['backup', path.join(tmp, 'b.db')]);
    expect(code).toBe(66);
    expect(stderr).toBe(`mnemo: no mnemo database at ${path.join(dataDir, 'mnemo.db')}; pass --data-dir or MNEMO_DATA_DIR\n`);
  });

  it('token create --create starts a new database there and mints the token into it', async () => {
    const created = await run(['token', 'create', '--name', 'ci', '--create']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(TOKEN);
    expect((await run(['token', 'list'])).stdout).toContain('\tci\n');
  });

  it('refuses --create, exit 64, on a command that never starts a database', async () => {
    const { code, stderr } = await run(['backup', path.join(tmp, 'b.db'), '--create']);
    expect(code).toBe(64);
    expect(stderr).toContain('--create does not apply to backup');
  });

  it('names a mistyped token subcommand, exit 64, and creates nothing', async () => {
    const { code, stderr } = await run(['token', 'rotate']);
    expect(code).toBe(64);
    expect(stderr).toContain('token needs one of: create, list, revoke');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('each command that opens the database', () => {
  it.each([
    ['token create', ['token', 'create', '--name', 'ci'], 'stderr'],
    ['token list', ['token', 'list'], 'stderr'],
    ['token revoke', ['token', 'revoke', 'ID'], 'stdout'],
    ['reindex', ['reindex'], 'stderr'],
    ['purge', ['purge'], 'stdout'],
    ['audit export', ['audit', 'export'], 'stderr'],
  ] as const)('mnemo %s names the database file it used', async (_name, args, stream) => {
    expect((await run(['migrate'])).code).toBe(0);
    const id = (await run(['token', 'create', '--name', 'to-revoke'])).stderr.match(/id (\S+),/)?.[1] ?? '';
    // The generated model: reindex loads one, and nothing comes from the network.
    const engine = topicEngineEnv(writeTopicModel(path.join(tmp, 'models')));
    const done = await run(
      args.map((arg) => (arg === 'ID' ? id : arg)),
      engine,
    );
    expect(done.code).toBe(0);
    expect(done[stream]).toContain(` ${path.join(dataDir, 'mnemo.db')}`);
  });
});

describe('mnemo token', () => {
  const admin = 'cli-admin-token-0123456789';

  it('create --name ci --api-key k1 prints a token that authenticates as a gateway token bound to k1', async () => {
    const created = await run(['token', 'create', '--name', 'ci', '--api-key', 'k1', '--create']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(new RegExp(`^${TOKEN.source}$`));
    expect(created.stderr).toContain('bound to k1');

    const { url } = await serve({ MNEMO_ADMIN_TOKEN: admin });
    const write = await graphqlAt(url, CREATE_MEMORY, { input: { content: 'from ci' } }, token);
    expect(write.errors).toBeUndefined();
    expect(write.data.createMemory.apiKeyId).toBe('k1');
    const elsewhere = await graphqlAt(url, CREATE_MEMORY, { input: { apiKeyId: 'k2', content: 'nope' } }, token);
    expect(elsewhere.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const settings = await graphqlAt(url, GET_SETTINGS, undefined, token);
    expect(settings.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('create --api-key k1 --may-forget-key prints a token that may forget k1, and only k1', async () => {
    const created = await run(['token', 'create', '--name', 'app', '--api-key', 'k1', '--may-forget-key', '--create']);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('bound to k1, may forget it');
    const { url } = await serve({ MNEMO_ADMIN_TOKEN: admin });
    const token = created.stdout.trim();
    expect((await graphqlAt(url, CliForgetApiKeyDocument, { apiKeyId: 'k1' }, token)).data.forgetApiKey.apiKeyId).toBe('k1');
    const other = await graphqlAt(url, CliForgetApiKeyDocument, { apiKeyId: 'k2' }, token);
    expect(other.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('create --may-forget-key without --api-key exits 64 and says why', async () => {
    const created = await run(['token', 'create', '--name', 'app', '--may-forget-key', '--create']);
    expect(created.code).toBe(64);
    expect(created.stderr).toContain('mayForgetKey needs a gateway token bound to one API key');
  });

  it('create --admin prints a token with admin rights', async () => {
    const created = await run(['token', 'create', '--name', 'ops', '--admin', '--create']);
    expect(created.code).toBe(0);
    const { url } = await serve({ MNEMO_ADMIN_TOKEN: admin });
    expect((await graphqlAt(url, GET_SETTINGS, undefined, created.stdout.trim())).errors).toBeUndefined();
  });

  it('create without --name exits 64', async () => {
    const { code, stderr } = await run(['token', 'create']);
    expect(code).toBe(64);
    expect(stderr).toContain('--name');
  });

  it('list shows tokens but never their secrets, and revoke stops a token', async () => {
    const token = (await run(['token', 'create', '--name', 'short-lived', '--api-key', 'k9', '--create'])).stdout.trim();
    const listed = await run(['token', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('short-lived');
    expect(listed.stdout).not.toContain(token);
    const id = listed.stdout
      .split('\n')
      .find((l) => l.includes('short-lived'))!
      .split('\t')[0]!;

    const revoked = await run(['token', 'revoke', id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    expect((await run(['token', 'list'])).stdout).toMatch(/\trevoked \d{4}-/);

    const { url } = await serve({ MNEMO_ADMIN_TOKEN: admin });
    const res = await graphqlAt(url, LIST_MEMORIES, undefined, token);
    expect(res.status).toBe(401);
  });

  it('revoke of an unknown id exits 1 and says so', async () => {
    expect((await run(['migrate'])).code).toBe(0);
    const { code, stderr } = await run(['token', 'revoke', 'no-such-id']);
    expect(code).toBe(1);
    expect(stderr).toContain('no-such-id');
  });

  it('with an unknown subcommand exits 64', async () => {
    expect((await run(['token', 'rotate'])).code).toBe(64);
  });
});

describe('the mnemo process', () => {
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
  });

  function spawnMnemo(args: string[], env: Record<string, string> = {}, preload: string[] = []) {
    const mnemo = spawnMnemoProcess(args, envOf(env), {}, preload);
    children.add(mnemo.child);
    return mnemo;
  }

  it('exits with the code of the command: 64 for an unknown command', async () => {
    const { out, exited } = spawnMnemo(['frobnicate']);
    expect(await exited).toBe(64);
    expect(out.stderr).toContain('unknown command "frobnicate"');
  });

  it('stops cleanly with exit code 0 on SIGTERM', async () => {
    const { child, out, exited, listening } = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], {
      MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789',
    });
    await listening();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out.stdout).toContain('shutting down');
  });

  it('stops cleanly with exit code 0 on a SIGTERM while its modules are still loading', async () => {
    const preload = pathToFileURL(path.join(import.meta.dirname, '../helpers/sigtermOnceCaught.mjs')).href;
    const { out, exited } = spawnMnemo(
      ['serve', '--port', '0', '--host', '127.0.0.1'],
      { MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789' },
      [preload],
    );
    expect(await exited).toBe(0);
    expect(out.stderr).toContain('SIGTERM sent; the data folder existed: false');
    expect(out.stdout).toContain('shutting down');
  });

  it('on SIGTERM during an importMemories, the import lands whole or not at all, and whole if it was answered', async () => {
    const admin = 'cli-admin-token-0123456789';
    const { child, exited, listening } = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], { MNEMO_ADMIN_TOKEN: admin });
    const url = `${await listening()}/`;
    const memories = Array.from({ length: 2000 }, (_, i) => ({ apiKeyId: 'k1', key: `fact-${i}`, content: `fact number ${i}` }));
    const body = JSON.stringify({
      query: String(IMPORT_MEMORIES),
      variables: { memories },
    });
    const req = httpRequest(`${url}graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<number | null>((resolve) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text).data?.importMemories?.imported ?? null));
        res.on('error', () => resolve(null));
      });
      req.on('error', () => resolve(null));
    });
    // The signal goes as soon as the whole request is sent: the server is reading or running it.
    req.end(body, () => child.kill('SIGTERM'));
    const imported = await answered;
    expect(await exited).toBe(0);
    const db = new SQLite(path.join(dataDir, 'mnemo.db'), { readonly: true });
    const { n } = db.prepare('select count(*) as n from memories').get() as { n: number };
    db.close();
    expect([0, 2000]).toContain(n);
    if (imported !== null) expect(n).toBe(2000);
  });
});
