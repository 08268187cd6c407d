import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What an operator installs: the server's files and a prebuilt admin/dist, then `npm ci --omit=dev` and
 * `npm start`. Optional dependencies stay in (sqlite-vec's platform binary is one), but the server must not
 * need @huggingface/transformers, which is left out when its onnxruntime-node or sharp binaries fail to install.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHIPPED = ['package.json', 'package-lock.json', 'server', 'migrations', 'admin/dist'];
const ADMIN_TOKEN = 'install-admin-token-0123456789';

let dir: string;
beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'admin/dist/index.html'))) throw new Error('admin/dist is missing: run `npm run build:admin` first');
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-install-'));
  for (const entry of SHIPPED) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
  });
  if (install.status !== 0) throw new Error(`npm ci failed (${install.status}):\n${install.stdout}\n${install.stderr}`);
  // As a failed optional install leaves it.
  rmSync(path.join(dir, 'node_modules/@huggingface/transformers'), { recursive: true, force: true });
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an install without dev dependencies, and without @huggingface/transformers', () => {
  it('leaves out the admin build tools', () => {
    for (const name of ['vite', 'react', 'react-dom', '@tanstack/react-query', 'graphql-sse', 'vitest']) {
      expect(existsSync(path.join(dir, 'node_modules', name)), name).toBe(false);
    }
  });

  it('serves GraphQL and the prebuilt admin app with npm start', async () => {
    const child = spawn('npm', ['start', '--', '--port', '0'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, MNEMO_ADMIN_TOKEN: ADMIN_TOKEN, MEMORY_STATIC_ALLOW_DOWNLOAD: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm, its shell and node in one process group, stopped together.
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
        child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.text}`)));
      });

      const admin = await fetch(`${url}/admin/`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toBe(readFileSync(path.join(ROOT, 'admin/dist/index.html'), 'utf8'));

      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ query: 'mutation { createMemory(input: { apiKeyId: "k1", content: "I deploy on Fridays" }) { tokens } }' }),
      });
      expect(await res.json()).toEqual({ data: { createMemory: { tokens: expect.any(Number) } } });
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  }, 60_000);
});
