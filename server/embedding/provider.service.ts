import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { badInput, notFound } from '../errors.ts';
import { ConfigVersion } from '../settings/configVersion.ts';
import { LIMITS, parseInput } from '../validation.ts';
import type { EnvProvider } from '../vectorConfig.ts';
import * as repo from './provider.repository.ts';

export type ModelKind = 'embedding' | 'rerank' | 'chat';

export interface ProviderModel {
  name: string;
  kind: ModelKind;
  /** Known vector size; probed from the first response when null. */
  dimension: number | null;
  maxInputTokens: number | null;
}

/** A model provider as the API shows it: whether a key is set, never the key. */
export interface Provider {
  id: string;
  baseUrl: string;
  hasApiKey: boolean;
  /** Needs no API key (a local server): counts as configured without one. */
  keyless: boolean;
  models: ProviderModel[];
  /** "env" providers come from MNEMO_EMBEDDING_* / MNEMO_RERANK_* and cannot be edited through the API. */
  origin: 'env' | 'settings';
}

/** What the engine needs to call a provider's model: the endpoint and its secret. */
export interface ProviderEndpoint {
  providerId: string;
  baseUrl: string;
  apiKey: string | null;
  keyless: boolean;
  model: ProviderModel;
}

/** Whether the endpoint can be called: it has a key, or it is marked as needing none. */
export const callable = (endpoint: ProviderEndpoint) => endpoint.keyless || endpoint.apiKey !== null;

export const ENV_PROVIDER_ID = 'env';

/** How the settings name a provider's model: "provider/model". */
export const providerModelName = (providerId: string, model: string) => `${providerId}/${model}`;

const modelSchema = z.object({
  name: z.string().trim().min(1, 'model name must not be empty').max(LIMITS.modelNameChars),
  kind: z.enum(['embedding', 'rerank', 'chat']),
  dimension: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.embeddingDimension)
    .nullish()
    .transform((v) => v ?? null),
  maxInputTokens: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.modelInputTokens)
    .nullish()
    .transform((v) => v ?? null),
});

const PROVIDER_ID = new RegExp(`^[a-z0-9][a-z0-9_-]{0,${LIMITS.providerIdChars - 1}}$`);

const upsertSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(PROVIDER_ID, `id must be 1 to ${LIMITS.providerIdChars} lowercase letters, digits, "-" or "_"`)
    .refine((id) => id !== ENV_PROVIDER_ID, `"${ENV_PROVIDER_ID}" is the provider from the environment`),
  baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL' }),
  /** undefined keeps the stored key, '' removes it. */
  apiKey: z.string().max(LIMITS.providerKeyChars).optional(),
  /** undefined keeps the stored mark. */
  keyless: z.boolean().optional(),
  models: z.array(modelSchema).max(LIMITS.providerModels),
});

/** A provider as an admin saves it; checked by upsert. */
export type ProviderInput = z.input<typeof upsertSchema>;

/**
 * Model providers (OpenAI-compatible embeddings and chat completions, Cohere/Jina-style rerank) configured by admins, plus the
 * one from the environment. API keys are write-only: stored, used, never returned.
 */
export class ProviderService {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly configVersion: ConfigVersion;

  constructor(
    deps: { db: Db; now: () => number; configVersion?: ConfigVersion },
    private readonly env: EnvProvider | null,
  ) {
    this.db = deps.db;
    this.now = deps.now;
    this.configVersion = deps.configVersion ?? new ConfigVersion(deps);
  }

  /**
   * Changes whenever a provider changes (here or in another process on the database), so the engine knows to resolve
   * its models again.
   */
  revision(): Promise<number> {
    return this.configVersion.current();
  }

  async list(): Promise<Provider[]> {
    const rows = await repo.listProviderRows(this.db);
    const stored: Provider[] = rows.map((r) => ({
      id: r.id,
      baseUrl: r.base_url,
      hasApiKey: r.api_key !== null,
      keyless: r.keyless === 1,
      models: JSON.parse(r.models) as ProviderModel[],
      origin: 'settings',
    }));
    return this.env ? [envProvider(this.env), ...stored] : stored;
  }

