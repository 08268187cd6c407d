import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { adminStatic } from './adminStatic.ts';
import { ping } from './db/open.ts';
import type { TrustedDocuments } from './graphql/trustedDocuments.ts';
import { attachGraphQLWebSocket } from './graphql/websocket.ts';
import { createMnemoYoga } from './graphql/yoga.ts';
import { createMcpHandler } from './mcp/http.ts';
import type { MetricsSource } from './metrics/metrics.ts';
import { metricsTokenAccepted, sendMetrics } from './metrics/metricsEndpoint.ts';
import { PACKAGE_ROOT } from './packageRoot.ts';
import { BUNDLE_PATH, sendBundle } from './portability/export/bundleDownload.ts';
import { scopeRequest } from './requestScope.ts';
import { requestTurns } from './requestTurns.ts';
import type { Services } from './services.ts';

const serveAdmin = adminStatic(path.join(PACKAGE_ROOT, 'admin/dist'));

export interface App {
  yoga: ReturnType<typeof createMnemoYoga>;
  server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** /readyz answers 200 from now on (until drain): start-up is complete. */
  markReady(): void;
  /**
   * Graceful stop: /readyz answers 503, no new connection is accepted, subscriptions end with a complete
   * event, and requests in flight finish; connections still open after `timeoutMs` are cut. Resolves with how
   * many requests were cut.
   */
  drain(timeoutMs: number): Promise<{ cut: number }>;
  /** Immediate stop: every connection is cut. */
  close(): Promise<void>;
}

export interface AppOptions {
  /** Serves /metrics on this app's port to requests bearing this token; without it /metrics is not found here. */
  metricsToken?: string | null;
  /** Only these operations run (MNEMO_TRUSTED_DOCUMENTS), over HTTP, SSE and WebSocket alike. */
  trustedDocuments?: TrustedDocuments | null;
  /** What /metrics serves (default: the services' own); a worker serves the whole server's. */
  metrics?: MetricsSource;
  /** The worker this app runs in, when the server has several: every response says it (mnemo-worker), for debugging. */
  worker?: string | null;
}

/** Builds the HTTP app; nothing listens until `listen` is called, so tests can use `yoga.fetch` directly. */
export function createApp(services: Services, options: AppOptions = {}): App {
  const shutdown = new AbortController();
  const yoga = createMnemoYoga(services, shutdown.signal, options.trustedDocuments);
  const { metricsToken, worker } = options;
  const metrics = options.metrics ?? services.metrics;
  const sockets = new Set<Socket>();
  let state: 'starting' | 'ready' | 'draining' = 'starting';
  const inFlight = new Set<ServerResponse>();
  const turns = requestTurns({ waited: (ms) => services.metrics.observeTurnWait(ms) });
  const mcp = createMcpHandler(services, { boundAddress: () => (server.address() as AddressInfo | null)?.address });
  const server = createServer((req, res) => {
    const requestScope = scopeRequest(services.logger, req, res);
    if (worker) res.setHeader('mnemo-worker', worker);
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A kept-alive connection that just finished its last request is idle now: close it while draining.
      if (state === 'draining') server.closeIdleConnections();
    });
    if (state === 'draining') closeAfter(res);
    // Some request targets ("//", "//[") are not URLs at all; an uncaught throw here would crash the process.
    const url = URL.parse(req.url ?? '/', 'http://mnemo');
    if (!url) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('bad request target');
    }
    if (url.pathname === '/healthz') return void healthz(services, res);
    if (url.pathname === '/readyz') return sendJson(res, state === 'ready' ? 200 : 503, { status: state });
    if (url.pathname === '/metrics' && metricsToken) {
      if (metricsTokenAccepted(metricsToken, req.headers.authorization)) return void sendMetrics(metrics, req, res);
      res.writeHead(401, { 'www-authenticate': 'Bearer' });
      return void res.end();
    }
    if (url.pathname === '/mcp') return turns.serve(res, () => mcp(req, res, requestScope));
    if (url.pathname === BUNDLE_PATH) return turns.serve(res, () => sendBundle(services, req, res, url, requestScope));
    if (url.pathname === '/') return redirect(res, '/admin/');
    if (url.pathname === '/admin' || url.pathname.startsWith('/admin/')) return serveAdmin(url.pathname, req, res);
    return turns.serve(res, () => yoga.handle(req, res, { requestScope }));
  });
  // Gateways keep connections open between chat requests; outlive common proxy idle timeouts (60 s).
  server.keepAliveTimeout = 65_000;
  // Long-lived SSE responses would keep close() waiting forever: track sockets to end them.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const webSocket = attachGraphQLWebSocket(server, yoga, services, options.trustedDocuments ?? null, turns);

  return {
    yoga,
    server,
    listen: (port, host) => listen(server, port, host),
    markReady: () => {
      if (state === 'starting') state = 'ready';
    },
    drain: async (timeoutMs) => {
      // Responses in flight keep their connection's keep-alive: a request already sent on it (a probe, say)
      // is answered while draining, with connection: close, and the connection closes once idle.
      state = 'draining';
      shutdown.abort();
      // The aborted subscriptions send their complete message first; then WebSockets close with 1001.
      await new Promise(setImmediate);
      await webSocket.close();
      if (!server.listening) return { cut: 0 };
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let deadline: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (deadline = setTimeout(() => resolve('late'), timeoutMs)));
      const outcome = await Promise.race([closed, late]);
      clearTimeout(deadline);
      if (outcome !== 'late') return { cut: 0 };
      const cut = inFlight.size;
      for (const socket of sockets) socket.destroy();
      await closed;
      return { cut };
    },
    close: () =>
      new Promise((resolve) => {
        shutdown.abort();
        void webSocket.close();
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** The connection closes once this response is sent, unless its headers went out already. */
function closeAfter(res: ServerResponse) {
  if (res.headersSent) return;
  res.shouldKeepAlive = false;
  res.setHeader('connection', 'close');
}

/** Starts listening; rejects with the listen error (EADDRINUSE, EACCES) instead of emitting it. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** What to tell the user when a listener could not start for want of its port; undefined for other errors. */
export function listenRefusal(error: unknown, host: string, port: { number: number; setting: string }): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `mnemo: port ${port.number} on ${host} is already in use; pick another with ${port.setting}\n`;
  if (code === 'EACCES') return `mnemo: not allowed to listen on ${host}:${port.number}\n`;
  return undefined;
}

async function healthz(services: Services, res: ServerResponse) {
  try {
    await ping(services.db);
    sendJson(res, 200, { status: 'ok' });
  } catch {
    sendJson(res, 503, { status: 'unavailable', reason: 'database' });
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(302, { location });
  res.end();
}
