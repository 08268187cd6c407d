import http from 'node:http';

export interface TimedAnswer {
  status: number;
  text: string;
  /** Milliseconds from writing the request to the last byte of the response. */
  ms: number;
  /** The request opened a connection instead of reusing a kept-alive one. */
  newConnection: boolean;
}

/**
 * One POST through `agent` (node:http, keep-alive: see httpClient.ts for why not fetch), timed from writing the request
 * to the last byte of the response.
 */
export function timedPost(agent: http.Agent, url: URL, headers: Record<string, string>, body: Buffer): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms, newConnection: !req.reusedSocket });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no response within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}