  async upsert(input: ProviderInput): Promise<Provider> {
    const valid = parseInput(upsertSchema, input);
    const apiKey = valid.apiKey === undefined ? undefined : valid.apiKey.trim() === '' ? null : valid.apiKey.trim();
    await repo.upsertProviderRow(this.db, {
      id: valid.id,
      baseUrl: valid.baseUrl,
      apiKey,
      keyless: valid.keyless,
      models: JSON.stringify(valid.models),
      now: this.now(),
    });
    this.configVersion.expire();
    const saved = (await this.list()).find((p) => p.id === valid.id);
    if (!saved) throw new Error(`provider ${valid.id} vanished after saving`);
    return saved;
  }

  /** A stored provider with its key, for comparing states (the audit log says only whether the key changed). */
  async stored(id: string): Promise<(Provider & { apiKey: string | null }) | null> {
    const row = await repo.findProviderRow(this.db, id);
    if (!row) return null;
    const provider = (await this.list()).find((p) => p.id === id);
    return provider ? { ...provider, apiKey: row.api_key } : null;
  }

  async delete(id: string): Promise<void> {
    if (id === ENV_PROVIDER_ID) throw badInput('the environment provider is configured by MNEMO_EMBEDDING_* variables');
    if (!(await repo.deleteProviderRow(this.db, id))) throw notFound(`no provider with id ${id}`);
    this.configVersion.expire();
  }

  /** Finds "provider/model" (the model name may itself contain "/"), with the secret, for the engine. */
  async endpoint(providerModel: string, kind: ModelKind): Promise<ProviderEndpoint | null> {
    const slash = providerModel.indexOf('/');
    if (slash <= 0) return null;
    const providerId = providerModel.slice(0, slash);
    const name = providerModel.slice(slash + 1);
    if (providerId === ENV_PROVIDER_ID) {
      const model = this.env && envProvider(this.env).models.find((m) => m.name === name && m.kind === kind);
      return this.env && model
        ? { providerId, baseUrl: this.env.baseUrl, apiKey: this.env.apiKey, keyless: this.env.keyless, model }
        : null;
    }
    const row = await repo.findProviderRow(this.db, providerId);
    const model = row && (JSON.parse(row.models) as ProviderModel[]).find((m) => m.name === name && m.kind === kind);
    // A model that is not listed still works: admins may name any model the provider serves.
    const chosen = model ?? (row ? { name, kind, dimension: null, maxInputTokens: null } : null);
    return row && chosen ? { providerId, baseUrl: row.base_url, apiKey: row.api_key, keyless: row.keyless === 1, model: chosen } : null;
  }

  /**
   * Every embedding model that can be called, as "provider/model", in the order AUTO tries them: the
   * environment's first, then the stored providers by id, each model in the order it is listed.
   */
  async callableEmbeddingModels(): Promise<string[]> {
    const names: string[] = [];
    for (const provider of await this.list()) {
      if (!provider.keyless && !provider.hasApiKey) continue;
      for (const m of provider.models) if (m.kind === 'embedding') names.push(providerModelName(provider.id, m.name));
    }
    return names;
  }

  envRerank(): string | null {
    return this.env?.rerankModel ? providerModelName(ENV_PROVIDER_ID, this.env.rerankModel) : null;
  }
}

function envProvider(env: EnvProvider): Provider {
  const models: ProviderModel[] = [];
  if (env.embeddingModel)
    models.push({ name: env.embeddingModel, kind: 'embedding', dimension: env.embeddingDimension, maxInputTokens: null });
  if (env.rerankModel) models.push({ name: env.rerankModel, kind: 'rerank', dimension: null, maxInputTokens: null });
  return { id: ENV_PROVIDER_ID, baseUrl: env.baseUrl, hasApiKey: env.apiKey !== null, keyless: env.keyless, models, origin: 'env' };
}

/* The provider operations that resolvers and tools call; the class above also resolves models for the engine. */

export function listProviders(deps: { providers: ProviderService }): Promise<Provider[]> {
  return deps.providers.list();
}

export function upsertProvider(deps: { providers: ProviderService }, input: ProviderInput): Promise<Provider> {
  return deps.providers.upsert(input);
}

export function deleteProvider(deps: { providers: ProviderService }, id: string): Promise<void> {
  return deps.providers.delete(id);
}
