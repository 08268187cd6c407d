import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postGraphQL } from './helpers/graphqlHttp.ts';
import { ROOT } from './helpers/mnemoEntry.ts';
import { type MnemoProcess, spawnMnemo } from './helpers/mnemoProcess.ts';

/**
 * The README's "Five-minute walk-through", run as written against a real `mnemo serve` on a temp data folder and a
 * free port. Each fenced block of the section, in order:
 *  - ```sh / ```bash: run by bash (errexit, pipefail) in a folder laid out as a project that installed mnemo and
 *    @mnemo/client (what a checkout is too, where `npx mnemo` runs the built command), with the variables the
 *    README tells the reader to set (MNEMO_URL, MNEMO_TOKEN: their `export` lines are the only lines not run, the
 *    test sets them to this server and its minted admin token; MNEMO_DATA_DIR, which step 1 says to set for the
 *    commands when the server uses another folder). Every curl must answer HTTP 200 with GraphQL data and no errors;
 *  - ```text right after a command: that command's output, word for word;
 *  - ```graphql: POSTed to /graphql with the admin token: HTTP 200, no errors;
 *  - ```js: the script the next command runs (`node <file>.mjs`), saved under that name;
 *  - ```json: the MCP host configuration, launched as a host would (the SDK's stdio client) with the checkout's path,
 *    this server's URL and the token the walk-through minted; memory_search must find what was extracted.
 * The server runs with no vector model (no hub here, and the word-vector fallback's first conversion is slow):
 * keyword search, as a fresh install offline has when the optional packages are absent.
 */

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const HEADING = '## Five-minute walk-through';

interface Block {
  lang: string;
  code: string;
}

function walkthroughBlocks(): Block[] {
  const start = README.indexOf(`\n${HEADING}\n`);
  if (start < 0) throw new Error(`README.md has no "${HEADING}" section`);
  const end = README.indexOf('\n## ', start + HEADING.length + 2);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

const PLACEHOLDER_EXPORT = /^export (MNEMO_URL|MNEMO_TOKEN)=(\S*).*$/;

let dir: string;
let project: string;
let server: MnemoProcess;
let url: string;
let adminToken: string;

/** The environment a reader's shell has: this one's, less any MNEMO_ setting of the machine running the tests. */
function readerEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('MNEMO_') && !name.startsWith('MEMORY_')) env[name] = value;
  }
  return { ...env, ...extra };
}

function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Each curl reports its HTTP status on stderr, after what it prints: the test's only addition to a command.
    const prelude = `curl() { command curl --write-out '%{stderr}HTTP %{http_code}\\n' "$@"; }\n`;
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', prelude + script], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  const missing = ['dist/server/main.js', 'client/dist/index.js'].filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0) throw new Error(`run \`npm run build\` first (missing: ${missing.join(', ')})`);
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-readme-'));
  // A project with mnemo and @mnemo/client installed: this checkout, linked in.
  project = path.join(dir, 'project');
  mkdirSync(path.join(project, 'node_modules/@mnemo'), { recursive: true });
  mkdirSync(path.join(project, 'node_modules/.bin'));
  symlinkSync(ROOT, path.join(project, 'node_modules/mnemo'));
  symlinkSync(path.join(ROOT, 'client'), path.join(project, 'node_modules/@mnemo/client'));
  symlinkSync('../mnemo/dist/server/main.js', path.join(project, 'node_modules/.bin/mnemo'));
  server = spawnMnemo(['serve'], {
    MNEMO_DATA_DIR: path.join(dir, 'data'),
    MNEMO_PORT: '0',
    MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
    MEMORY_STATIC_PACKAGE: '',
  });
  url = await server.listening();
  const minted = /shown only this once:\s+(mnemo_\S+)/.exec(server.out.stdout);
  if (!minted) throw new Error(`the first start printed no admin token:\n${server.out.stdout}`);
  adminToken = minted[1]!;
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('has a walk-through with commands, GraphQL documents, a client script and an MCP configuration', () => {
  const langs = new Set(walkthroughBlocks().map((b) => b.lang));
  for (const lang of ['sh', 'graphql', 'js', 'json', 'text']) expect(langs, `a \`\`\`${lang} block`).toContain(lang);
});

it('starts with memory off, as the walk-through says', async () => {
  const res = await postGraphQL(url, JSON.stringify({ query: '{ memorySettings { enabled } }' }), adminToken);
  expect(res.errors).toBeUndefined();
  expect(res.data.memorySettings.enabled).toBe(false);
});

