import { z } from 'zod';
import { badInput } from '../errors.ts';
import { type ChatRequestShape, detectShape, injectIntoRequest, type InjectionRole, lastUserText } from './injection.ts';
import type { MemoryDeps } from './memory.service.ts';
import { type RetrievalResult, type RetrieveInput, retrieve } from './retrieval.ts';

/** The gateway path around one chat request: memories in before it is forwarded. */
export interface InjectInput extends Omit<RetrieveInput, 'query'> {
  request: Record<string, unknown>;
  provider: string;
  /** Defaults to the text of the last user message. */
  query?: string | null;
  shape?: ChatRequestShape | null;
  /** The request opted out of memory (the gateway's no-memory header): nothing is retrieved. */
  noMemory?: boolean | null;
}

export interface InjectOutcome {
  request: Record<string, unknown>;
  injected: boolean;
  role: InjectionRole | null;
  shape: ChatRequestShape | null;
  retrieval: RetrievalResult | null;
  optedOut: boolean;
}

const providerSchema = z.string().trim().min(1, 'provider must not be empty').max(200, 'provider is longer than 200 characters');

export async function injectMemory(deps: MemoryDeps, input: InjectInput): Promise<InjectOutcome> {
  const provider = providerSchema.safeParse(input.provider);
  if (!provider.success) throw badInput(provider.error.issues[0]!.message);
  // Refuse a request we could not inject into before anything is retrieved or counted.
  if (!input.shape && detectShape(input.request) === null) {
    throw badInput('request is not an OpenAI chat (messages), OpenAI Responses (input) or Anthropic (system + messages) request');
  }
  if (input.noMemory) return { request: input.request, injected: false, role: null, shape: null, retrieval: null, optedOut: true };
  const query = input.query ?? lastUserText(input.request);
  const retrieval = await retrieve(deps, { ...input, query }, { record: true });
  const { userRoleProviders } = await deps.settings.get();
  const result = injectIntoRequest(
    input.request,
    retrieval.items.map((i) => ({ id: i.memory.id, type: i.memory.type, key: i.memory.key, content: i.content })),
    { provider: provider.data, userRoleProviders, shape: input.shape ?? undefined },
  );
  return {
    request: result.request as Record<string, unknown>,
    injected: result.injected,
    role: result.role,
    shape: result.shape,
    retrieval,
    optedOut: false,
  };
}
