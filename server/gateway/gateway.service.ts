import { z } from 'zod';
import type { AccessTokenService } from '../auth/accessToken.service.ts';
import { storageFault } from '../db/storeErrors.ts';
import { badInput } from '../errors.ts';
import {
  type ChatRequestShape,
  conversationOf,
  detectShape,
  type InjectionRole,
  injectIntoRequest,
  lastUserText,
} from '../memory/injection.ts';
import type { Memory } from '../memory/memory.ts';
import { logInjection } from '../retrieval/injectionLog.service.ts';
import { type Receipt, skippedReceipt } from '../retrieval/receipt.ts';
import { retrieve } from '../retrieval/retrieval.service.ts';
import type { RetrievalDeps, RetrievalResult, RetrieveInput } from '../retrieval/retrieval.ts';
import type { Settings } from '../settings/settings.service.ts';
import { apiKeyIdSchema, jsonObject, LIMITS, parseInput, parseInputAt, pastDate, sessionIdSchema } from '../validation.ts';
import { captureConversation, captures, captureTurnWithFacts, TurnCapturedMeanwhile, type TurnToCapture, turnKeys } from './capture.ts';
import { type ExtractedFact, extractFacts } from './extraction.ts';
import type { ModelExtraction, ModelExtractionDeps } from './modelExtraction.ts';
import { storeFactsOfTurn } from './storeFacts.ts';

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
  /** When the request was made: the messages it captures are dated by it and hold from it (arrival otherwise). */
  occurredAt?: Date | null;
  /** Return what became of every candidate (the outcome's receipt). */
  receipt?: boolean | null;
}

export interface InjectOutcome {
  request: Record<string, unknown>;
  injected: boolean;
  role: InjectionRole | null;
  shape: ChatRequestShape | null;
  retrieval: RetrievalResult | null;
  optedOut: boolean;
  /** Memories stored now from the request's conversation (captureTurns); messages stored before are not counted. */
  captured: number;
  /** Set when the input asked for one. */
  receipt: Receipt | null;
}

const providerSchema = z
  .string()
  .trim()
  .min(1, 'provider must not be empty')
  .max(LIMITS.modelNameChars, `provider is longer than ${LIMITS.modelNameChars} characters`);
const requestSchema = jsonObject('request', { maxDepth: LIMITS.requestDepth });
const occurredAtSchema = pastDate('occurredAt');
/** The key and session as retrieval normalised them, for the injection log. */
const logKeySchema = z.object({ apiKeyId: apiKeyIdSchema, sessionId: sessionIdSchema.nullish() });

export async function injectMemory(deps: GatewayDeps, input: InjectInput): Promise<InjectOutcome> {
  const provider = parseInput(providerSchema, input.provider);
  parseInput(requestSchema, input.request);
  parseInputAt(occurredAtSchema.nullish(), input.occurredAt, deps.now());
  // Refuse a request we could not inject into before anything is retrieved or counted.
  if (!input.shape && detectShape(input.request) === null) {
    throw badInput('request is not an OpenAI chat (messages), OpenAI Responses (input) or Anthropic (system + messages) request');
  }
  const asked = input.receipt ?? false;
  if (input.noMemory) {
    const receipt = asked ? skippedReceipt('opted_out', null, null) : null;
    return { request: input.request, injected: false, role: null, shape: null, retrieval: null, optedOut: true, captured: 0, receipt };
  }
  const query = input.query ?? lastUserText(input.request);
  const shape = input.shape ?? (detectShape(input.request) as ChatRequestShape);
  const settings = await deps.settings.get();
  const conversation = settings.enabled ? await requestConversation(deps, input, shape, settings.captureTurns) : null;
  const { userRoleProviders, injectionLogDays } = settings;
  // Retrieval before capture, and never the request's own turns: the model reads them in the request already.
  const retrieval = await retrieve(
    deps,
    { ...input, query, excludeKeys: conversation?.keys ?? null },
    { record: true, receipt: asked || injectionLogDays > 0 },
  );
  if (injectionLogDays > 0 && retrieval.receipt) {
    const { apiKeyId, sessionId } = parseInput(logKeySchema, input);
    await logInjection(deps, { apiKeyId, sessionId: sessionId ?? null, query, receipt: retrieval.receipt });
  }
  const result = injectIntoRequest(input.request, retrieval.block, { provider, userRoleProviders, shape });
  return {
    request: result.request as Record<string, unknown>,
    injected: result.injected,
    role: result.role,
    shape: result.shape,
    retrieval,
    optedOut: false,
    captured: conversation ? await captureRequest(deps, conversation) : 0,
    receipt: asked ? retrieval.receipt : null,
  };
}

/** The request's messages as turns, with the keys they are (or would be) captured under whatever their role. */
interface RequestConversation {
  apiKeyId: string;
  turns: TurnToCapture[];
  keys: string[];
  knownSecrets: readonly string[];
  captureTurns: Settings['captureTurns'];
}

/**
 * Reads the request's conversation once for both of its uses: the keys of its turns, left out of retrieval, and the
 * turns captureTurns keeps. Null when the conversation cannot be read (logged; the request is answered all the same).
 */
