import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { bearerToken } from '../auth/accessToken.service.ts';
import { createRequestScope, type RequestScope, requestIdOf } from '../requestScope.ts';
import type { RequestTurns } from '../requestTurns.ts';
import type { Services } from '../services.ts';
import { MAX_REQUEST_BODY_BYTES } from './bodyLimit.ts';
import type { Context } from './context.ts';
import { reportedResult } from './requestLog.ts';
import type { TrustedDocuments } from './trustedDocuments.ts';
import type { MnemoYoga } from './yoga.ts';

/** How often a connection is pinged (graphql-ws's own adapter uses the same). */
const KEEP_ALIVE_MS = 12_000;

export interface GraphQLWebSocket {
  /** Closes every WebSocket with 1001 (going away) and stops accepting new ones; again, the same promise. */
  close(): Promise<void>;
}

/**
 * GraphQL over WebSocket (the graphql-ws protocol) on the HTTP server's /graphql path, next to yoga's SSE.
 * Every operation runs through yoga's own envelop (getEnveloped, as in graphql-yoga's graphql-ws example): the
 * same context factory (so the same bearer-token check, tenancy and error masking), the same parse and
 * validate (so the same depth, alias, token and cost limits) and the same end of streams at shutdown. Not
 * the per-operation metrics: those hook yoga's HTTP request cycle (operationSummary.ts), which a WebSocket
 * message does not go through.
 *
 * The token comes from the connection_init payload (`{ authorization: "Bearer <token>" }`) or, failing that,
 * from the upgrade request's Authorization header; it is checked at connection and again for each operation,
 * so a token revoked mid-connection stops working at its next subscribe. Queries, mutations and subscriptions
 * all run. No check of the Origin stands in for HTTP's CSRF prevention: a page of another site can open a
 * socket, but a browser adds no credential mnemo takes (no cookie; it cannot set an Authorization header on a
 * WebSocket), so without the token itself the socket is closed at connection_init.
 */
