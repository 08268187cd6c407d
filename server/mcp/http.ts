import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { bearerToken, unauthenticatedMessage } from '../auth/accessToken.service.ts';
import { ENV_ADMIN_TOKEN_ID, type RequestScope } from '../requestScope.ts';
import type { Services } from '../services.ts';
import { LIMITS } from '../validation.ts';
import { createMcpServer } from './server.ts';

export interface McpHttpOptions {
  /** The address the server is bound to: DNS-rebinding protection applies when it is a loopback address. */
  boundAddress(): string | undefined;
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST carries its bearer token and is answered on its own
 * (JSON, no session, no SSE stream), by a server made for that caller. A revoked token is refused on its next
 * request, any mnemo process can answer any request, and there is no per-session state to hold or lose.
 */
export function createMcpHandler(services: Services, options: McpHttpOptions) {
  const answer = async (req: IncomingMessage, res: ServerResponse, scope: RequestScope): Promise<void> => {
    const bound = options.boundAddress();
    const rebinding = bound !== undefined && isLoopback(bound) ? foreignCaller(req) : null;
    if (rebinding) return sendRpcError(res, 403, rebinding);
    const token = bearerToken(req.headers.authorization);
    const viewer = token ? await services.tokens.authenticate(token) : null;
    if (!viewer) {
      const challenge = token ? 'Bearer realm="mnemo", error="invalid_token"' : 'Bearer realm="mnemo"';
      return sendRpcError(res, 401, unauthenticatedMessage(token), { 'www-authenticate': challenge });
    }
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream to GET and no session to DELETE (the specification's answer is 405).
      return sendRpcError(res, 405, 'this MCP endpoint is stateless: send each JSON-RPC message as a POST', { allow: 'POST' });
    }
    const read = await readJsonBody(req, LIMITS.requestBodyBytes);
    if ('refused' in read) return sendRpcError(res, read.refused.status, read.refused.message, { connection: 'close' }, read.refused.code);
    scope.tokenId = viewer.tokenId ?? ENV_ADMIN_TOKEN_ID;
    const server = createMcpServer({ viewer, services, requestId: scope.id, log: scope.log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // A caller that hangs up before its answer aborts the call. An answered request leaves nothing open: closing the
    // server then would only build the SDK's "connection closed" error for handlers that no longer wait.
    res.once('close', () => {
      if (!res.writableFinished) void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, read.body);
  };
  return (req: IncomingMessage, res: ServerResponse, scope: RequestScope): Promise<void> =>
    answer(req, res, scope).catch((err: unknown) => {
      // A caller that hung up while sending its request is no fault of mnemo's, and there is no one to answer.
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      scope.log.error({ err }, 'unexpected error');
      if (res.headersSent) res.destroy();
      else sendRpcError(res, 500, 'Unexpected error.');
    });
}

/**
 * Why a request to a server on a loopback address may come from a web page that a rebound DNS name points here,
 * or null when it may not. A browser sends the page's Host and Origin: both must name this machine.
 */
function foreignCaller(req: IncomingMessage): string | null {
  const host = hostnameOf(`http://${req.headers.host ?? ''}`);
  if (host === null || !isLoopback(host)) return `the Host header must name this machine (localhost), not ${req.headers.host ?? 'nothing'}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  const originHost = hostnameOf(origin);
  if (originHost === null || !isLoopback(originHost)) return `requests from the web origin ${origin} are not accepted`;
  return null;
}

function hostnameOf(url: string): string | null {
  const parsed = URL.parse(url);
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.hostname : null;
}

/** Whether an address or host name (IPv6 in brackets or not) is this machine's loopback. */
function isLoopback(name: string): boolean {
  const address = name.replace(/^\[(.*)\]$/, '$1');
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

type BodyRead = { body: unknown } | { refused: { status: number; code: number; message: string } };

/**
 * The request's JSON body, read from Node's stream and handed to the transport parsed. Read by the transport, it goes
 * through a web stream: the costliest step of the transport's own work per request on Node 20, as graphql/bodyLimit.ts
 * found for yoga. Refused as the transport refuses it: 413 over the limit (LIMITS.requestBodyBytes, as for GraphQL),
 * -32700 when it is not JSON.
 */
function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const tooLarge: BodyRead = {
    refused: { status: 413, code: -32000, message: `Payload Too Large: Request body must not exceed ${limit} bytes` },
  };
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Answered at once (a promise settles once); the rest of the body is dropped as it comes.
      chunks.length = 0;
      resolve(tooLarge);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > limit) return;
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ refused: { status: 400, code: -32700, message: 'Parse error: Invalid JSON' } });
      }
    });
  });
}

/** A refusal before any MCP message is handled, as a JSON-RPC error without an id (as the SDK's transport answers). */
function sendRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
