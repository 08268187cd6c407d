import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';
import { redactSecrets, shorten } from './redact.ts';

/** What the GraphQL layer tells the access line about a request: no variables, no query text. */
export interface GraphqlSummary {
  type: string | null;
  /** As the caller named it (cut to a short prefix). */
  operationName: string | null;
  /** Root fields by schema name, each with OK or its error code. */
  fields: { name: string; outcome: string }[];
}

/** One HTTP request, for the lines it logs: its id, its logger, and what the layers serving it learnt. */
export interface RequestScope {
  readonly id: string;
  /** The request's child logger: every line it writes carries `reqId`. */
  readonly log: Logger;
  /** The caller's token id ('env' for MNEMO_ADMIN_TOKEN) once authenticated: never the token. */
  tokenId: string | null;
  graphql: GraphqlSummary | null;
}

/** The token id the logs and the audit log use for MNEMO_ADMIN_TOKEN, which has no row of its own. */
export const ENV_ADMIN_TOKEN_ID = 'env';

// A proxy's or a client's id: UUIDs, ULIDs, hex, "Root=1-5e1b…" (AWS). Anything else is replaced, never echoed.
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:/+=@-]{0,127}$/;

/** The x-request-id a caller sent when it is sane (and does not look like a secret), else a new one. */
export function requestIdOf(header: string | string[] | null | undefined): string {
  const given = typeof header === 'string' ? header.trim() : null;
  return given && SANE_REQUEST_ID.test(given) && redactSecrets(given) === given ? given : randomUUID();
}

export function createRequestScope(logger: Logger, id: string): RequestScope {
  return { id, log: logger.child({ reqId: id }), tokenId: null, graphql: null };
}

/** Probes and scrapes come every few seconds: their access lines are written at debug, not info. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Opens the scope of a request the HTTP server received: its id goes back in the x-request-id header, and one
 * access line is written when the response is done (or the connection closed before it was).
 */
export function scopeRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): RequestScope {
  const scope = createRequestScope(logger, requestIdOf(req.headers['x-request-id']));
  res.setHeader('x-request-id', scope.id);
  const started = performance.now();
  const contentLength = Number(req.headers['content-length']);
  // Kept: once the connection is gone, req.socket is null by the time the response closes.
  const socket = req.socket;
  const bytesBefore = socket.bytesWritten;
  res.once('close', () => {
    const path = shorten((req.url ?? '/').split('?')[0]!, 200);
    const level = QUIET_PATHS.has(path) ? 'debug' : 'info';
    // Built only when written: a server logging at warn pays nothing for it.
    if (!scope.log.isLevelEnabled(level)) return;
    const line = {
      method: req.method,
      path,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 100) / 100,
      // The body as announced: chunked bodies are not counted.
      bytesIn: Number.isFinite(contentLength) ? contentLength : null,
      bytesOut: socket.bytesWritten - bytesBefore,
      tokenId: scope.tokenId,
      ...(scope.graphql && {
        operation: scope.graphql.type,
        operationName: scope.graphql.operationName && shorten(scope.graphql.operationName, 64),
        fields: scope.graphql.fields.map((f) => f.name),
        outcomes: scope.graphql.fields.map((f) => f.outcome),
      }),
      ...(!res.writableFinished && { aborted: true }),
    };
    scope.log[level](line, 'request');
  });
  return scope;
}
