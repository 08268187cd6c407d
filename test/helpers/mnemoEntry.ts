import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's root: the working folder of every mnemo a test starts. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

let entry: string[] | undefined;

/**
 * The node arguments that start mnemo as a real process: the bundled dist/server/main.js when `npm run build` wrote it
 * after the last change to server/ and migrations/ (npm test builds first), else the sources through tsx. Both run the
 * same program; the bundle starts in a fraction of the time (no resolving, transforming and compiling of a thousand
 * modules at each start), which the suites that start dozens of processes feel.
 */
export function mnemoEntry(): string[] {
  entry ??= builtAfterSources() ? ['dist/server/main.js'] : ['--import', 'tsx', 'server/main.ts'];
  return entry;
}

function builtAfterSources(): boolean {
  let built: number;
  try {
    built = statSync(path.join(ROOT, 'dist/server/main.js')).mtimeMs;
  } catch {
    return false;
  }
  return ['server', 'migrations'].every((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' }).every(
      (file) => statSync(path.join(ROOT, folder, file)).mtimeMs <= built,
    ),
  );
}
