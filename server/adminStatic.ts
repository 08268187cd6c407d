import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

/** What the build may have precompressed (admin/precompress.ts), best first, with the file suffix it wrote. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Serves the built admin app from `dist`: unknown paths fall back to its index.html (client-side routes survive a
 * reload), and before a build a placeholder says how to build it. A file the build also wrote as .br or .gz is sent
 * in the best encoding the browser accepts, with `Vary: Accept-Encoding` so caches keep the encodings apart; hashed
 * assets are cached for good, index.html is revalidated.
 */
export function adminStatic(dist: string) {
  return (pathname: string, req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return void res.end();
    }
    const file = adminFile(dist, pathname);
    if (file === null) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      return void res.end(req.method === 'HEAD' ? undefined : ADMIN_NOT_BUILT);
    }
    const variants = ENCODINGS.filter((e) => existsSync(file + e.suffix));
    const encoding = variants.find((e) => accepts(req.headers['accept-encoding'], e.name)) ?? null;
    const sent = encoding ? file + encoding.suffix : file;
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(sent).size,
      'cache-control': path.basename(file) === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...(encoding ? { 'content-encoding': encoding.name } : {}),
      ...(variants.length > 0 ? { vary: 'Accept-Encoding' } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(sent).pipe(res);
  };
}

/** Whether an Accept-Encoding header accepts this coding: named (or "*") with a q-value above 0. */
export function accepts(header: string | undefined, coding: string): boolean {
  const offers = (header ?? '').split(',').map((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { name: name.trim(), q: q ? Number(q.slice(2)) : 1 };
  });
  const named = offers.find((o) => o.name === coding) ?? offers.find((o) => o.name === '*');
  return named !== undefined && named.q > 0;
}

function adminFile(dist: string, pathname: string): string | null {
  if (!existsSync(path.join(dist, 'index.html'))) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.replace(/^\/admin\/?/, ''));
  } catch {
    relative = '';
  }
  const candidate = path.resolve(dist, relative);
  const inside = candidate.startsWith(dist + path.sep);
  return inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : path.join(dist, 'index.html');
}

const ADMIN_NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mnemo admin</title></head>
<body><main><h1>mnemo</h1>
<p>The memory server is running; the GraphQL API is at <code>/graphql</code>.</p>
<p>The admin app is not built: run <code>npm run build:admin</code>, then restart.</p>
</main></body></html>`;
