import { z } from 'zod';
import type { ProviderEndpoint } from '../embedding/provider.service.ts';
import { endpointUrl, parseProviderBody, postToProvider } from '../embedding/providerHttp.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** The JSON schema the answer must follow (sent as response_format json_schema, strict). */
  schema: { name: string; schema: Record<string, unknown> };
  /** Most tokens the model may write. */
  maxTokens: number;
  timeoutMs: number;
}

export interface ChatAnswer {
  /** choices[0].message.content, unparsed: the caller checks it against its own schema. */
  content: string;
  promptTokens: number;
  completionTokens: number;
}

export type ChatErrorKind = 'timeout' | 'request_failed' | 'bad_response' | 'no_key';

/** A failed chat completion, with a kind the caller counts; the message is redacted outside text. */
export class ChatError extends Error {
  constructor(
    readonly kind: ChatErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ChatError';
  }
}

/** The parts of an OpenAI Chat Completions answer that are used; a refusal or tool call has no string content. */
const answerSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string({ error: 'choices[0].message.content is not a string' }) }) }))
    .min(1, 'has no choices'),
  usage: z.object({ prompt_tokens: z.int().nonnegative(), completion_tokens: z.int().nonnegative() }, { error: 'has no usage' }),
});

/**
 * One call to an OpenAI-compatible `POST {baseUrl}/chat/completions` asking for JSON that follows a schema. Never
 * retries: its callers run in the background and would rather skip a turn than pay twice.
 */
export async function completeChat(endpoint: ProviderEndpoint, request: ChatRequest): Promise<ChatAnswer> {
  const apiKey = endpoint.apiKey?.trim() || null;
  if (apiKey === null && !endpoint.keyless) {
    throw new ChatError('no_key', `provider "${endpoint.providerId}" has no API key and is not marked keyless`);
  }
  const reply = await postToProvider({
    fetch,
    endpoint: endpointUrl(endpoint.baseUrl, 'chat/completions'),
    apiKey,
    timeoutMs: request.timeoutMs,
    body: JSON.stringify({
      model: endpoint.model.name,
      messages: request.messages,
      response_format: { type: 'json_schema', json_schema: { name: request.schema.name, strict: true, schema: request.schema.schema } },
      max_tokens: request.maxTokens,
      temperature: 0,
    }),
  });
  switch (reply.kind) {
    case 'timeout':
      throw new ChatError('timeout', `the chat model ${endpoint.model.name} did not answer within ${request.timeoutMs} ms`, {
        cause: reply.error,
      });
    case 'network':
      throw new ChatError('request_failed', `the chat model ${endpoint.model.name} could not be reached: ${reply.reason}`, {
        cause: reply.error,
      });
    case 'http':
      throw new ChatError('request_failed', `the chat model ${endpoint.model.name} answered ${reply.detail}`);
    case 'ok': {
      const answer = parseProviderBody(
        reply.body,
        answerSchema,
        (why) => new ChatError('bad_response', `the chat model ${endpoint.model.name}'s answer ${why}`),
      );
      return {
        content: answer.choices[0]?.message.content ?? '',
        promptTokens: answer.usage.prompt_tokens,
        completionTokens: answer.usage.completion_tokens,
      };
    }
  }
}
