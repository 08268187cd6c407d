import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../settings/settings.service.ts';
import type { VectorConfig } from '../vectorConfig.ts';
import type { Embedder, EmbeddingSourceName } from './embedder.ts';
import { callable, type ProviderEndpoint, type ProviderService } from './provider.service.ts';
import { RemoteEmbedder } from './remote.ts';
import { STATIC_MODEL_FILES, StaticEmbedder } from './static.ts';
import { TransformersEmbedder } from './transformers.ts';
import { type LoadLog, WordVectorEmbedder } from './wordVectorEmbedder.ts';
import { findWordVectorPackage, wordVectorModelId } from './wordVectors.ts';

/** Which embedding source to use and why, before anything is loaded. */
export interface EmbeddingChoice {
  source: EmbeddingSourceName | null;
  model: string | null;
  /** In words, for the engine status and every preview. */
  reason: string;
  /** Identifies the configuration: the engine builds a new embedder only when it changes. */
  key: string;
  /**
   * Builds the embedder; a local model measures its retry delay with `now`, the services' clock, and says how
   * its loading goes in `logger`.
   */
  create: ((now: () => number, logger?: LoadLog) => Embedder) | null;
  /** What to use instead when the created embedder fails to load (the hub model cannot be had), given why. */
  fallback?: (failure: string) => EmbeddingChoice;
  /**
   * A model whose similarities alone are no evidence of relevance (averaged word vectors): HYBRID takes its hits only
   * where keyword search backs the ranking (retrieval/relevanceFloor.ts).
   */
  weak?: boolean;
}

/**
 * AUTO takes the first embedding source that can embed: the provider model named in the settings, or else the
 * first provider with an embedding model and an API key (or marked keyless, a local server); then the static
 * model if enabled (and present or downloadable); then the transformers model if enabled; else none (keyword
 * search only). An explicit source is used as asked, or reported as unusable with the reason.
 */
export async function chooseEmbedding(settings: Settings, providers: ProviderService, config: VectorConfig): Promise<EmbeddingChoice> {
  const remote = await remoteChoice(settings, providers, config);
  const fixed = (choice: EmbeddingChoice, why: string) => ({ ...choice, reason: `${why}: ${choice.reason}` });
  switch (settings.embeddingSource) {
    case 'REMOTE':
      return fixed(remote, 'embeddingSource is REMOTE');
    case 'STATIC':
      return fixed(staticChoice(config), 'embeddingSource is STATIC');
    case 'TRANSFORMERS':
      return fixed(transformersChoice(config), 'embeddingSource is TRANSFORMERS');
    case 'AUTO': {
      if (remote.create) return fixed(remote, 'auto');
      const skipped = [`remote skipped (${remote.reason})`];
      if (settings.staticEnabled) {
        const s = staticChoice(config);
        if (s.create) return { ...s, reason: `auto: ${skipped.join('; ')}; ${s.reason}` };
        skipped.push(`static skipped (${s.reason})`);
      } else skipped.push('static skipped (staticEnabled is off)');
      if (settings.transformersEnabled) return { ...transformersChoice(config), reason: `auto: ${skipped.join('; ')}; using transformers` };
      skipped.push('transformers skipped (transformersEnabled is off)');
      return none(`auto: ${skipped.join('; ')}; keyword search only`);
    }
  }
}

