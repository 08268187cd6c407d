/**
 * Test double of the Hugging Face hub's file endpoint, `GET|HEAD /{org}/{name}/resolve/{revision}/{path}`,
 * serving repositories from a local folder (`${root}/${org}/${name}/${path}`) over real HTTP on loopback.
 *
 * It answers the way huggingface.co does, because that is what download code is written against:
 * - regular files: 200 with content-length and `etag: "<git blob sha1>"`;
 * - LFS files (*.safetensors, *.onnx, *.bin by default): 302 to a second path standing for the CDN, with the
 *   file's sha256 in `x-linked-etag` and its size in `x-linked-size`; the CDN path serves the bytes with its
 *   own (non-sha256) etag;
 * - missing file: 404 `x-error-code: EntryNotFound`; unknown revision: 404 `RevisionNotFound`; unknown repo:
 *   401 `RepositoryNotFound` (the hub does not reveal whether a private repo exists).
 * Faults can be scripted per file: corrupt bytes (headers keep the true checksum), an HTTP status such as 503,
 * or a stall (headers and half the body, then silence).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export type HubFault = { kind: 'corrupt' } | { kind: 'status'; status: number } | { kind: 'stall' };

export interface HubDoubleOptions {
  /** Folder whose `org/name/` subfolders are the repositories. */
  root: string;
  /** Which files are stored in LFS (redirected to the CDN path); default: .safetensors, .onnx, .bin. */
  isLfs?: (file: string) => boolean;
  /** Revisions that exist; default ['main']. All of them serve the same files. */
  revisions?: string[];
}

export interface HubRequest {
  method: string;
  /** The request path as sent, e.g. `/minishlab/potion-base-8M/resolve/main/config.json`. */
  path: string;
}

export interface HubDouble {
  /** Pass as the hub endpoint, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request received, in order. */
  requests: HubRequest[];
  /** Makes the next `times` requests for `file` (any repo) fail with `fault` (default: until cleared). */
  fault(file: string, fault: HubFault, times?: number): void;
  clearFaults(): void;
  close(): Promise<void>;
}

const COMMIT = 'c0ffee0000000000000000000000000000c0ffee';

export async function startHubDouble(options: HubDoubleOptions): Promise<HubDouble> {
  const isLfs = options.isLfs ?? ((f: string) => /\.(safetensors|onnx|bin)$/.test(f));
  const revisions = new Set(options.revisions ?? ['main']);
  const faults = new Map<string, { fault: HubFault; remaining: number }>();
  const requests: HubRequest[] = [];
  /** What the CDN path can serve: sha256 → file, registered when the hub redirects to it. */
  const cdnObjects = new Map<string, { file: string; filePath: string }>();

  /** The scripted fault for a file, used up by this request. */
  const takeFault = (file: string): HubFault | null => {
    const entry = faults.get(file);
    if (!entry) return null;
    if (--entry.remaining <= 0) faults.delete(file);
    return entry.fault;
  };

  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '' });
    try {
      handle(req, res);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    const url = new URL(req.url ?? '/', 'http://hub.invalid');
    const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);

    if (segments[0] === 'cdn-lfs') return void serveCdn(req, res, segments.slice(1));

    const at = segments.indexOf('resolve');
    if (at < 1 || at > 2 || segments.length < at + 3) return void hubError(res, 404, 'EntryNotFound', 'Not found');
    const repo = segments.slice(0, at).join('/');
    const revision = segments[at + 1]!;
    const file = segments.slice(at + 2).join('/');
    const repoDir = path.join(options.root, repo);
    if (!existsSync(repoDir)) return void hubError(res, 401, 'RepositoryNotFound', 'Repository not found');
    if (!revisions.has(revision)) return void hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${revision}`);
    const filePath = path.join(repoDir, file);
    if (!filePath.startsWith(repoDir + path.sep) || !existsSync(filePath) || !statSync(filePath).isFile()) {
      return void hubError(res, 404, 'EntryNotFound', `${file} does not exist on "${revision}"`);
    }

    const fault = peekStatusFault(file);
    if (fault) return void hubError(res, fault, 'ServiceUnavailable', 'Service temporarily unavailable');

    const bytes = readFileSync(filePath);
    const common = { 'x-repo-commit': COMMIT, 'access-control-expose-headers': 'x-repo-commit,x-linked-etag,x-linked-size,etag' };
    if (isLfs(file)) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      cdnObjects.set(sha256, { file, filePath });
      res.writeHead(302, {
        ...common,
        location: `${base()}/cdn-lfs/repos/${repo}/${sha256}?response-content-disposition=${encodeURIComponent(`attachment; filename="${path.basename(file)}"`)}`,
        'x-linked-etag': `"${sha256}"`,
        'x-linked-size': String(bytes.length),
        etag: `"${gitBlobSha1(bytes)}"`,
        'content-length': '0',
      });
      return void res.end();
    }
    sendBytes(req, res, file, bytes, { ...common, etag: `"${gitBlobSha1(bytes)}"` });
  }

  /** The CDN stand-in: `/cdn-lfs/repos/{repo}/{sha256}` serves content by its sha256, as the hub linked it. */
  function serveCdn(req: IncomingMessage, res: ServerResponse, rest: string[]): void {
    const sha256 = rest.at(-1) ?? '';
    const object = cdnObjects.get(sha256);
    const bytes = object && existsSync(object.filePath) ? readFileSync(object.filePath) : null;
    if (!object || !bytes || createHash('sha256').update(bytes).digest('hex') !== sha256) {
      return void res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
    }
    sendBytes(req, res, object.file, bytes, { etag: `"${createHash('md5').update(bytes).digest('hex')}"` });
  }

  /** Status faults are answered by the hub itself, body faults by whoever sends the bytes. */
  function peekStatusFault(file: string): number | null {
    const entry = faults.get(file);
    if (entry?.fault.kind !== 'status') return null;
    takeFault(file);
    return entry.fault.status;
  }

  function sendBytes(req: IncomingMessage, res: ServerResponse, file: string, bytes: Buffer, headers: Record<string, string>): void {
    const fault = req.method === 'GET' ? takeFault(file) : null;
    res.writeHead(200, { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
    if (req.method === 'HEAD') return void res.end();
    if (fault?.kind === 'corrupt') {
      const corrupt = Buffer.from(bytes);
      corrupt[corrupt.length >> 1]! ^= 0xff;
      return void res.end(corrupt);
    }
    if (fault?.kind === 'stall') return void res.write(bytes.subarray(0, bytes.length >> 1));
    res.end(bytes);
  }

  function hubError(res: ServerResponse, status: number, code: string, message: string): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-error-code': code, 'x-error-message': message }).end(message);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base(),
    requests,
    fault(file, fault, times = Number.POSITIVE_INFINITY) {
      faults.set(file, { fault, remaining: times });
    },
    clearFaults() {
      faults.clear();
    },
    close() {
      // Stalled responses never end on their own.
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/** What git (and so the hub, for regular files) uses as a file's id: sha1 of "blob <size>\0" + content. */
function gitBlobSha1(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\u0000`).update(bytes).digest('hex');
}
