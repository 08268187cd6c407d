import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { isRunning } from '../processInstance.ts';

/** Which process serves a data folder: written by `mnemo serve` at start, removed when it stops. */
export interface DataFolderHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** The mnemo command holding it; absent in locks written before `mnemo copy-store` held folders too. */
  command?: string;
}

const LOCK_FILE = 'mnemo.serving';

export class DataFolderBusyError extends Error {
  constructor(readonly holder: DataFolderHolder) {
    super(`mnemo ${holder.command ?? 'serve'} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) holds this data folder`);
  }
}

/**
 * The live server holding the folder, or null. A lock left by a process that is gone (killed, crashed) holds
 * nothing; one from another host cannot be checked, so it counts as held.
 */
export function dataFolderHolder(dataDir: string): DataFolderHolder | null {
  let holder: DataFolderHolder;
  try {
    holder = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as DataFolderHolder;
  } catch {
    return null;
  }
  if (holder.host !== hostname()) return holder;
  return isRunning(holder.pid) ? holder : null;
}

/**
 * Marks the folder as held by this process (`mnemo serve`, or `mnemo copy-store` while it reads the database), so
 * that `mnemo restore`, another server and another copy refuse to touch it.
 */
export function holdDataFolder(dataDir: string, command = 'serve'): { release(): void } {
  const holder = dataFolderHolder(dataDir);
  if (holder) throw new DataFolderBusyError(holder);
  const file = path.join(dataDir, LOCK_FILE);
  const mine: DataFolderHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  writeFileSync(file, `${JSON.stringify(mine)}\n`);
  return {
    release: () => {
      const current = dataFolderHolder(dataDir);
      if (current?.pid === mine.pid && current.startedAt === mine.startedAt) rmSync(file, { force: true });
    },
  };
}