async function remoteChoice(settings: Settings, providers: ProviderService, config: VectorConfig): Promise<EmbeddingChoice> {
  const named = settings.embeddingProviderModel;
  const name = named ?? (await providers.callableEmbeddingModels())[0];
  if (!name) return none('no embeddingProviderModel is set and no provider has an embedding model with an API key or marked keyless');
  const endpoint = await providers.endpoint(name, 'embedding');
  if (!endpoint) return none(`provider model "${name}" is not configured`);
  if (!callable(endpoint)) return none(`provider "${endpoint.providerId}" has no API key and is not marked keyless`);
  const how = [named ? null : 'the first provider that can embed', endpoint.keyless ? 'keyless' : null].filter(Boolean).join(', ');
  return {
    source: 'remote',
    model: endpoint.model.name,
    reason: `using ${name} at ${endpoint.baseUrl}${how ? ` (${how})` : ''}`,
    key: `remote|${name}|${endpoint.baseUrl}|${endpoint.model.dimension ?? ''}|${endpoint.keyless}|${fingerprint(endpoint)}`,
    create: () =>
      new RemoteEmbedder({
        baseUrl: endpoint.baseUrl,
        model: endpoint.model.name,
        apiKey: endpoint.apiKey,
        keyless: endpoint.keyless,
        dimension: endpoint.model.dimension,
        maxInputTokens: endpoint.model.maxInputTokens ?? undefined,
        batchSize: config.batchSize,
        maxRetries: config.embeddingMaxRetries,
      }),
  };
}

function staticChoice(config: VectorConfig): EmbeddingChoice {
  const folder = path.join(config.staticCacheDir, config.staticModel);
  const present = STATIC_MODEL_FILES.every((f) => existsSync(path.join(folder, f)));
  if (!present && !config.staticAllowDownload) return wordVectorChoice(config, `its files are missing in ${folder} and downloading is off`);
  return {
    source: 'static',
    model: config.staticModel,
    reason: present
      ? `static model ${config.staticModel} from ${folder}`
      : `static model ${config.staticModel}, downloaded to ${folder} on first use`,
    key: `static|${config.staticModel}|${folder}`,
    create: (now) =>
      new StaticEmbedder({
        model: config.staticModel,
        cacheDir: config.staticCacheDir,
        allowDownload: config.staticAllowDownload,
        hubEndpoint: config.hubEndpoint,
        now,
      }),
    // Only where there is something to fall back to: without a package, a failed load is reported as it is.
    ...(installedPackage(config) ? { fallback: (failure: string) => wordVectorChoice(config, failure) } : {}),
  };
}

const installedPackage = (config: VectorConfig) => (config.staticPackage ? findWordVectorPackage(config.staticPackage) : null);

/** The static step's fallback when the hub model cannot be had: word vectors from an installed npm package. */
function wordVectorChoice(config: VectorConfig, why: string): EmbeddingChoice {
  const unavailable = `static model ${config.staticModel} cannot be had (${why})`;
  const pkg = installedPackage(config);
  if (!pkg)
    return none(config.staticPackage ? `${unavailable} and the word-vector package ${config.staticPackage} is not installed` : unavailable);
  const model = wordVectorModelId(pkg);
  return {
    source: 'static',
    model,
    reason: `${unavailable}; using the word vectors of the npm package ${pkg.name}@${pkg.version} (${pkg.license}): averaged word vectors, a weak model`,
    key: `static|${model}|${config.staticCacheDir}`,
    weak: true,
    create: (now, logger) =>
      new WordVectorEmbedder({ cacheDir: config.staticCacheDir, wordVectors: pkg, now, ...(logger ? { logger } : {}) }),
  };
}

function transformersChoice(config: VectorConfig): EmbeddingChoice {
  return {
    source: 'transformers',
    model: config.transformersModel,
    reason: `transformers model ${config.transformersModel}`,
    key: `transformers|${config.transformersModel}|${config.transformersCacheDir}`,
    create: (now) =>
      new TransformersEmbedder({
        model: config.transformersModel,
        cacheDir: config.transformersCacheDir,
        allowRemote: config.transformersAllowRemote,
        now,
      }),
  };
}

const none = (reason: string): EmbeddingChoice => ({ source: null, model: null, reason, key: 'none', create: null });

/** A changed key must rebuild the embedder, without putting the secret itself into the key. */
function fingerprint(endpoint: ProviderEndpoint): string {
  return createHash('sha256')
    .update(endpoint.apiKey ?? '')
    .digest('hex')
    .slice(0, 12);
}
