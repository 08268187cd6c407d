import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { MetricsSource } from './metrics.ts';

/** Answers a scrape with the Prometheus text exposition. */
export async function sendMetrics(metrics: MetricsSource, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' });
    return void res.end();
  }
  const text = await metrics.text();
  res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * Whether a request on the public port may read /metrics: only with the configured token as its bearer
 * token, compared in constant time (hashes of equal length, so not even the token's length leaks).
 */
export function metricsTokenAccepted(token: string, authorization: string | undefined): boolean {
  const sent = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!sent) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(token));
}

/** The listener of MNEMO_METRICS_PORT: /metrics and nothing else, for a scraper on a private network. */
export function createMetricsServer(metrics: MetricsSource): Server {
  return createServer((req, res) => {
    if (req.url?.split('?')[0] === '/metrics') return void sendMetrics(metrics, req, res);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found');
  });
}
