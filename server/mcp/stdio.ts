import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { unauthenticatedMessage } from '../auth/accessToken.service.ts';
import { type ToolErrorCode, toolError } from './tool.ts';

const DEFAULT_MNEMO_URL = 'http://127.0.0.1:4000';

export interface StdioIo {
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  /** Protocol frames, and nothing else. */
  stdout: { write(text: string): unknown };
  /** Everything for a person: why the bridge cannot start, what went wrong with a request. */
  stderr: { write(text: string): unknown };
}

/** sysexits(3) codes of the command: 64 usage, 69 the server cannot be used, 77 the token is refused. */
export interface StdioExitCodes {
  usage: number;
  unavailable: number;
  noPerm: number;
}

/**
 * `mnemo mcp`: MCP over stdio for clients that launch a process, bridged to a running mnemo's /mcp (MNEMO_URL,
 * MNEMO_TOKEN), so that one server process stays the only writer of the database and every rule is applied there.
 * Checks first that the server answers and accepts the token; then relays frames until stdin ends.
 */
export async function runStdioBridge(io: StdioIo, exit: StdioExitCodes): Promise<number> {
  const fail = (code: number, message: string) => {
    io.stderr.write(`mnemo: ${message}\n`);
    return code;
  };
  const token = io.env.MNEMO_TOKEN?.trim();
  if (!token) return fail(exit.usage, 'mcp needs MNEMO_TOKEN: an access token of the running server (mnemo token create)');
  const base = URL.parse(io.env.MNEMO_URL || DEFAULT_MNEMO_URL);
  if (!base || (base.protocol !== 'http:' && base.protocol !== 'https:')) {
    return fail(exit.usage, `MNEMO_URL must be the http(s) address of a running mnemo, not "${io.env.MNEMO_URL}"`);
  }
  const endpoint = new URL(`${base.pathname.replace(/\/+$/, '')}/mcp`, base);
  const refusal = await probe(endpoint, token);
  if (refusal) return fail(refusal.reason === 'token' ? exit.noPerm : exit.unavailable, refusal.message);
  await relay(endpoint, token, io);
  return 0;
}

/** What an HTTP refusal of a relayed message means to the model that sent it. */
const HTTP_REFUSALS: Record<number, ToolErrorCode> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 413: 'BAD_USER_INPUT' };

type Refusal = { reason: 'token' | 'server'; message: string };

/** A ping to /mcp: null when mnemo answers it with this token, else why not. */
async function probe(endpoint: URL, token: string): Promise<Refusal | null> {
  let response: Response;
  try {
    response = await post(endpoint, token, { jsonrpc: '2.0', id: 'mnemo-mcp-probe', method: 'ping' }, null, AbortSignal.timeout(10_000));
  } catch (error) {
    return {
      reason: 'server',
      message: `cannot reach mnemo at ${endpoint.origin} (${networkError(error)}); is "mnemo serve" running there? MNEMO_URL sets the address`,
    };
  }
  const body = await response.text();
  if (response.status === 401)
    return { reason: 'token', message: `${endpoint.origin} refused MNEMO_TOKEN: ${serverMessage(body, unauthenticatedMessage(token))}` };
  if (!response.ok) {
    return {
      reason: 'server',
      message: `${endpoint.href} answered HTTP ${response.status} (${serverMessage(body, 'no MCP endpoint there')}); is it mnemo?`,
    };
  }
  return null;
}

/** Relays frames both ways until stdin ends, then waits for the answers still on their way. */
async function relay(endpoint: URL, token: string, io: StdioIo): Promise<void> {
  const frames = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      io.stdout.write(chunk.toString('utf8'));
      done();
    },
  });
  const stdio = new StdioServerTransport(io.stdin, frames);
  const inFlight = new Set<Promise<void>>();
  let protocolVersion: string | null = null;
  const forward = async (message: JSONRPCMessage) => {
    const request = isJSONRPCRequest(message) ? message : null;
    let response: Response;
    try {
      response = await post(endpoint, token, message, protocolVersion);
    } catch (error) {
      if (request) await stdio.send(failure(request, 'UNAVAILABLE', `cannot reach mnemo at ${endpoint.origin} (${networkError(error)})`));
      return;
    }
    const body = await response.text();
    if (!response.ok) {
      const code = HTTP_REFUSALS[response.status] ?? 'UNAVAILABLE';
      const message = serverMessage(body, `HTTP ${response.status}`);
      io.stderr.write(`mnemo: ${endpoint.origin} answered HTTP ${response.status}: ${message}\n`);
      if (request) await stdio.send(failure(request, code, message));
      return;
    }
    if (body === '') return;
    const answers = parseAnswers(body);
    if (answers === null) {
      if (request) await stdio.send(failure(request, 'UNAVAILABLE', `${endpoint.href} did not answer with JSON-RPC`));
      return;
    }
    for (const answer of answers) {
      if (request?.method === 'initialize' && 'result' in answer) protocolVersion = String(answer.result.protocolVersion);
      await stdio.send(answer);
    }
  };
  stdio.onmessage = (message) => {
    const sent = forward(message).catch((error: unknown) => {
      io.stderr.write(`mnemo: relaying a message failed: ${String(error)}\n`);
    });
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };
  stdio.onerror = (error) => io.stderr.write(`mnemo: ${error.message}\n`);
  const ended = new Promise<void>((resolve) => {
    io.stdin.once('end', resolve);
    io.stdin.once('close', resolve);
  });
  await stdio.start();
  await ended;
  await Promise.all(inFlight);
  await stdio.close();
}

function post(endpoint: URL, token: string, message: unknown, protocolVersion: string | null, signal?: AbortSignal) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
    },
    body: JSON.stringify(message),
    signal,
  });
}

/** The answer to a request the server could not take: a tool error for a tool call (so the model reads it), else a JSON-RPC error. */
function failure(request: JSONRPCRequest, code: ToolErrorCode, message: string): JSONRPCMessage {
  if (request.method === 'tools/call') return { jsonrpc: '2.0', id: request.id, result: toolError(code, message) };
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: `${code}: ${message}` } };
}

function parseAnswers(body: string): JSONRPCMessage[] | null {
  try {
    return [JSON.parse(body) as JSONRPCMessage | JSONRPCMessage[]].flat();
  } catch {
    return null;
  }
}

/** The message of the JSON-RPC error the server answered with, when it did. */
function serverMessage(body: string, fallback: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message : fallback;
  } catch {
    return fallback;
  }
}

function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
