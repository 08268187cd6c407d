import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { okAt } from '../helpers/graphqlHttp.ts';
import { ROOT } from '../helpers/mnemoEntry.ts';
import { spawnMnemo } from '../helpers/mnemoProcess.ts';

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
export const DOCS = path.join(ROOT, 'docs');

/** Debian's Chromium with the flags this machine needs; playwright's launch() gives a fresh profile. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2E {
  url: string;
  /** The worker's browser context, shared by its e2e files; what a file leaves in it is cleared when the file closes. */
  context: BrowserContext;
  page: Page;
  /** GraphQL as the admin, for arranging data the test is not about: a typed document from test/generated/graphql.ts. */
  gql<T, V>(query: DocumentTypeDecoration<T, V>, variables?: NoInfer<V>): Promise<T>;
  /**
   * Awaits `waiting` (a locator's wait); when it fails, the error also tells what the page showed and the server's
   * last log lines, which a CI log otherwise never shows.
   */
  explained<T>(waiting: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

let contextOfWorker: Promise<BrowserContext> | undefined;

/**
 * One Chromium per vitest worker, and one browser context in it, shared by the worker's e2e files; playwright ends
 * them when the worker exits. Launching Chromium takes seconds of CPU, and so does each new context (a browser window,
 * with renderers for its own UI), against a fraction of a second for a page. Each file gets pages of its own, whose
 * sessionStorage (where the admin app keeps its token) no other page shares, on its own server's origin; the cookies and
 * permissions a file leaves in the context are cleared when it closes.
 */
function workerContext(): Promise<BrowserContext> {
  contextOfWorker ??= chromium
    .launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS })
    .then((browser: Browser) => browser.newContext({ viewport: { width: 1280, height: 900 } }));
  return contextOfWorker;
}

/**
 * A real `mnemo serve` (the CLI, as a child process) on a temp data folder, serving the built admin app,
 * and a Chromium page signed in to it.
 */
export async function startE2E(opts: { signIn?: boolean; env?: Record<string, string> } = {}): Promise<E2E> {
  if (!existsSync(path.join(ROOT, 'admin/dist/index.html'))) {
    throw new Error('admin/dist is missing: run `npm run build:admin` (npm test does it before the tests)');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-e2e-'));
  const [server, context] = await Promise.all([serve(dataDir, opts.env ?? {}), workerContext()]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const gql: E2E['gql'] = (query, variables) => okAt(server.url, query, variables, ADMIN_TOKEN);
  if (opts.signIn !== false) await signIn(page, server.url);
  const explained = async <T>(waiting: Promise<T>): Promise<T> => {
    try {
      return await waiting;
    } catch (error) {
      const body = page.locator('body');
      // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, a line per block, is what a reader needs.
      const shown = await body.innerText({ timeout: 5_000 }).catch(() => '(unreadable)');
      const log = server.log().trimEnd().split('\n').slice(-20).join('\n');
      throw new Error(`${(error as Error).message}\nThe page showed:\n${shown}\nThe server's last log lines:\n${log}`, { cause: error });
    }
  };
  return {
    url: server.url,
    context,
    page,
    gql,
    explained,
    close: async () => {
      await Promise.all(context.pages().map((open) => open.close()));
      await context.clearCookies();
      await context.clearPermissions();
      server.process.kill('SIGTERM');
      await new Promise((resolve) => server.process.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
  };
}

export async function signIn(page: Page, url: string, token = ADMIN_TOKEN) {
  await page.goto(`${url}/admin/`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('tab', { name: 'Memories' }).waitFor();
}

/**
 * Types an API key into the Playground's form. The form fills that field with the most recent key once the server
 * names it; typed before then, the key could arrive between fill's select-all and its insert ("globexacme"), so the
 * field is typed over once it holds a key.
 */
export async function fillPlaygroundApiKey(page: Page, apiKeyId: string) {
  const field = page.getByRole('form', { name: 'Simulate a retrieval' }).getByLabel('API key');
  await field.and(page.locator(':not(:placeholder-shown)')).waitFor();
  await field.fill(apiKeyId);
}

/**
 * Saves a screenshot into docs/ (checked in and shown in the README) when UPDATE_SCREENSHOTS=1; otherwise an
 * ordinary run would rewrite the committed images with pixel noise and leave every checkout dirty.
 */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: opts.fullPage ?? false });
}

/**
 * The environment of a `mnemo serve` whose embedding (embed-1) and rerank (rerank-1) models are the model API double's.
 * Failed embedding calls are not retried: a test that stops the double sees the failure at once, not after the backoff.
 */
export function modelApiEnv(api: { baseUrl: string; apiKey: string | null }): Record<string, string> {
  return {
    MEMORY_EMBEDDING_MAX_RETRIES: '0',
    MNEMO_EMBEDDING_URL: api.baseUrl,
    MNEMO_EMBEDDING_MODEL: 'embed-1',
    MNEMO_EMBEDDING_API_KEY: api.apiKey ?? '',
    MNEMO_RERANK_URL: api.baseUrl,
    MNEMO_RERANK_MODEL: 'rerank-1',
    MNEMO_RERANK_API_KEY: api.apiKey ?? '',
  };
}

/** The widths every screen must work at: a laptop, a tablet, a phone. */
export const WIDTHS = [1280, 768, 390] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

let axeSource: string | null = null;

/**
 * axe-core's serious and critical violations on the page as it is now (axe-core's own script, injected into the
 * page). Each is returned with the elements it found, so a failing test says what to fix.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    // axe-core's global, injected above.
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ ...v, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
}

/** How far the page scrolls sideways (0 when it fits its window), and the outermost elements that stick out. */
export async function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const culprits: string[] = [];
    const walk = (el: Element) => {
      const box = el.getBoundingClientRect();
      if (box.right > width + 0.5 && box.width > 0) {
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`;
        culprits.push(`${name} (right edge ${Math.round(box.right)})`);
        return;
      }
      for (const child of el.children) walk(child);
    };
    walk(document.body);
    return { overflow: document.documentElement.scrollWidth - width, culprits: culprits.slice(0, 8) };
  });
}

/** A `mnemo serve` child process; `log()` is all it has printed so far. */
async function serve(dataDir: string, env: Record<string, string>): Promise<{ url: string; process: ChildProcess; log: () => string }> {
  const mnemo = spawnMnemo(['serve', '--port', '0'], {
    HOME: dataDir,
    MNEMO_DATA_DIR: dataDir,
    MNEMO_ADMIN_TOKEN: ADMIN_TOKEN,
    MNEMO_LOG_LEVEL: 'info',
    MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
    // Converting the installed word-vector package (~300 MB) would make every served test wait on it.
    MEMORY_STATIC_PACKAGE: '',
    MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false',
    ...env,
  });
  // A server that never says it listens is killed, so the file fails with its output and leaves no process behind.
  const timer = setTimeout(() => mnemo.child.kill('SIGKILL'), 30_000);
  const url = await mnemo.listening().finally(() => clearTimeout(timer));
  return { url, process: mnemo.child, log: () => mnemo.out.stdout + mnemo.out.stderr };
}
