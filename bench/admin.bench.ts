/**
 * Memory Studio's first load: the bytes of the first screen's JS and CSS (raw, and brotli as the build ships them),
 * and what Chromium takes to paint, cold cache, signed in (the Memories tab), on a throttled link and on loopback.
 * Runs `mnemo serve` from BENCH_ADMIN_ROOT (default: this checkout; another checkout measures another version) with
 * its built admin/dist. A script, not a test: it asserts nothing about timings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { BenchSection } from './lib/section.ts';
import { fmtInt, printTable } from './lib/table.ts';

const TOKEN = 'bench-admin-token-0123456789';
/** A modest office or mobile link: 5 Mbit/s down, 40 ms round trip. */
const THROTTLED = { offline: false, latency: 40, downloadThroughput: (5e6 / 8) | 0, uploadThroughput: (2e6 / 8) | 0 };
const LOOPBACK = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

export const sections: BenchSection[] = [
  {
    name: 'load',
    group: 'admin',
    description: 'Memory Studio: first-screen bytes (raw, brotli) and first paint in Chromium, cold (needs admin/dist)',
    run: async ({ quick }) => {
      const root = path.resolve(process.env.BENCH_ADMIN_ROOT ?? path.join(import.meta.dirname, '..'));
      const dist = path.join(root, 'admin/dist');
      if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} is missing: run \`npm run build:admin\` there first`);
      printBytes(dist);
      await measurePaint(root, quick ? 3 : 9);
    },
  },
];

/** The files index.html loads at once (the first screen), and every other script the build made (loaded later). */
function printBytes(dist: string) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const first = [...html.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const size = (file: string) => {
    const raw = readFileSync(path.join(dist, file));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    return { file, raw: raw.length, br: br.length };
  };
  const rows = first.map(size);
  const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, br: t.br + r.br }), { raw: 0, br: 0 });
  printTable({
    title: 'Memory Studio, the first screen: what index.html loads',
    columns: [{ header: 'file' }, { header: 'raw bytes' }, { header: 'brotli bytes' }],
    rows: [...rows.map((r) => [r.file, fmtInt(r.raw), fmtInt(r.br)]), ['total', fmtInt(total.raw), fmtInt(total.br)]],
  });
}

async function measurePaint(root: string, runs: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-admin-'));
  const server = await serve(root, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const rows: string[][] = [];
    for (const [link, conditions] of [
      ['5 Mbit/s, 40 ms RTT', THROTTLED],
      ['loopback', LOOPBACK],
    ] as const) {
      const samples: { fcp: number; shell: number; bytes: number; encoding: string }[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addInitScript(`sessionStorage.setItem('mnemo.adminToken', ${JSON.stringify(TOKEN)});
          new MutationObserver((_, observer) => {
            if (document.querySelector('[role="tablist"]')) { window.__shell = performance.now(); observer.disconnect(); }
          }).observe(document, { childList: true, subtree: true });`);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await cdp.send('Network.emulateNetworkConditions', conditions);
        let bytes = 0;
        let encoding = 'none';
        cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
        cdp.on('Network.responseReceived', (e) => {
          if (e.response.url.endsWith('.js')) encoding = String(e.response.headers['content-encoding'] ?? 'none');
        });
        await page.goto(`${server.url}/admin/`);
        await page.waitForFunction(
          () =>
            (window as unknown as { __shell?: number }).__shell !== undefined &&
            performance.getEntriesByName('first-contentful-paint').length > 0,
        );
        const { fcp, shell } = await page.evaluate(() => ({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
          shell: (window as unknown as { __shell: number }).__shell,
        }));
        samples.push({ fcp, shell, bytes, encoding });
        await context.close();
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
      const fcps = samples.map((s) => s.fcp);
      const shells = samples.map((s) => s.shell);
      rows.push([
        link,
        samples[0]!.encoding,
        fmtInt(median(samples.map((s) => s.bytes))),
        `${Math.round(median(fcps))} (${range(fcps)})`,
        `${Math.round(median(shells))} (${range(shells)})`,
      ]);
    }
    printTable({
      title: `Memory Studio, cold load in Chromium, signed in: median (range) of ${runs} runs, ms`,
      columns: [
        { header: 'link' },
        { header: 'script sent as' },
        { header: 'bytes transferred' },
        { header: 'first contentful paint' },
        { header: 'tabs shown' },
      ],
      rows,
    });
  } finally {
    await browser.close();
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `mnemo serve` of that checkout on a free port; resolves once it listens. */
function serve(root: string, dataDir: string): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts', 'serve', '--port', '0'], {
    cwd: root,
    env: {
      ...process.env,
      MNEMO_DATA_DIR: dataDir,
      MNEMO_ADMIN_TOKEN: TOKEN,
      MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
      MEMORY_STATIC_PACKAGE: '',
      MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('mnemo is listening'));
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url.replace(/\/$/, ''), process: child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mnemo serve exited with ${code}:\n${output}`)));
  });
}
