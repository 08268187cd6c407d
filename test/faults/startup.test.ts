import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/mnemoEntry.ts';
import { runMnemo, spawnMnemo } from '../helpers/mnemoProcess.ts';

let tmp: string;
let dataDir: string;
let dbFile: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-startup-'));
  dataDir = path.join(tmp, 'data');
  dbFile = path.join(dataDir, 'mnemo.db');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({ HOME: tmp, MNEMO_DATA_DIR: dataDir, ...extra });

/** `mnemo ...args` in this process, as server/main.ts runs it; what it wrote and its exit code. */
const mnemo = (args: string[], extra: Record<string, string> = {}) => runMnemo(args, env(extra));

const STACK = /\n\s+at /;

/** Overwrites `length` bytes of the database file from `offset` with `byte`. */
function damage(offset: number, length: number, byte = 0x5a) {
  const bytes = readFileSync(dbFile);
  bytes.fill(byte, offset, offset + length);
  writeFileSync(dbFile, bytes);
}

describe('a damaged database at start', () => {
  it.each([
    ['a header that is not SQLite', 0, 100],
    ['a damaged schema page', 3_000, 1_096],
  ])('with %s: exit 65, the file named, what is wrong and what to do, no stack', async (_what, offset, length) => {
    expect((await mnemo(['migrate'])).code).toBe(0);
    damage(offset, length);
    const { code, stderr } = await mnemo(['serve', '--port', '0', '--host', '127.0.0.1']);
    expect(code).toBe(65);
    expect(stderr).toContain(`the database ${dbFile} is damaged`);
    expect(stderr).toContain('mnemo restore');
    expect(stderr).not.toMatch(STACK);
  });

  it('is replaced by mnemo restore, which keeps the damaged file aside; the restored one serves', async () => {
    expect((await mnemo(['migrate'])).code).toBe(0);
    const backup = path.join(tmp, 'backup.db');
    expect((await mnemo(['backup', backup])).code).toBe(0);
    damage(0, 100);
    expect((await mnemo(['migrate'])).code).toBe(65);
    const restored = await mnemo(['restore', backup]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`${dbFile}.before-restore`);
    expect(readFileSync(`${dbFile}.before-restore`).subarray(0, 8).toString()).toBe('ZZZZZZZZ');
    expect((await mnemo(['migrate'])).code).toBe(0);
  });
});

// root writes any file whatever its mode: the check runs as an ordinary user then, who must be able to read this
// checkout (a clone inside a folder only root may enter, such as one made by mktemp -d, cannot be run that way).
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const checkoutReadable =
  spawnSync(
    process.execPath,
    ['-e', `const fs = require('node:fs'); fs.accessSync(${JSON.stringify(path.join(ROOT, 'server/main.ts'))}, fs.constants.R_OK)`],
    asUser,
  ).status === 0;
if (!checkoutReadable) {
  console.warn(`test/faults/startup.test.ts: the read-only database case is skipped: user ${asUser.uid} cannot read ${ROOT}`);
}

describe.skipIf(!checkoutReadable)('a database mnemo may not write at start', () => {
  it('exits 73, names the file and says what to check, with no stack', async () => {
    expect((await mnemo(['migrate'])).code).toBe(0);
    chmodSync(tmp, 0o755);
    chmodSync(dataDir, 0o777);
    chmodSync(dbFile, 0o444);
    const serve = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], env({ HOME: dataDir }), asUser);
    expect(await serve.exited).toBe(73);
    expect(serve.out.stderr).toContain(`the database ${dbFile} cannot be opened for writing`);
    expect(serve.out.stderr).toContain('let the user that runs it write the file');
    expect(serve.out.stderr).not.toMatch(STACK);
  }, 60_000);
});

describe('any other failure at start', () => {
  /** A database migrated by a newer mnemo: this one does not know its last migration. */
  const fromTheFuture = async () => {
    expect((await mnemo(['migrate'])).code).toBe(0);
    const db = new SQLite(dbFile);
    db.prepare(`insert into kysely_migration (name, timestamp) values ('2099_01_01_999_future', '2099-01-01T00:00:00.000Z')`).run();
    db.close();
  };

  it('says what failed in one line, without a stack', async () => {
    await fromTheFuture();
    const { code, stderr } = await mnemo(['migrate']);
    expect(code).toBe(70);
    expect(stderr).toMatch(/^mnemo: failed: .*2099_01_01_999_future/);
    expect(stderr).toContain('MNEMO_LOG_LEVEL=debug');
    expect(stderr).not.toMatch(STACK);
  });

  it('shows the stack when debug logging is on', async () => {
    await fromTheFuture();
    const { code, stderr } = await mnemo(['migrate'], { MNEMO_LOG_LEVEL: 'debug' });
    expect(code).toBe(70);
    expect(stderr).toMatch(STACK);
  });
});
