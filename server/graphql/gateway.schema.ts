import type { InjectOutcome } from '../memory/gateway.ts';
import { injectMemory } from '../memory/gateway.ts';
import { builder } from './builder.ts';
import { RetrievalResultRef, RetrieveInput, toRetrieveInput } from './retrieval.schema.ts';

const ShapeEnum = builder.enumType('ChatRequestShape', {
  values: {
    CHAT_MESSAGES: { value: 'chat_messages', description: 'OpenAI chat completions: { messages }.' },
    RESPONSES_INPUT: { value: 'responses_input', description: 'OpenAI Responses API: { input, instructions }.' },
    ANTHROPIC: { value: 'anthropic', description: 'Anthropic messages: { system, messages }.' },
  } as const,
});

const RoleEnum = builder.enumType('InjectionRole', {
  values: { SYSTEM: { value: 'system' }, USER: { value: 'user' } } as const,
});

const InjectionResultRef = builder.objectRef<InjectOutcome>('InjectionResult').implement({
  fields: (t) => ({
    request: t.expose('request', { type: 'JSONObject', description: 'The request to forward: unchanged except for the memory block.' }),
    injected: t.exposeBoolean('injected'),
    role: t.expose('role', { type: RoleEnum, nullable: true, description: 'The role the block was injected as.' }),
    shape: t.expose('shape', { type: ShapeEnum, nullable: true }),
    optedOut: t.exposeBoolean('optedOut', { description: 'The request asked for no memory; nothing was retrieved.' }),
    retrieval: t.field({ type: RetrievalResultRef, nullable: true, resolve: (o) => o.retrieval }),
  }),
});

const InjectMemoryInput = builder.inputType('InjectMemoryInput', {
  fields: (t) => ({
    request: t.field({ type: 'JSONObject', required: true, description: 'The chat request as the gateway would forward it.' }),
    provider: t.string({ required: true, description: 'Provider or model id, e.g. "openai/gpt-4o" or "o1-mini".' }),
    shape: t.field({ type: ShapeEnum, description: 'The request format, when known; detected otherwise.' }),
    noMemory: t.boolean({ description: 'The request opted out of memory: nothing is retrieved or injected.' }),
    retrieval: t.field({ type: RetrieveInput, required: true, description: 'query defaults to the last user message.' }),
  }),
});

builder.mutationField('injectMemory', (t) =>
  t.field({
    type: InjectionResultRef,
    description: 'Retrieves memories for a chat request and returns the request with them injected.',
    args: { input: t.arg({ type: InjectMemoryInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      injectMemory(ctx.services.memory, {
        ...toRetrieveInput(input.retrieval, ctx),
        request: input.request,
        provider: input.provider,
        shape: input.shape,
        noMemory: input.noMemory,
      }),
  }),
);
