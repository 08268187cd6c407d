import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  /** Where it is mounted. */
  dir: string;
  /** Takes all but `leftBytes` of its free space, in a file that free() deletes. */
  fill(leftBytes: number): void;
  /** Gives back what fill() took. */
  free(): void;
  /** Unmounts it and removes its folder. */
  remove(): void;
}

/**
 * A 4 MiB tmpfs of its own: a disk that fills up in a second. Mounting needs root on Linux; elsewhere this warns that
 * `suite` is skipped and returns null.
 */
export function mountSmallDisk(suite: string): SmallDisk | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    console.warn(
      `${suite} skipped: cannot mount a small tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}); run the tests as root on Linux to include it`,
    );
    return null;
  }
  const ballast = path.join(dir, 'ballast');
  return {
    dir,
    fill: (leftBytes) => {
      const s = statfsSync(dir);
      writeFileSync(ballast, Buffer.alloc(Math.max(0, s.bavail * s.bsize - leftBytes)));
    },
    free: () => rmSync(ballast, { force: true }),
    remove: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
