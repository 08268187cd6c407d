import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderBusyError, ensureDataFolderFree, holdDataFolder } from '../../server/backup/dataFolderLock.ts';
import { mnemoEntry, ROOT } from '../helpers/mnemoEntry.ts';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});
const dataFolder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-lock-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** The state letter /proc gives a process: Z for a zombie, a process that has exited and that nobody has reaped. */
const procState = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

/**
 * `mnemo serve` on the folder as the child of a shell that then becomes `sleep`, which never reaps it: once killed, the
 * server stays a zombie for as long as the sleep runs, as on a machine whose init reaps orphans late.
 */
async function serverUnderANonReapingParent(dataDir: string): Promise<{ serverPid: number }> {
  const parent = spawn('sh', ['-c', '"$@" & echo "server pid $!"; exec sleep 120', 'sh', process.execPath, ...mnemoEntry(), 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', MNEMO_DATA_DIR: dataDir, MNEMO_PORT: '0', MNEMO_HOST: '127.0.0.1', MNEMO_WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanup.push(() => parent.kill('SIGKILL'));
  let out = '';
  parent.stdout.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    parent.stdout.on('data', (text: string) => {
      out += text;
      const pid = /server pid (\d+)/.exec(out)?.[1];
      if (pid && out.includes('mnemo is listening')) resolve({ serverPid: Number(pid) });
    });
    parent.once('exit', () => reject(new Error(`the shell exited before mnemo listened:\n${out}`)));
  });
}

const isFree = (dir: string) => {
  try {
    ensureDataFolderFree(dir);
    return true;
  } catch {
    return false;
  }
};

describe('the data folder lock', () => {
  it('is free again as soon as its holder is killed, while the holder is still an unreaped zombie', async () => {
    const dir = dataFolder();
    const { serverPid } = await serverUnderANonReapingParent(dir);
    expect(() => ensureDataFolderFree(dir)).toThrow(/mnemo serve \(pid \d+ .*\) holds this data folder/);

    process.kill(serverPid, 'SIGKILL');
    await expect.poll(() => procState(serverPid)).toBe('Z');
    // A zombie still answers kill(pid, 0): the check a pid file relies on would say it holds the folder.
    expect(() => process.kill(serverPid, 0)).not.toThrow();

    // The leader turns zombie while its other threads may still be closing the process's files: a moment, not a reaping.
    await expect.poll(() => isFree(dir)).toBe(true);
    expect(procState(serverPid)).toBe('Z');
    holdDataFolder(dir).release();
  });

  it('is not held by a stale holder file naming a pid that now belongs to another process', () => {
    const dir = dataFolder();
    // This test's own pid stands in for a pid the kernel handed to an unrelated process after the server died.
    const stale = { pid: process.pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'serve' };
    writeFileSync(path.join(dir, 'mnemo.serving'), JSON.stringify(stale));
    const lock = holdDataFolder(dir);
    lock.release();
  });

  it('refuses a second holder in the same process and names the first', () => {
    const dir = dataFolder();
    const lock = holdDataFolder(dir, 'copy-store');
    try {
      expect(() => holdDataFolder(dir)).toThrow(DataFolderBusyError);
      expect(() => holdDataFolder(dir)).toThrow(`mnemo copy-store (pid ${process.pid} on ${hostname()}`);
    } finally {
      lock.release();
    }
    holdDataFolder(dir).release();
  });
});
