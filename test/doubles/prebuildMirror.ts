/**
 * Test double of GitHub releases for better-sqlite3's prebuilt binaries, where prebuild-install (better-sqlite3's
 * install script: `prebuild-install || node-gyp rebuild --release`) fetches them when a user installs online. No
 * GitHub here, so this serves the one asset prebuild-install asks for on this machine, packed the way prebuild
 * packs it: `better-sqlite3-v{version}-node-v{abi}-{platform}{libc}-{arch}.tar.gz` holding
 * `build/Release/better_sqlite3.node`, made from the binary that this repository's own install put in
 * node_modules (built for this Node, platform and arch).
 *
 * It answers as github.com does: `GET /v{version}/{asset}` is a 302 to a second path standing for GitHub's asset
 * host, which sends the bytes as application/octet-stream; anything else is a 404. prebuild-install is pointed
 * at it the way its README tells users behind a mirror: `npm_config_better_sqlite3_binary_host=<url>`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface PrebuildMirror {
  url: string;
  /** The environment that points prebuild-install at this mirror. */
  env: Record<string, string>;
  /** Where prebuild-install asks for this machine's binary: `/v{version}/{name as prebuild-install makes it}`. */
  assetPath: string;
  /** Request paths received, in order. */
  requests: string[];
  close(): Promise<void>;
}

const ASSET_HOST = '/release-assets/';

/** The prebuilt binary of `fromDir`'s better-sqlite3, served as its GitHub release asset. */
export async function startPrebuildMirror(fromDir: string): Promise<PrebuildMirror> {
  const manifest = createRequire(path.join(fromDir, 'package.json')).resolve('better-sqlite3/package.json');
  const packageDir = path.dirname(manifest);
  const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
  const asset = `${name}-v${version}-node-v${process.versions.modules}-${process.platform}${libc()}-${process.arch}.tar.gz`;
  const assetPath = `/v${version}/${asset}`;
  const tarball = execFileSync('tar', ['-cz', '-C', packageDir, 'build/Release/better_sqlite3.node'], { maxBuffer: 64 << 20 });
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const at = req.url ?? '';
    requests.push(at);
    if (req.method === 'GET' && at === assetPath) {
      res.writeHead(302, { location: `${ASSET_HOST}${asset}` }).end();
    } else if (req.method === 'GET' && at === `${ASSET_HOST}${asset}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length }).end(tarball);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { npm_config_better_sqlite3_binary_host: url },
    assetPath,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** prebuild-install's libc part of the name: empty for glibc (and off Linux), else the family, e.g. `musl`. */
function libc(): string {
  if (process.platform !== 'linux') return '';
  const header = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header;
  return header.glibcVersionRuntime ? '' : 'musl';
}
