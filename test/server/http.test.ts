import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { dropTestStore, openTestStore } from '../helpers/testStore.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/**
 * A raw request with the path sent exactly as given: fetch() would normalise odd paths like "//"
 * before they reach the server.
 */
function rawGet(path: string, method = 'GET') {
  const { hostname, port } = new URL(app.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(5000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

const healthy = async () => (await fetch(`${app.url}/healthz`)).status === 200;

describe('the HTTP surface', () => {
  it('answers GET /healthz with 200 {"status":"ok"} and nothing else, to anyone, with no token', async () => {
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /healthz with 503 when the database cannot be used', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-dead-'));
    const dead = await openTestStore(dir);
    // Used, then closed: a PostgreSQL store closed before its first query would simply connect on the next one.
    await sql`select 1`.execute(dead.db);
    await dead.close();
    const { db } = app.services;
    // The app reads services.db on each health check, so a closed database can stand in for a lost one.
    (app.services as { db: unknown }).db = dead.db;
    try {
      const res = await fetch(`${app.url}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'unavailable', reason: 'database' });
    } finally {
      (app.services as { db: unknown }).db = db;
      await dropTestStore(dir);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await healthy()).toBe(true);
  });

  it('redirects / to /admin/', async () => {
    const res = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/');
  });

  it('serves the admin app as HTML at /admin/', async () => {
    const res = await fetch(`${app.url}/admin/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toMatch(/<html/i);
  });

  it('serves the admin app for deep links under /admin/, so client-side routes survive a reload', async () => {
    const res = await fetch(`${app.url}/admin/memories/some-id`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('refuses to write to /admin/ (405, with Allow)', async () => {
    const res = await fetch(`${app.url}/admin/`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('never serves files outside the admin app, however the path is encoded', async () => {
    for (const path of [
      '/admin/../package.json',
      '/admin/%2e%2e/package.json',
      '/admin/..%2f..%2fpackage.json',
      '/admin/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ]) {
      const res = await rawGet(path);
      expect(res.body, path).not.toContain('"dependencies"');
      expect(res.body, path).not.toContain('root:');
    }
  });

  it('survives a malformed percent-encoding like /admin/%E0%A4%A', async () => {
    const res = await rawGet('/admin/%E0%A4%A');
    expect(res.status).toBeLessThan(500);
    expect(await healthy()).toBe(true);
  });

  it('answers a request whose path is not a valid URL ("//") with 400 and keeps running', async () => {
    for (const path of ['//', '//[', '//a%20b:x']) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(400);
    }
    expect(await healthy()).toBe(true);
  });

  it('answers 404 for unknown paths', async () => {
    const res = await fetch(`${app.url}/nope`);
    expect(res.status).toBe(404);
  });
});
