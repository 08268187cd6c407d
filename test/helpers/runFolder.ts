import { chmodSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A tmpfs with less room than this is left alone: the run's PostgreSQL cluster and npm install need about 1 GB. */
const MIN_FREE_BYTES = 4 * 2 ** 30;

/**
 * vitest globalSetup: every temporary folder of the run (SQLite files, data folders, models, the PostgreSQL cluster,
 * the packaging test's install) goes under one folder that is removed when the run ends, so a test that forgets its
 * folder leaves nothing behind. The folder is in memory when the machine has a tmpfs at /dev/shm: on a VM's disk,
 * creating and removing files is what the tests spent much of their time on (a PostgreSQL test database took 300 ms
 * to create on ext4 and 15 ms on tmpfs). Set through TMPDIR, which the workers and the processes they start inherit.
 */
export default function setup() {
  // Each project inherits this setup: the first to run makes the folder, and removes it when the run ends.
  if (process.env.MNEMO_TEST_RUN_FOLDER) return;
  const base = process.env.TMPDIR ?? (roomy('/dev/shm') ? '/dev/shm' : tmpdir());
  const folder = mkdtempSync(path.join(base, 'mnemo-test-'));
  // The PostgreSQL cluster runs as the postgres user, which must reach its folder inside this one.
  chmodSync(folder, 0o755);
  process.env.TMPDIR = process.env.MNEMO_TEST_RUN_FOLDER = folder;
  // Retried: a Chromium that a worker started may still be writing its profile here as it exits.
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 10 });
}

function roomy(dir: string): boolean {
  try {
    const { bavail, bsize, type } = statfsSync(dir);
    const TMPFS_MAGIC = 0x01021994;
    return type === TMPFS_MAGIC && bavail * bsize >= MIN_FREE_BYTES;
  } catch {
    return false;
  }
}