it('runs every command and GraphQL document of the walk-through as written', async () => {
  const blocks = walkthroughBlocks();
  const env = readerEnv({ MNEMO_URL: url, MNEMO_TOKEN: adminToken, MNEMO_DATA_DIR: path.join(dir, 'data') });
  const placeholders = new Map<string, string>();
  let lastOutput: string | null = null;
  let script: string | null = null;
  let agentToken: string | null = null;
  let mcpConfigs = 0;
  for (const [index, { lang, code }] of blocks.entries()) {
    const where = `walk-through block ${index + 1} (\`\`\`${lang}):\n${code}`;
    if (lang === 'text') {
      if (lastOutput === null) {
        // Not a command's output: what the first start prints.
        expect(server.out.stdout, where).toContain(code.split('\n')[0]);
      } else {
        expect(lastOutput.trim(), where).toBe(code.trim());
      }
      lastOutput = null;
      continue;
    }
    lastOutput = null;
    if (lang === 'sh' || lang === 'bash') {
      const lines = code.split('\n').filter((line) => {
        const placeholder = PLACEHOLDER_EXPORT.exec(line);
        if (placeholder) placeholders.set(placeholder[1]!, placeholder[2]!);
        return !placeholder;
      });
      const run = lines.join('\n').trim();
      if (!run) continue;
      const demo = /\bnode (\S+\.mjs)\b/.exec(run);
      if (demo) {
        expect(script, `${where}\nneeds the script of a \`\`\`js block before it`).not.toBeNull();
        writeFileSync(path.join(project, demo[1]!), script!);
      }
      const result = await bash(run, env);
      expect(result.code, `${where}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
      const statuses = [...result.stderr.matchAll(/^HTTP (\d+)$/gm)].map((m) => m[1]);
      const curls = run.match(/\bcurl\b/g)?.length ?? 0;
      expect(statuses, `${where}\nstderr: ${result.stderr}`).toEqual(Array(curls).fill('200'));
      if (curls > 0) {
        const answer = JSON.parse(result.stdout) as { data?: unknown; errors?: unknown };
        expect(answer.errors, where).toBeUndefined();
        expect(answer.data, where).toBeTruthy();
      }
      if (/\btoken create\b/.test(run)) {
        expect(result.stdout.trim(), where).toMatch(/^mnemo_\S+$/);
        agentToken = result.stdout.trim();
      }
      if (demo) expect(result.stdout, where).toContain('fish');
      lastOutput = result.stdout;
    } else if (lang === 'graphql') {
      const res = await postGraphQL(url, JSON.stringify({ query: code }), adminToken);
      expect(res.status, where).toBe(200);
      expect(res.errors, where).toBeUndefined();
      expect(res.data, where).toBeTruthy();
    } else if (lang === 'js') {
      script = code;
    } else if (lang === 'json') {
      mcpConfigs++;
      expect(agentToken, `${where}\nneeds the token a command before it minted`).not.toBeNull();
      await runMcpHost(code, agentToken!, where);
    } else {
      throw new Error(`${where}\nis a kind of block the walk-through test does not know how to run`);
    }
  }
  // The variables the reader sets: this server stands in for the default address, and the admin token it printed.
  expect(Object.fromEntries(placeholders)).toEqual({ MNEMO_URL: 'http://127.0.0.1:4000', MNEMO_TOKEN: 'mnemo_...' });
  expect(mcpConfigs).toBe(1);

  // What the curl steps stored is what injection brings back.
  const injected = await postGraphQL(
    url,
    JSON.stringify({
      query: 'mutation ($input: InjectMemoryInput!) { injectMemory(input: $input) { injected request } }',
      variables: {
        input: {
          provider: 'openai/gpt-4o',
          retrieval: { apiKeyId: 'alice' },
          request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Which editor should I configure?' }] },
        },
      },
    }),
    adminToken,
  );
  expect(injected.errors).toBeUndefined();
  expect(injected.data.injectMemory.injected).toBe(true);
  expect(JSON.stringify(injected.data.injectMemory.request)).toContain('Prefers Helix over Vim');
}, 180_000);

/** Launches the MCP server of a host configuration as the host would, and searches alice's memories through it. */
async function runMcpHost(config: string, token: string, where: string) {
  const parsed = JSON.parse(config) as {
    mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
  };
  const entry = parsed.mcpServers.mnemo;
  expect(entry, where).toBeDefined();
  expect(entry!.env, where).toEqual({ MNEMO_URL: 'http://127.0.0.1:4000', MNEMO_TOKEN: 'mnemo_...' });
  const args = entry!.args.map((arg) => arg.replace(/^\/path\/to\/mnemo\//, `${ROOT}/`));
  expect(args, where).toEqual([path.join(ROOT, 'dist/server/main.js'), 'mcp']);
  const transport = new StdioClientTransport({
    command: entry!.command,
    args,
    // Hosts start it in a folder of their own.
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', MNEMO_URL: url, MNEMO_TOKEN: token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'readme-walkthrough', version: '1.0.0' });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools, where).toEqual(expect.arrayContaining(['memory_search', 'memory_add', 'memory_extract']));
    const result = (await client.callTool({ name: 'memory_search', arguments: { query: 'Which editor do I prefer?' } })) as CallToolResult;
    expect(result.isError, `${where}\n${JSON.stringify(result.content)}\nstderr: ${stderr}`).toBeFalsy();
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    // The fact, or the captured turn it was said in, which the block holds instead of it.
    expect(text, where).toContain('Helix over Vim');
  } finally {
    await client.close();
  }
}
