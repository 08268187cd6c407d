import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Smaller files gain nothing worth a second request header and a second file. */
const MIN_BYTES = 1024;
const TEXT = /\.(js|css|html|svg|json)$/;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file of the build, so the
 * server sends them as they are instead of compressing on every request (server/adminStatic.ts picks the one the
 * browser accepts). Built on node:zlib rather than a plugin package: two calls, no dependency.
 */
export function precompress(): Plugin {
  return {
    name: 'mnemo:precompress',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!TEXT.test(file.fileName)) continue;
        const raw = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        if (raw.length < MIN_BYTES) continue;
        const br = brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        this.emitFile({ type: 'asset', fileName: `${file.fileName}.br`, source: br });
        this.emitFile({ type: 'asset', fileName: `${file.fileName}.gz`, source: gzipSync(raw, { level: 9 }) });
      }
    },
  };
}
