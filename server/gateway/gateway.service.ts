import { z } from 'zod';
import type { AccessTokenService } from '../auth/accessToken.service.ts';
import { storageFault } from '../db/storeErrors.ts';
import { badInput } from '../errors.ts';
import { type ChatRequestShape, detectShape, type InjectionRole, injectIntoRequest, lastUserText } from '../memory/injection.ts';
import type { Memory } from '../memory/memory.ts';
import { retrieve } from '../retrieval/retrieval.service.ts';
import type { RetrievalDeps, RetrievalResult, RetrieveInput } from '../retrieval/retrieval.ts';
import { apiKeyIdSchema, jsonObject, LIMITS, parseInput, sessionIdSchema } from '../validation.ts';
import { type ExtractedFact, extractFacts } from './extraction.ts';
import type { ModelExtraction, ModelExtractionDeps } from './modelExtraction.ts';
import { storeFacts } from './storeFacts.ts';

/** The gateway path around one chat request: memories in before it is forwarded, new facts out of the reply. */
/** What the gateway's calls need beyond ranking: the tokens mnemo issued, which extraction never stores. */
export interface GatewayDeps extends RetrievalDeps, Pick<ModelExtractionDeps, 'providers'> {
  tokens: Pick<AccessTokenService, 'issuedTokensIn'>;
  /** The extraction model's calls, which run after the request is answered. */
  modelExtraction: Pick<ModelExtraction, 'schedule'>;
}

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

const providerSchema = z
  .string()
  .trim()
  .min(1, 'provider must not be empty')
  .max(LIMITS.modelNameChars, `provider is longer than ${LIMITS.modelNameChars} characters`);
const requestSchema = jsonObject('request', { maxDepth: LIMITS.requestDepth });

export async function injectMemory(deps: RetrievalDeps, input: InjectInput): Promise<InjectOutcome> {
  const provider = parseInput(providerSchema, input.provider);
  parseInput(requestSchema, input.request);
  // Refuse a request we could not inject into before anything is retrieved or counted.
  if (!input.shape && detectShape(input.request) === null) {
    throw badInput('request is not an OpenAI chat (messages), OpenAI Responses (input) or Anthropic (system + messages) request');
  }
  if (input.noMemory) return { request: input.request, injected: false, role: null, shape: null, retrieval: null, optedOut: true };
  const query = input.query ?? lastUserText(input.request);
  const retrieval = await retrieve(deps, { ...input, query }, { record: true });
  const { userRoleProviders } = await deps.settings.get();
  const result = injectIntoRequest(input.request, retrieval.block, { provider, userRoleProviders, shape: input.shape ?? undefined });
  return {
    request: result.request as Record<string, unknown>,
    injected: result.injected,
    role: result.role,
    shape: result.shape,
    retrieval,
    optedOut: false,
  };
}

export interface ExtractInput {
  apiKeyId: string;
  sessionId?: string | null;
  text: string;
  role: 'user' | 'assistant';
  /** Store the facts (default); false only reports them. */
  persist?: boolean | null;
  includeAssistant?: boolean | null;
  noMemory?: boolean | null;
}

export interface ExtractOutcome {
  facts: ExtractedFact[];
  memories: Memory[];
  /** Why storing failed; the facts are still returned. Extraction never fails the gateway's request. */
  error: string | null;
  /** Set when nothing was extracted on purpose: memory is disabled, or the request opted out. */
  skipped: 'disabled' | 'opted_out' | null;
}

const extractSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  sessionId: sessionIdSchema.nullish(),
  text: z.string(),
  role: z.enum(['user', 'assistant']),
});

/**
 * Mines a message for durable facts and upserts them, all in one transaction (storeFacts).
 * With memory disabled nothing is mined or stored; a dry run (`persist: false`) still reports the facts.
 */
export async function extractAndStore(deps: GatewayDeps, input: ExtractInput): Promise<ExtractOutcome> {
  const valid = parseInput(extractSchema, input);
  const nothing = (skipped: ExtractOutcome['skipped']): ExtractOutcome => ({ facts: [], memories: [], error: null, skipped });
  if (input.noMemory) return nothing('opted_out');
  const dryRun = input.persist === false;
  if (!dryRun && !(await deps.settings.get()).enabled) return nothing('disabled');
  const includeAssistant = input.includeAssistant ?? false;
  const knownSecrets = await deps.tokens.issuedTokensIn(input.text);
  const facts = extractFacts(input.text, { role: input.role, includeAssistant, knownSecrets });
  if (dryRun) return { facts, memories: [], error: null, skipped: null };
  const stored = await storeRulesFacts(deps, valid, facts);
  // The extraction model, when set, reads the message too, in the background once the rules' facts are stored (it is
  // shown them, and may update them): the caller does not wait for it.
  if (input.role === 'user' || includeAssistant) {
    const { apiKeyId, sessionId, text, role } = valid;
    deps.modelExtraction.schedule(deps, { apiKeyId, sessionId: sessionId ?? null, text, role, knownSecrets });
  }
  return stored;
}

async function storeRulesFacts(deps: GatewayDeps, valid: z.output<typeof extractSchema>, facts: ExtractedFact[]): Promise<ExtractOutcome> {
  if (facts.length === 0) return { facts, memories: [], error: null, skipped: null };
  const extractedAt = new Date(deps.now()).toISOString();
  try {
    const memories = await storeFacts(deps, valid.apiKeyId, facts, {
      source: 'extraction',
      role: valid.role,
      sessionId: valid.sessionId ?? null,
      extractedAt,
    });
    return { facts, memories, error: null, skipped: null };
  } catch (error) {
    deps.logger?.error({ err: error, apiKeyId: valid.apiKeyId }, 'storing extracted facts failed');
    const fault = storageFault(error);
    return { facts, memories: [], error: fault?.message ?? 'storing the extracted facts failed; see the server log', skipped: null };
  }
}