async function requestConversation(
  deps: GatewayDeps,
  input: InjectInput,
  shape: ChatRequestShape,
  captureTurns: Settings['captureTurns'],
): Promise<RequestConversation | null> {
  const apiKeyId = parseInput(apiKeyIdSchema, input.apiKeyId);
  const sessionId = parseInput(sessionIdSchema.nullish(), input.sessionId) ?? null;
  const turns = conversationOf(input.request, shape).map((m) => ({ ...m, apiKeyId, sessionId, occurredAt: input.occurredAt }));
  try {
    // One look-up for the whole conversation: a token named in one message is redacted wherever it stands.
    const knownSecrets = await deps.tokens.issuedTokensIn(turns.map((t) => t.text).join('\n'));
    return { apiKeyId, turns, keys: turnKeys(turns, knownSecrets), knownSecrets, captureTurns };
  } catch (error) {
    deps.logger?.error({ err: error, apiKeyId }, 'reading the conversation failed');
    return null;
  }
}

/**
 * Captures the messages of the request's conversation that captureTurns keeps, each once however often the history is
 * sent. Fails open: the request is forwarded all the same, and the fault is logged.
 */
async function captureRequest(deps: GatewayDeps, c: RequestConversation): Promise<number> {
  const kept = c.turns.filter((t) => captures(c.captureTurns, t.role));
  if (kept.length === 0) return 0;
  try {
    return (await captureConversation(deps, kept, c.knownSecrets)).length;
  } catch (error) {
    deps.logger?.error({ err: error, apiKeyId: c.apiKeyId }, 'capturing the conversation failed');
    return 0;
  }
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
  /** When the message was said: its captured turn is dated by it and its facts hold from it (arrival otherwise). */
  occurredAt?: Date | null;
}

export interface ExtractOutcome {
  facts: ExtractedFact[];
  memories: Memory[];
  /** The message's captured turn (captureTurns), one memory per part, whether stored now or by an earlier identical call. */
  captured: Memory[];
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
  occurredAt: occurredAtSchema.nullish(),
});

/**
 * Mines a message for durable facts and upserts them, and captures the message itself as a turn of its session when
 * captureTurns keeps its role, all in one transaction. Facts describe the user, not the conversation, so they are
 * stored key-wide; the session they came from is kept in metadata, and the turn they came from in sourceTurn (the turn
 * lists them in its facts). With memory disabled nothing is mined or stored; a dry run (`persist: false`) still
 * reports the facts and captures nothing.
 */
export async function extractAndStore(deps: GatewayDeps, input: ExtractInput): Promise<ExtractOutcome> {
  const valid = parseInputAt(extractSchema, input, deps.now());
  const nothing = (skipped: ExtractOutcome['skipped']): ExtractOutcome => ({ facts: [], memories: [], captured: [], error: null, skipped });
  if (input.noMemory) return nothing('opted_out');
  const dryRun = input.persist === false;
  const settings = await deps.settings.get();
  if (!dryRun && !settings.enabled) return nothing('disabled');
  const includeAssistant = input.includeAssistant ?? false;
  const knownSecrets = await deps.tokens.issuedTokensIn(input.text);
  const facts = extractFacts(input.text, { role: input.role, includeAssistant, knownSecrets });
  if (dryRun) return { facts, memories: [], captured: [], error: null, skipped: null };
  const stored = await storeExtraction(deps, valid, facts, {
    capture: captures(settings.captureTurns, valid.role),
    knownSecrets,
    settings,
  });
  // The extraction model, when set, reads the message too, in the background once the rules' facts are stored (it is
  // shown them, and may update them): the caller does not wait for it.
  if (valid.role === 'user' || includeAssistant) {
    const { apiKeyId, sessionId, text, role, occurredAt } = valid;
    const sourceTurn = stored.captured[0]?.id ?? null;
    deps.modelExtraction.schedule(deps, { apiKeyId, sessionId: sessionId ?? null, text, role, knownSecrets, occurredAt, sourceTurn });
  }
  return stored;
}

/** The rules' facts and, when captureTurns keeps the role, the message as a turn: one transaction. */
async function storeExtraction(
  deps: GatewayDeps,
  valid: z.output<typeof extractSchema>,
  facts: ExtractedFact[],
  o: { capture: boolean; knownSecrets: readonly string[]; settings: Settings },
): Promise<ExtractOutcome> {
  if (facts.length === 0 && !o.capture) return { facts, memories: [], captured: [], error: null, skipped: null };
  const extractedAt = new Date(deps.now()).toISOString();
  const sessionId = valid.sessionId ?? null;
  const origin = { source: 'extraction' as const, role: valid.role, sessionId, extractedAt, saidAt: valid.occurredAt ?? null };
  const store = () =>
    deps.db.transaction().execute(async (trx): Promise<ExtractOutcome> => {
      const writer = { ...deps, db: trx };
      if (!o.capture) {
        const { memories } = await storeFactsOfTurn(writer, valid.apiKeyId, facts, origin, null, o.settings);
        return { facts, memories, captured: [], error: null, skipped: null };
      }
      const turn = { apiKeyId: valid.apiKeyId, sessionId, role: valid.role, text: valid.text, occurredAt: valid.occurredAt };
      const { captured, memories } = await captureTurnWithFacts(writer, turn, o.knownSecrets, { facts, origin, settings: o.settings });
      return { facts, memories, captured, error: null, skipped: null };
    });
  try {
    // Once more when another request captured the same message first: this time the turn is found and linked.
    return await store().catch((error: unknown) => (error instanceof TurnCapturedMeanwhile ? store() : Promise.reject(error)));
  } catch (error) {
    deps.logger?.error({ err: error, apiKeyId: valid.apiKeyId }, 'storing extracted facts failed');
    const fault = storageFault(error);
    return {
      facts,
      memories: [],
      captured: [],
      error: fault?.message ?? 'storing the extracted facts failed; see the server log',
      skipped: null,
    };
  }
}
