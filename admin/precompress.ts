import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Smaller files gain nothing worth a second request header and a second file. */
const MIN_BYTES = 1024;
const TEXT = /\.(js|css|html|svg|json)$/;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file of the build, so the
 * server sends them as they are instead of compressing on every request (server/adminStatic.ts picks the one the
 * browser accepts). Built on node:zlib rather than a plugin package: two calls, no dependency. It reads the files
 * as written: other plugins still rewrite chunks in generateBundle (Vite's preload helper), so the copies must be
 * made after that.
 */
export function precompress(): Plugin {
  return {
    name: 'mnemo:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '');
      for (const fileName of Object.keys(bundle)) {
        if (!TEXT.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const raw = readFileSync(file);
        if (raw.length < MIN_BYTES) continue;
        const br = brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        writeFileSync(`${file}.br`, br);
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}
