import { completeChat } from '../chat/chatCompletions.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { type ModelKind, type ProviderEndpoint, type ProviderService, providerModelName } from '../embedding/provider.service.ts';
import { RemoteEmbedder } from '../embedding/remote.ts';
import { notFound } from '../errors.ts';
import { type Reranker, rerankerAt } from '../rerank/reranker.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/** What one real call to a model answered, or why it failed: the admin's "Test" button. */
export interface ModelTest {
  kind: ModelKind;
  /** The model as the settings name it ("provider/model"), or the local model's name; null when there is none. */
  model: string | null;
  ok: boolean;
  /** Whether a call was made: false when there is no model to call, or it did not load. */
  called: boolean;
  /** The call's duration; 0 when no call was made. */
  latencyMs: number;
  /** What the model answered, in words ("a 1536-dimensional vector"). */
  answer: string | null;
  error: string | null;
}

/** A provider test waits this long for each answer: longer than the request path's rerank budget, since an admin is waiting. */
const PROVIDER_TEST_TIMEOUT_MS = 10_000;

const TEST_TEXT = 'mnemo connection test';
const TEST_QUERY = 'which editor does the user prefer';
const TEST_DOCUMENTS = ['The user prefers the Helix editor.', 'The user deploys on Fridays.'];

export function notTested(kind: ModelKind, model: string | null, reason: string): ModelTest {
  return { kind, model, ok: false, called: false, latencyMs: 0, answer: null, error: reason };
}

/** Embeds one short text. */
export async function testEmbedder(embedder: Embedder, name: string = embedder.model): Promise<ModelTest> {
  return timed('embedding', name, async () => {
    const [vector] = await embedder.embed([TEST_TEXT]);
    return `a ${vector?.length ?? 0}-dimensional vector`;
  });
}

/** Reranks two short documents against a query. */
export async function testReranker(reranker: Reranker, name: string = reranker.model): Promise<ModelTest> {
  return timed('rerank', name, async () => {
    const [best] = await reranker.rerank(TEST_QUERY, TEST_DOCUMENTS);
    return `ranked ${TEST_DOCUMENTS.length} documents, best scored ${best?.score.toPrecision(3) ?? 'nothing'}`;
  });
}

/** Asks a chat model for a one-field JSON answer, as extraction asks it for facts. */
export async function testChatModel(endpoint: ProviderEndpoint, name: string): Promise<ModelTest> {
  return timed('chat', name, async () => {
    const answer = await completeChat(endpoint, {
      messages: [{ role: 'user', content: 'Answer with {"ok": true}.' }],
      schema: {
        name: 'connection_test',
        schema: { type: 'object', additionalProperties: false, required: ['ok'], properties: { ok: { type: 'boolean' } } },
      },
      maxTokens: 16,
      timeoutMs: PROVIDER_TEST_TIMEOUT_MS,
    });
    return `answered in ${answer.promptTokens + answer.completionTokens} tokens`;
  });
}

/** The operation behind testEngineModel(CHAT): the extractionModel setting's model. */
export async function testExtractionModel(deps: { settings: SettingsService; providers: ProviderService }): Promise<ModelTest> {
  const name = (await deps.settings.get()).extractionModel;
  if (name === null) return notTested('chat', null, 'no extractionModel is set');
  const endpoint = await deps.providers.endpoint(name, 'chat');
  return endpoint ? testChatModel(endpoint, name) : notTested('chat', name, `chat model "${name}" is not configured`);
}

/**
 * One call to each model of a provider, without retries (a retry would hide the first answer) and without touching
 * the models in use: a provider can be checked before the settings name it. NOT_FOUND for an unknown provider.
 */
export async function testModelProvider(deps: { providers: ProviderService }, id: string): Promise<ModelTest[]> {
  const { providers } = deps;
  const provider = (await providers.list()).find((p) => p.id === id);
  if (!provider) throw notFound(`no provider with id ${id}`);
  const results: ModelTest[] = [];
  for (const m of provider.models) {
    const name = providerModelName(id, m.name);
    const endpoint = await providers.endpoint(name, m.kind);
    if (!endpoint) {
      results.push(notTested(m.kind, name, `model "${name}" is not configured`));
      continue;
    }
    if (m.kind === 'chat') {
      results.push(await testChatModel(endpoint, name));
      continue;
    }
    results.push(
      m.kind === 'embedding'
        ? await testEmbedder(
            new RemoteEmbedder({
              baseUrl: endpoint.baseUrl,
              model: m.name,
              apiKey: endpoint.apiKey,
              timeoutMs: PROVIDER_TEST_TIMEOUT_MS,
              keyless: endpoint.keyless,
              dimension: m.dimension,
              maxInputTokens: m.maxInputTokens ?? undefined,
              maxRetries: 0,
            }),
            name,
          )
        : await testReranker(rerankerAt(endpoint, PROVIDER_TEST_TIMEOUT_MS), name),
    );
  }
  return results;
}

async function timed(kind: ModelKind, model: string, call: () => Promise<string>): Promise<ModelTest> {
  const started = performance.now();
  try {
    const answer = await call();
    return { kind, model, ok: true, called: true, latencyMs: performance.now() - started, answer, error: null };
  } catch (error) {
    return {
      kind,
      model,
      ok: false,
      called: true,
      latencyMs: performance.now() - started,
      answer: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
