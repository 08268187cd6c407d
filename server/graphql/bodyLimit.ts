import { IncomingMessage } from 'node:http';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { LIMITS } from '../validation.ts';

/** The largest request body accepted, in bytes (shared with /mcp). */
export const MAX_REQUEST_BODY_BYTES = LIMITS.requestBodyBytes;

// Only a single non-negative integer is a valid Content-Length: anything else (comma-joined duplicates, as in
// request-smuggling attempts, signs, spaces) is refused rather than allowed to skip the check.
const CONTENT_LENGTH = /^\d+$/;

const tooLarge = () =>
  createGraphQLError('Request body too large', { extensions: { http: { status: 413 }, code: 'REQUEST_ENTITY_TOO_LARGE' } });
const badContentLength = () =>
  createGraphQLError('Content-Length header is invalid.', { extensions: { http: { status: 400 }, code: 'BAD_REQUEST' } });

/**
 * yoga's request body limit (its built-in maxRequestBodySize, switched off in createMnemoYoga for this one)
 * with the same checks and errors, minus its cost where the transport already enforces the limit.
 *
 * yoga refuses a Content-Length that is malformed or over the limit, then pipes every body through a counting
 * TransformStream in a new Request, for bodies whose length it cannot trust (chunked, or a Content-Length that
 * lies). That stream costs ~0.3-0.5 ms per request on Node 20 (stream pipeline, AbortController, a
 * DOMException per finished pipe): a fifth of what GraphQL over HTTP adds to `retrieve`. A body that Node's
 * HTTP server received with a valid Content-Length and no Transfer-Encoding cannot be longer than that header
 * says: llhttp frames the body by it (bytes beyond it start the next request, and a request with both
 * headers is refused). Only those skip the stream; every other body (chunked uploads, yoga.fetch callers
 * in-process) is counted as yoga counts it.
 */
export function useRequestBodyLimit(limit: number = MAX_REQUEST_BODY_BYTES): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, serverContext, fetchAPI }) {
      const contentLength = request.headers.get('content-length');
      if (contentLength !== null) {
        if (!CONTENT_LENGTH.test(contentLength)) throw badContentLength();
        if (Number(contentLength) > limit) throw tooLarge();
        if (framedByNode(serverContext, contentLength)) return;
      }
      if (requestParser == null || request.body == null) return;
      setRequestParser((req) => requestParser(limitBody(req, limit, fetchAPI)));
    },
  };
}

/** Whether the body came through Node's HTTP parser, framed by exactly this Content-Length. */
function framedByNode(serverContext: unknown, contentLength: string): boolean {
  const req = (serverContext as { req?: unknown } | undefined)?.req;
  return (
    req instanceof IncomingMessage && req.headers['content-length'] === contentLength && req.headers['transfer-encoding'] === undefined
  );
}

/** yoga's limitRequestBodySize: the body through a stream that fails once more than `limit` bytes went by. */
function limitBody(
  request: Request,
  limit: number,
  fetchAPI: { Request: typeof Request; TransformStream: typeof TransformStream },
): Request {
  const body = request.body;
  if (!body) return request;
  // A native Request's body (a caller's own fetch API) only pipes through a native TransformStream.
  const Transform = body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let bytesRead = 0;
  const limited = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        if (bytesRead > limit) return controller.error(tooLarge());
        controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: limited,
    duplex: 'half',
  } as RequestInit);
}
