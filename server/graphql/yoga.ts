import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import { createGraphQLError, createYoga } from 'graphql-yoga';
import { bearerToken, unauthenticatedMessage } from '../auth/accessToken.service.ts';
import { storageFault } from '../db/storeErrors.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { ENV_ADMIN_TOKEN_ID } from '../requestScope.ts';
import type { Services } from '../services.ts';
import { MAX_REQUEST_BODY_BYTES, useRequestBodyLimit } from './bodyLimit.ts';
import type { Context } from './context.ts';
import { useEndStreamsOn } from './endStreams.ts';
import { useOperationSummary } from './operationSummary.ts';
import { type MnemoServerContext, noteUnexpected, useRequestLog } from './requestLog.ts';
import { schema } from './schema.ts';
import { type TrustedDocuments, useTrustedDocuments } from './trustedDocuments.ts';
import { useWellFormedVariables } from './wellFormed.ts';

export type MnemoYoga = ReturnType<typeof createMnemoYoga>;

/** The GraphQL endpoint: authentication, error mapping and query limits around the Pothos schema. */
export function createMnemoYoga(
  services: Services,
  shutdown: AbortSignal = new AbortController().signal,
  trusted: TrustedDocuments | null = null,
) {
  const isAdminRequest = async (request: Request) => {
    const token = bearerToken(request.headers.get('authorization'));
    return token !== undefined && (await services.tokens.authenticate(token))?.role === 'admin';
  };
  return createYoga<MnemoServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: yogaLogging(services.logger),
    // Enforced by useRequestBodyLimit below: the same limit and checks, without a counting stream per request
    // where Node's HTTP parser already bounds the body.
    maxRequestBodySize: false,
    context: async ({ request, requestScope }) => {
      const token = bearerToken(request.headers.get('authorization'));
      const viewer = token ? await services.tokens.authenticate(token) : null;
      if (!viewer) {
        throw createGraphQLError(unauthenticatedMessage(token), {
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: { 'www-authenticate': 'Bearer' } } },
        });
      }
      // Set by useRequestLog's onRequest for every request.
      const scope = requestScope!;
      scope.tokenId = viewer.tokenId ?? ENV_ADMIN_TOKEN_ID;
      return { viewer, services, requestId: scope.id, log: scope.log };
    },
    maskedErrors: { maskError: (error) => toClientError(error) },
    plugins: [
      useRequestLog(services.logger),
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'authorization'] }),
      maxDepthPlugin({ n: 10, exposeLimits: true }),
      maxAliasesPlugin({ n: 20, exposeLimits: true }),
      maxTokensPlugin({ n: 2000, exposeLimits: true }),
      costLimitPlugin({ maxCost: 5000, exposeLimits: true }),
      // Last, where yoga puts its own limit: it wraps whichever request parser was chosen.
      useRequestBodyLimit(MAX_REQUEST_BODY_BYTES),
      useOperationSummary(schema, (summary, serverContext) => {
        services.metrics.observeOperation(summary);
        if (serverContext.requestScope) serverContext.requestScope.graphql = summary;
      }),
      useEndStreamsOn(shutdown),
      ...(trusted ? useTrustedDocuments(trusted, isAdminRequest) : []),
      useWellFormedVariables(),
    ],
  });
}

/**
 * yoga's own lines at their level, except its report of each error it masked: useRequestLog logs every error
 * of a request, with the request's id, at the level its kind deserves.
 */
function yogaLogging(logger: Logger) {
  return {
    debug: (...args: unknown[]) => logger.debug(args.map(String).join(' ')),
    info: (...args: unknown[]) => logger.info(args.map(String).join(' ')),
    warn: (...args: unknown[]) => logger.warn(args.map(String).join(' ')),
    error: () => {},
  };
}

/**
 * Expected errors (domain errors, GraphQL validation, bad scalars) reach the client with a code (useRequestLog
 * then redacts their messages and cuts what they repeat back); anything else is replaced by a generic message,
 * so no SQL or stack leaves the server (the request's log gets the original).
 */
function toClientError(error: unknown): Error {
  const graphqlError = error instanceof GraphQLError ? error : null;
  const original = graphqlError?.originalError ?? error;
  if (original instanceof DomainError) {
    return createGraphQLError(original.message, {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: { code: original.code },
    });
  }
  if (original instanceof GraphQLError) {
    // A bad variable (maxTokens: 1.5, a createdAt in row 3 of an import) arrives wrapped in an error that names
    // where it is ('at "memories[3].createdAt"'); the inner one alone names no place, and a built-in scalar's
    // carries no code. graphql-js's own request errors (a null for a non-null variable) are not wrapped, but have
    // no code or path either.
    if (graphqlError && !graphqlError.path && (graphqlError !== original || !original.extensions.code)) {
      return createGraphQLError(graphqlError.message, {
        nodes: graphqlError.nodes,
        extensions: { ...graphqlError.extensions, code: original.extensions.code ?? 'BAD_USER_INPUT' },
      });
    }
    return original;
  }
  if (graphqlError && !graphqlError.originalError) return graphqlError;
  const fault = storageFault(original);
  if (fault) {
    // Not a bug, and the caller must hear what it is (a full disk); the request's log gets the SQLite error.
    const coded = createGraphQLError(fault.message, {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: { code: fault.code },
    });
    noteUnexpected(coded, original);
    return coded;
  }
  const masked = createGraphQLError('Unexpected error.', {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
  noteUnexpected(masked, original);
  return masked;
}
