import { type ChildProcess, spawn } from 'node:child_process';
import { runCli } from '../../server/cli.ts';
import { mnemoEntry, ROOT } from './mnemoEntry.ts';

export interface MnemoProcess {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves with the base URL (no trailing slash) once `serve` says it listens; rejects if it exits first. */
  listening(): Promise<string>;
}

/**
 * `mnemo ...args` as a real process (mnemoEntry), with only the environment given (plus PATH, and MNEMO_WORKERS=1
 * unless given): one process, so a
 * signal reaches mnemo itself (the tsx CLI would run it in a child and relay signals). `uid`/`gid` run it
 * as another user (a test run as root checks what a file mode means to an ordinary one); `preload` modules are imported
 * before mnemo's own (a test's hook into the process).
 */
export function spawnMnemo(
  args: string[],
  env: Record<string, string>,
  user: { uid?: number; gid?: number } = {},
  preload: string[] = [],
): MnemoProcess {
  const child = spawn(process.execPath, [...preload.flatMap((p) => ['--import', p]), ...mnemoEntry(), ...args], {
    cwd: ROOT,
    // One process unless the test asks for workers: the tests that signal, kill or count the server's process mean it.
    env: { PATH: process.env.PATH ?? '', MNEMO_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (out.stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (out.stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = out.stdout.split('\n').find((l) => l.includes('mnemo is listening'));
        if (line) resolve((JSON.parse(line) as { url: string }).url.replace(/\/$/, ''));
      };
      check();
      child.stdout!.on('data', check);
      void exited.then((code) => reject(new Error(`mnemo exited with ${code}:\n${out.stdout}\n${out.stderr}`)));
    });
  return { child, out, exited, listening };
}

/**
 * Runs `mnemo ...args` in this process (the same runCli that server/main.ts calls) with only the environment given,
 * and collects what it writes. `serve` runs until it fails to start (or forever: use a real process to stop one).
 */
export async function runMnemo(args: string[], env: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const code = await runCli(args, {
    // One process: workers would be forks of the test runner.
    env: { MNEMO_WORKERS: '1', ...env },
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    stopRequested: () => new Promise(() => {}),
  });
  return { code, ...out };
}
