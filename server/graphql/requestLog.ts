import { type ExecutionResult, GraphQLError } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { loggedFailure } from '../db/storeErrors.ts';
import type { Logger } from '../logger.ts';
import { clientErrorMessage } from '../redact.ts';
import { createRequestScope, type RequestScope, requestIdOf } from '../requestScope.ts';

/** What the node adapter (and app.ts) hand to yoga with each request. */
export interface MnemoServerContext {
  requestScope?: RequestScope;
}

/** Masked errors → what was masked: logged by the request that got the masked one. */
const unexpectedCauses = new WeakMap<GraphQLError, unknown>();

/**
 * Called by the error mapping when it masks an error, so the request's log shows what it was: a bug with its stack, a
 * storage fault (told to the client as STORAGE_FULL, say) with the store's own code and message.
 */
export function noteUnexpected(masked: GraphQLError, cause: unknown) {
  unexpectedCauses.set(masked, cause);
}

/**
 * A caller's own mistakes: logged at info. Besides these codes, any error that answers with a 4xx status: yoga
 * and its plugins refuse a malformed request that way (no operation named among several, a hash that is not in
 * the trusted documents, a mutation sent by GET), each under a code of its own.
 */
const CLIENT_MISTAKES = new Set(['BAD_USER_INPUT', 'NOT_FOUND', 'BAD_REQUEST', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
/** Refusals an operator may want to notice (no or a wrong token, another key's data, CSRF, huge bodies) and dependencies down: warn. */
const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'REQUEST_ENTITY_TOO_LARGE', 'UNAVAILABLE']);
const REFUSAL_STATUSES = new Set([401, 403, 413]);
/** Errors listed per log line; the rest are counted. */
const LISTED = 5;

type Level = 'info' | 'warn' | 'error';

function levelOf(error: GraphQLError): Level {
  const code = error.extensions?.code;
  const status = (error.extensions?.http as { status?: number } | undefined)?.status;
  if (typeof status === 'number' && REFUSAL_STATUSES.has(status)) return 'warn';
  if (typeof code === 'string' && REFUSALS.has(code)) return 'warn';
  if (typeof code === 'string' && CLIENT_MISTAKES.has(code)) return 'info';
  if (typeof status === 'number' && status >= 400 && status < 500) return 'info';
  return 'error';
}

const RANK: Record<Level, number> = { info: 0, warn: 1, error: 2 };

/**
 * The request's scope for GraphQL: the one app.ts opened for this HTTP request, or a new one for callers of
 * yoga.fetch (its id from their x-request-id). Each error of the result goes out with its message redacted and
 * any value it repeats back cut short (clientErrorMessage: a 10 MB argument never comes back as a 10 MB error)
 * and the request id in its extensions, so a caller can quote it; it is logged with the request's logger
 * (expected ones at info or warn, one line without stacks; unexpected ones at error with the masked error's stack).
 */
export function useRequestLog(logger: Logger): Plugin<Record<string, unknown>, MnemoServerContext> {
  return {
    onRequest({ request, serverContext }) {
      serverContext.requestScope ??= createRequestScope(logger, requestIdOf(request.headers.get('x-request-id')));
    },
    onResultProcess({ result, setResult, serverContext }) {
      const scope = (serverContext as MnemoServerContext).requestScope;
      if (!scope) return;
      if (Array.isArray(result)) setResult(result.map((r) => reported(r, scope)));
      else setResult(reportedResult(result as ExecutionResult | AsyncIterable<ExecutionResult>, scope));
    },
  };
}

/** A result (or each result of a stream) as it goes out, its errors logged with the request: for transports besides HTTP. */
export function reportedResult<R extends ExecutionResult | AsyncIterable<ExecutionResult>>(result: R, scope: RequestScope): R {
  if (isAsyncIterable(result)) return mapAsyncIterator(result, (item: ExecutionResult) => reported(item, scope)) as unknown as R;
  return reported(result as ExecutionResult, scope) as R;
}

function reported(result: ExecutionResult, scope: RequestScope): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => forClient(e, scope.id));
  logErrors(result.errors, errors, scope);
  return { ...result, errors };
}

/**
 * `masked`: the errors as the mapping left them (unexpected ones are known by these); `sent`: as they go out. A storage
 * fault is the environment's, not a bug: it is listed with the expected errors, without a stack, at error (its code is
 * none of the milder ones) since an operator must act (free space, check the disk), and with what the store said.
 */
function logErrors(masked: readonly GraphQLError[], sent: readonly GraphQLError[], scope: RequestScope) {
  const expected: { error: GraphQLError; store?: unknown }[] = [];
  for (const [i, error] of masked.entries()) {
    const failure = unexpectedCauses.has(error) ? loggedFailure(unexpectedCauses.get(error)) : null;
    if (failure && 'err' in failure) scope.log.error({ err: failure.err, path: error.path?.join('.') }, 'unexpected error');
    else expected.push({ error: sent[i]!, ...(failure && { store: failure.fault }) });
  }
  if (expected.length === 0) return;
  const level = expected.map((e) => levelOf(e.error)).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
  const listed = expected.slice(0, LISTED).map(({ error: e, store }) => ({
    code: e.extensions?.code ?? null,
    path: e.path?.join('.'),
    message: e.message,
    ...(store !== undefined && { store }),
  }));
  scope.log[level]({ errors: listed, ...(expected.length > LISTED && { more: expected.length - LISTED }) }, 'request answered with errors');
}

function forClient(error: GraphQLError, requestId: string): GraphQLError {
  return new GraphQLError(clientErrorMessage(error.message), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, requestId },
  });
}
