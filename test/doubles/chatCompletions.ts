import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { checkAuth, openAiError, type RecordedRequest, readBody, recorded, send } from './modelApi.ts';

/**
 * A test double of OpenAI's Chat Completions API, `POST /v1/chat/completions`, on 127.0.0.1 at a free port. It checks
 * what the service checks and the client depends on (bearer auth with OpenAI's 401 body; 400 for a missing model, an
 * empty or malformed messages list, or a response_format json_schema without a name or schema) and answers in the
 * service's shape: choices[0].message.content with usage.prompt_tokens and completion_tokens, counted in cl100k_base.
 * What the model says is scripted: each request takes the next scripted reply, and `{"facts": []}` when none is left.
 */
export interface ChatCompletionsDouble {
  /** API root to configure clients with, e.g. http://127.0.0.1:PORT/v1. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Every request received, in order, including rejected ones. */
  readonly requests: RecordedRequest[];
  /** Queues replies for the next requests, in order. */
  script(...replies: Reply[]): void;
  /** Resolves once `count` requests have arrived in all: a test can act while one is held, without guessing a delay. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export type Reply =
  /** The model's message content, as the model wrote it (any text: the client must check it). */
  | { kind: 'content'; content: string }
  /** Never answers; the connection stays open until the client gives up or the double closes. */
  | { kind: 'hang' }
  /** An error status with OpenAI's error body. */
  | { kind: 'status'; status: number; message: string }
  /** Exactly this body with status 200, for envelopes no real service sends. */
  | { kind: 'raw'; body: string };

/** The model's content for a list of facts, as the extraction schema asks for them. */
export const factsAnswer = (...facts: Record<string, unknown>[]): Reply => ({ kind: 'content', content: JSON.stringify({ facts }) });

export async function startChatCompletions(options: { apiKey?: string } = {}): Promise<ChatCompletionsDouble> {
  const apiKey = options.apiKey ?? 'sk-test-chat-key';
  const requests: RecordedRequest[] = [];
  const replies: Reply[] = [];
  const waiting: { count: number; resolve(): void }[] = [];

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const request = recorded(req, raw);
      requests.push(request);
      const { path, body } = request;
      for (const w of waiting.filter((w) => requests.length >= w.count)) w.resolve();
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return send(res, 404, openAiError(`Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error', 'unknown_url'));
      }
      const authError = checkAuth(req.headers.authorization, apiKey);
      if (authError) return send(res, 401, authError);
      const invalid = requestError(body);
      if (invalid) return send(res, 400, openAiError(invalid.message, 'invalid_request_error', null, invalid.param));
      const reply = replies.shift() ?? { kind: 'content', content: '{"facts":[]}' };
      switch (reply.kind) {
        case 'hang':
          return;
        case 'status':
          return send(res, reply.status, openAiError(reply.message, 'server_error', null));
        case 'raw':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(reply.body);
        case 'content': {
          const request = body as ChatRequestBody;
          return send(res, 200, {
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, finish_reason: 'stop' }],
            usage: {
              prompt_tokens: request.messages.reduce((sum, m) => sum + countCl100k(m.content) + 4, 3),
              completion_tokens: countCl100k(reply.content),
              total_tokens: 0,
            },
          });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    script: (...more) => replies.push(...more),
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
}

/** What OpenAI refuses with a 400, among what the client sends. */
function requestError(body: unknown): { message: string; param: string } | null {
  if (typeof body !== 'object' || body === null) return { message: 'We could not parse the JSON body of your request.', param: 'body' };
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return { message: 'you must provide a model parameter', param: 'model' };
  const messages = b.messages;
  if (!Array.isArray(messages) || messages.length === 0) return { message: "'messages' must contain at least 1 item.", param: 'messages' };
  for (const [i, m] of messages.entries()) {
    const ok =
      typeof m === 'object' && m !== null && ['system', 'user', 'assistant', 'developer'].includes(m.role) && typeof m.content === 'string';
    if (!ok) return { message: `Invalid value for 'messages[${i}]'.`, param: `messages[${i}]` };
  }
  const format = b.response_format as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown } } | undefined;
  if (format !== undefined && format.type === 'json_schema') {
    if (typeof format.json_schema?.name !== 'string')
      return { message: "Missing required parameter: 'response_format.json_schema.name'.", param: 'response_format.json_schema.name' };
    if (typeof format.json_schema.schema !== 'object')
      return { message: "Invalid type for 'response_format.json_schema.schema'.", param: 'response_format.json_schema.schema' };
  }
  return null;
}
