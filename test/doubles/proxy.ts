import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A double of the network between a gateway and mnemo: an HTTP proxy in front of a real mnemo that can be
 * slow (holds each request `delayMs` before forwarding it) or flaky (cuts the connection of the next
 * `resetNext` requests without an answer). It counts what reaches it: requests, and TCP connections (to see
 * keep-alive at work).
 */
export interface NetworkDouble {
  url: string;
  /** Requests received (including cut and delayed ones). */
  requests: number;
  /** TCP connections accepted. */
  connections: number;
  delayMs: number;
  resetNext: number;
  close(): Promise<void>;
}

export async function startNetworkDouble(upstream: string): Promise<NetworkDouble> {
  const target = new URL(upstream);
  const state = { requests: 0, connections: 0, delayMs: 0, resetNext: 0 };
  const server = createServer((req, res) => {
    state.requests += 1;
    if (state.resetNext > 0) {
      state.resetNext -= 1;
      req.socket.destroy();
      return;
    }
    const forward = () => {
      const out = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    };
    if (state.delayMs > 0) {
      const timer = setTimeout(forward, state.delayMs);
      res.once('close', () => clearTimeout(timer));
    } else forward();
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
