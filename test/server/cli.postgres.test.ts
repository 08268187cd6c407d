import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../server/cli.ts';
import { HealthStoreKindDocument as HEALTH_STORE } from '../generated/graphql.ts';
import { okAt } from '../helpers/graphqlHttp.ts';
import { runMnemo } from '../helpers/mnemoProcess.ts';
import { databaseUrl, dropDatabase, ensureDatabase, withPostgres } from '../helpers/postgres.ts';
import { testStoreKind } from '../helpers/testStore.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-cli-pg-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `mnemo ...args` in this process with only the environment given (no MNEMO_* from outside). */
const run = (args: string[]) => runMnemo(args, { HOME: tmp, MNEMO_DATA_DIR: path.join(tmp, 'data') });

// Needs the postgres project's throwaway cluster.
describe.skipIf(testStoreKind() !== 'postgres')('mnemo migrate --database-url', () => {
  const name = 'mnemo_cli_migrate';
  let url: string;
  beforeAll(async () => {
    url = await ensureDatabase(inject('postgresUrl')!, name);
  });
  afterAll(() => dropDatabase(inject('postgresUrl')!, name));

  it('creates the tables in an empty PostgreSQL database, exits 0, and is safe to run again', async () => {
    const first = await run(['migrate', '--database-url', url]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`database ${url} is up to date`);
    const tables = await withPostgres(url, async (db) => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_tables where tablename in ('memories', 'settings', 'audit_log')`.execute(db);
      return rows[0]!.n;
    });
    expect(tables).toBe(3);
    expect((await run(['migrate', '--database-url', url])).code).toBe(0);
  });

  it('token create on it needs no --create and names the server, without its password', async () => {
    const withPassword = new URL(url);
    withPassword.password = 'hunter2-secret';
    const { code, stderr } = await run(['token', 'create', '--name', 'pg', '--database-url', withPassword.toString()]);
    expect(code).toBe(0);
    withPassword.password = '***';
    expect(stderr).toContain(` in ${withPassword.toString()}. The token is shown only once`);
    expect(stderr).not.toContain('hunter2');
  });

  it('serves from it: ready, answering from PostgreSQL, and a stop ends it with exit 0', async () => {
    let listening: (url: string) => void = () => {};
    const served = new Promise<string>((resolve) => (listening = resolve));
    let stop: () => void = () => {};
    const stopRequested = new Promise<void>((resolve) => (stop = resolve));
    const out = { stdout: '', stderr: '' };
    const exited = runCli(['serve', '--port', '0', '--database-url', url], {
      env: { HOME: tmp, MNEMO_DATA_DIR: path.join(tmp, 'data'), MNEMO_ADMIN_TOKEN: 'cli-admin-token-0123456789', MNEMO_WORKERS: '1' },
      stdout: {
        write: (text: string) => {
          out.stdout += text;
          if (text.includes('mnemo is listening')) listening((JSON.parse(text) as { url: string }).url.replace(/\/$/, ''));
        },
      },
      stderr: { write: (text: string) => (out.stderr += text) },
      stopRequested: () => stopRequested,
    });
    const failed = exited.then((code) => Promise.reject(new Error(`serve exited with ${code}:\n${out.stdout}\n${out.stderr}`)));
    const base = await Promise.race([served, failed]);
    let ready: { status: number; body: unknown } = { status: 0, body: null };
    // Ready once start-up is complete: asked again, not waited for by time.
    for (let i = 0; i < 200 && ready.status !== 200; i++) {
      const res = await fetch(`${base}/readyz`);
      ready = { status: res.status, body: await res.json() };
      if (res.status !== 200) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ready).toEqual({ status: 200, body: { status: 'ready' } });
    const health = await okAt(base, HEALTH_STORE, undefined, 'cli-admin-token-0123456789');
    expect(health.memoryHealth).toEqual({ store: 'POSTGRES', ok: true });
    stop();
    expect(await exited).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).not.toContain('"level":50');
  });

  it('names a database that does not exist, without the password, and exits 69', async () => {
    const missing = new URL(databaseUrl(inject('postgresUrl')!, 'mnemo_no_such_database'));
    missing.password = 'hunter2-secret';
    const { code, stdout, stderr } = await run(['migrate', '--database-url', missing.toString()]);
    expect(code).toBe(69);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^mnemo: PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/mnemo_no_such_database: database "mnemo_no_such_database" does not exist \(3D000\)\n$/,
    );
    expect(stderr).not.toContain('hunter2');
  });
});

describe('mnemo migrate with an unreachable PostgreSQL', () => {
  it('says the server cannot be reached, with no stack, and exits 69', async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    const { code, stdout, stderr } = await run(['migrate', '--database-url', 'postgres://mnemo:s3cret-pass@127.0.0.1:1/mnemo']);
    expect(code).toBe(69);
    expect(stdout).toBe('');
    expect(stderr).toBe('mnemo: PostgreSQL at postgres://mnemo:***@127.0.0.1:1/mnemo: connect ECONNREFUSED 127.0.0.1:1\n');
  });

  it('refuses a URL that is not a postgres:// one as a usage error', async () => {
    const { code, stderr } = await run(['migrate', '--database-url', 'mysql://127.0.0.1/mnemo']);
    expect(code).toBe(64);
    expect(stderr).toContain('MNEMO_DATABASE_URL must start with postgres:// or postgresql://');
  });
});

describe('mnemo backup and restore with --database-url', () => {
  // Refused before any connection: the URL need not reach a server.
  const url = 'postgres://mnemo:s3cret-pass@127.0.0.1:1/mnemo';

  it('refuses a backup and points to pg_dump, exit 64', async () => {
    const { code, stdout, stderr } = await run(['backup', path.join(tmp, 'b.db'), '--database-url', url]);
    expect(code).toBe(64);
    expect(stdout).toBe('');
    expect(stderr).toContain('mnemo: backup copies the SQLite file; the data is in PostgreSQL: back it up with pg_dump\n');
  });

  it('refuses a restore and points to pg_restore, exit 64', async () => {
    const { code, stderr } = await run(['restore', path.join(tmp, 'b.db'), '--database-url', url]);
    expect(code).toBe(64);
    expect(stderr).toContain('mnemo: restore puts back a SQLite file; the data is in PostgreSQL: restore a pg_dump with pg_restore\n');
  });
});