export function attachGraphQLWebSocket(
  server: Server,
  yoga: MnemoYoga,
  services: Services,
  trusted: TrustedDocuments | null,
  turns: RequestTurns,
): GraphQLWebSocket {
  // Not `{ server }`: ws would then re-emit the HTTP server's own errors (a port already in use); those are the server's
  // to report, and it does.
  const wss = new WebSocketServer({ noServer: true, path: yoga.graphqlEndpoint, maxPayload: MAX_REQUEST_BODY_BYTES, handleProtocols });
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, request));
  server.on('upgrade', upgrade);
  const authorizationOf = (ctx: {
    connectionParams?: Readonly<Record<string, unknown>>;
    extra: { request: { headers: { authorization?: string } } };
  }) => {
    const fromPayload = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
    return typeof fromPayload === 'string' ? fromPayload : (ctx.extra.request.headers.authorization ?? '');
  };
  const graphqlWs = makeServer<Record<string, unknown> | undefined, Extra>({
    onConnect: async (ctx) => {
      const token = bearerToken(authorizationOf(ctx));
      // false closes the socket with 4403 Forbidden, graphql-ws's answer to a refused connection_init.
      return token ? (await services.tokens.authenticate(token)) !== null : false;
    },
    onSubscribe: async (ctx, _id, params) => {
      const authorization = authorizationOf(ctx);
      // yoga's context factory reads the token from a fetch Request, as for HTTP. A POST, as a message is: yoga refuses
      // mutations sent by GET (a link or an <img> must not write), and a WebSocket operation is no such thing.
      const request = new Request(`http://mnemo${yoga.graphqlEndpoint}`, { method: 'POST', headers: { authorization } });
      // Each operation is a request of its own for the logs: its id, its lines, its errors at their level.
      const requestScope = createRequestScope(services.logger, requestIdOf(ctx.extra.request.headers['x-request-id']));
      const enveloped = yoga.getEnveloped({ request, params, requestScope });
      try {
        // yoga types the merged context as a spread of every layer; ours is what the context factory returned.
        const contextValue = (await enveloped.contextFactory()) as unknown as Context;
        const query = trusted ? trusted.admit(params, contextValue.viewer.role === 'admin') : params.query;
        const document = enveloped.parse(query);
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return refusal(errors, requestScope);
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue,
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe, requestScope } satisfies Root,
        };
        return args;
      } catch (error) {
        if (error instanceof GraphQLError) return refusal([error], requestScope);
        throw error;
      }
    },
    execute: async (args) => {
      const root = args.rootValue as Root;
      // A query or mutation takes its turn with the HTTP requests (requestTurns.ts); a subscription's events are not
      // requests.
      await turns.take();
      return reportedResult(await root.execute(args), root.requestScope);
    },
    subscribe: async (args) => {
      const root = args.rootValue as Root;
      return reportedResult(await root.subscribe(args), root.requestScope);
    },
  });
  /** One connection, as graphql-ws's own ws adapter serves it, but with mnemo's logs instead of console.error. */
  function serveSocket(socket: WebSocket, request: IncomingMessage) {
    // What the client sent broke the protocol (a message over the size limit, a malformed frame) or the connection
    // failed: ws has closed the socket already, with the code that says which (1009 for a message too big).
    socket.on('error', (error: Error & { code?: string }) =>
      services.logger.warn({ code: error.code, reason: error.message }, 'a GraphQL WebSocket connection was closed on an error'),
    );
    // A connection that does not answer a ping by the next one is gone (a client that vanished without closing).
    let answered = true;
    socket.on('pong', () => {
      answered = true;
    });
    const heartbeat = setInterval(() => {
      if (!answered) return void socket.terminate();
      answered = false;
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = graphqlWs.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            try {
              // Cast: graphql-ws's parseMessage takes a parsed message as well as its text.
              await handle((trusted ? withQuery(String(data)) : String(data)) as string);
            } catch (error) {
              services.logger.error({ err: error }, 'a GraphQL WebSocket message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      clearInterval(heartbeat);
      void closed(code, String(reason));
    });
  }

  // Once: ws refuses to close a server twice (drain, then close).
  let closing: Promise<void> | null = null;
  return {
    close: () => {
      server.off('upgrade', upgrade);
      closing ??= new Promise<void>((resolve, reject) => {
        for (const client of wss.clients) client.close(1001, 'Going away');
        wss.close((error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}

/**
 * Errors that refuse an operation before it runs (a revoked token, an untrusted document, a failed validation), as
 * HTTP answers them: logged with the operation's request at their level, each with its request id, and without the
 * HTTP status and headers yoga attaches for its own responses, which mean nothing on a socket.
 */
function refusal(errors: readonly GraphQLError[], scope: RequestScope): GraphQLError[] {
  return (reportedResult({ errors }, scope).errors ?? []).map((error) => {
    const { http: _http, ...extensions } = error.extensions;
    const { nodes, source, positions, path, originalError } = error;
    return new GraphQLError(error.message, { nodes, source, positions, path, originalError, extensions });
  });
}

/**
 * A message, parsed, and if it is a subscribe without `query` (an operation named by its hash alone: `documentId` or
 * `extensions.persistedQuery`, as HTTP takes it), given an empty one: graphql-ws requires the field and would close the
 * socket (4400) without it, while the trusted documents look the hash up when the query is empty. Parsed here once,
 * not again by graphql-ws; text that is not JSON goes on as it is, for graphql-ws to refuse.
 */
function withQuery(text: string): unknown {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(message) || message.type !== 'subscribe' || !isRecord(message.payload) || message.payload.query != null) return message;
  return { ...message, payload: { ...message.payload, query: '' } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What each operation's context carries besides the connection's params: the socket and its upgrade request. */
interface Extra {
  socket: WebSocket;
  request: IncomingMessage;
}

type Root = Pick<ReturnType<MnemoYoga['getEnveloped']>, 'execute' | 'subscribe'> & { requestScope: RequestScope };
