import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts, adminStatic } from '../../server/adminStatic.ts';

const SCRIPT = `console.log(${JSON.stringify('memory studio '.repeat(200))});`;
let dist: string;
let server: Server;
let base: URL;

beforeAll(async () => {
  // A build as admin/precompress.ts leaves it: the script beside its .br and .gz, a small icon without them.
  dist = mkdtempSync(path.join(tmpdir(), 'mnemo-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Memory Studio</title>');
  writeFileSync(path.join(dist, 'assets/index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets/index-abc123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets/index-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets/icon.svg'), '<svg/>');
  const serve = adminStatic(dist);
  server = createServer((req, res) => serve(new URL(req.url ?? '/', 'http://x').pathname, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

/** A request with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ hostname: base.hostname, port: base.port, path: pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the admin app over HTTP', () => {
  it('sends the brotli file to a browser that accepts br, to be kept for good', async () => {
    const res = await get('/admin/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-encoding': 'br',
      vary: 'Accept-Encoding',
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(res.body.length),
    });
    expect(res.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip when br is not accepted (or refused with q=0)', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0, gzip;q=0.8']) {
      const res = await get('/admin/assets/index-abc123.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(res.body).toString()).toBe(SCRIPT);
    }
  });

  it('sends the file as it is without Accept-Encoding, still saying that the answer varies by it', async () => {
    const res = await get('/admin/assets/index-abc123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe(SCRIPT);
  });

  it('sends a file the build did not compress as it is, without Vary', async () => {
    const res = await get('/admin/assets/icon.svg', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.toString()).toBe('<svg/>');
  });

  it('has index.html revalidated, also for deep links', async () => {
    for (const pathname of ['/admin/', '/admin/memories/x']) {
      const res = await get(pathname);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString()).toContain('Memory Studio');
    }
  });

  it('answers HEAD with the headers of the encoding it would send, and no body', async () => {
    const res = await get('/admin/assets/index-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(brotliCompressSync(SCRIPT).length);
    expect(res.body.length).toBe(0);
  });
});

describe('reading Accept-Encoding', () => {
  it('takes a coding that is named, or allowed by "*", with a q-value above 0', () => {
    expect(accepts('gzip, br', 'br')).toBe(true);
    expect(accepts('BR;Q=0.5', 'br')).toBe(true);
    expect(accepts('br;q=0', 'br')).toBe(false);
    expect(accepts('*', 'gzip')).toBe(true);
    expect(accepts('*;q=0, gzip', 'br')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
  });
});
