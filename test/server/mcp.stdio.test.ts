import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../server/cli.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

/**
 * Runs `mnemo mcp` in this process (the same runCli that server/main.ts calls) with `frames` on its stdin, which
 * then ends. Speaking MCP through a launched process is tested with the SDK's StdioClientTransport in mcp.tools.test.ts.
 */
async function mcp(env: Record<string, string>, frames: unknown[] = []) {
  const out = { stdout: '', stderr: '' };
  const stdin = new PassThrough();
  const exited = runCli(['mcp'], {
    env: { HOME: process.env.HOME ?? '/tmp', ...env },
    stdin,
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    stopRequested: () => new Promise(() => {}),
  });
  for (const frame of frames) stdin.write(`${JSON.stringify(frame)}\n`);
  stdin.end();
  return { code: await exited, ...out };
}

/** A port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('mnemo mcp', () => {
  it('relays frames to the server and its answers back, and exits 0 when stdin ends', async () => {
    const { code, stdout, stderr } = await mcp({ MNEMO_URL: app.url, MNEMO_TOKEN: ADMIN_TOKEN }, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(code).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(stderr).toBe('');
  });

  it('exits 64 without MNEMO_TOKEN, saying where a token comes from', async () => {
    const { code, stdout, stderr } = await mcp({ MNEMO_URL: app.url });
    expect(code).toBe(64);
    expect(stderr).toContain('mcp needs MNEMO_TOKEN: an access token of the running server (mnemo token create)');
    expect(stdout).toBe('');
  });

  it('exits 64 when MNEMO_URL is not an http(s) address', async () => {
    const { code, stderr } = await mcp({ MNEMO_URL: 'ftp://example', MNEMO_TOKEN: ADMIN_TOKEN });
    expect(code).toBe(64);
    expect(stderr).toContain('MNEMO_URL must be the http(s) address of a running mnemo, not "ftp://example"');
  });

  it('exits 69 when no mnemo answers at MNEMO_URL, saying so', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await mcp({ MNEMO_URL: `http://127.0.0.1:${port}`, MNEMO_TOKEN: ADMIN_TOKEN });
    expect(code).toBe(69);
    expect(stderr).toBe(
      `mnemo: cannot reach mnemo at http://127.0.0.1:${port} (ECONNREFUSED); is "mnemo serve" running there? MNEMO_URL sets the address\n`,
    );
    expect(stdout).toBe('');
  });

  it('exits 69 when the server at MNEMO_URL has no MCP endpoint', async () => {
    const other = createServer((_req, res) => res.writeHead(404).end('not found')).listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    const { port } = other.address() as AddressInfo;
    const { code, stderr } = await mcp({ MNEMO_URL: `http://127.0.0.1:${port}`, MNEMO_TOKEN: ADMIN_TOKEN });
    other.close();
    expect(code).toBe(69);
    expect(stderr).toContain(`http://127.0.0.1:${port}/mcp answered HTTP 404`);
  });

  it('exits 77 when the server refuses the token', async () => {
    const { code, stdout, stderr } = await mcp({ MNEMO_URL: app.url, MNEMO_TOKEN: 'mnemo_not-a-real-token' });
    expect(code).toBe(77);
    expect(stderr).toBe(`mnemo: ${app.url} refused MNEMO_TOKEN: the bearer token is unknown or revoked\n`);
    expect(stdout).toBe('');
  });
});
