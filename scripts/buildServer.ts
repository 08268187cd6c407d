// `npm run build:server`: the server as plain JavaScript in dist/server/, what the `mnemo` bin and `npm start` run
// with node. Bundled with its dependencies: node then reads a few files instead of resolving, opening and compiling
// about a thousand modules, and a process is listening in half the time and CPU (1.3 s against 2.3 s here), which a
// restart, a replica scaling out and the test suites (dozens of processes) all feel. Type checking is not part of it:
// `npm run typecheck`, in `npm test`, checks these files.
import { copyFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/server';

/**
 * Loaded as they are, from node_modules: native addons and packages that find files of their own beside their code
 * (better-sqlite3's binary, sqlite-vec's loadable extension, the optional transformers library and its ONNX runtime),
 * and pg's optional native driver, which is not installed.
 */
const EXTERNAL = ['better-sqlite3', 'sqlite-vec', '@huggingface/transformers', 'pg-native'];

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['server/main.ts'],
  bundle: true,
  // main.ts turns source maps on and sets NODE_ENV before it imports the rest: with splitting, the rest stays a
  // separate file (a chunk) that loads then, as in the unbundled build.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: OUT,
  // Beside main.js: code that finds files from its own location (the package root, the backup worker) finds them.
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  // The maps name the sources (server/…, node_modules/…) without holding them: a tenth of the size.
  sourcesContent: false,
  external: EXTERNAL,
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as mnemoCreateRequire } from 'node:module'; const require = mnemoCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
// The backup worker is loaded by URL at run time, beside the code that loads it.
copyFileSync('server/db/vacuumInto.worker.mjs', `${OUT}/vacuumInto.worker.mjs`);
