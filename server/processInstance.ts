import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Whether a process with this pid runs on this host (EPERM: it does, as another user). A zombie answers kill(pid, 0)
 * until its parent reaps it, which can take seconds; where /proc tells, a dead or zombie state is not running.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !['Z', 'X'].includes(procState(pid) ?? '');
}

/** The state letter of /proc/<pid>/stat (R, S, Z…), or null where there is no /proc. */
function procState(pid: number): string | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: the state follows its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/**
 * An id for one running instance of mnemo's services: host, pid and a random part (`vm:4242:1f0c9a2e`), so that another
 * process can tell a dead owner at once (same host, pid not running) and a reused pid does not pass for the old owner.
 */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Whether the process of an instance id is known to be gone: it ran on this host and its pid runs no more. False when
 * that cannot be known (another host, no owner recorded); the caller then relies on a heartbeat.
 */
export function instanceIsGone(instanceId: string | null): boolean {
  if (instanceId === null) return false;
  const [host, pid] = instanceId.split(':');
  return host === hostname() && Number.isInteger(Number(pid)) && !isRunning(Number(pid));
}
