/**
 * Generated static (model2vec-layout) embedding models for the bench and the eval. No model hub is reachable
 * here, so a real model (minishlab/potion-base-8M) cannot be downloaded: instead a model is written over a given
 * vocabulary with one pseudo-random vector per word, in the exact file layout the static embedder loads.
 *
 * Such a model knows nothing about meaning: a text's vector is the normalised mean of its words' random vectors,
 * i.e. a bag-of-words random projection. Texts that share words get similar vectors; synonyms do not. It runs the
 * real loading, tokenizing, embedding and indexing code at the real dimension, which is what the bench measures,
 * and in the eval it is a lexical baseline for the vector tier, not a semantic model.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadVectorConfig, type VectorConfig } from '../../server/vectorConfig.ts';
import { writeStaticModel } from '../../test/helpers/models.ts';
import { rng } from './text.ts';

export interface GeneratedModel {
  /** Hub-style id under cacheDir ("generated/bow-384"). */
  model: string;
  cacheDir: string;
  dim: number;
  /** Words in the vocabulary, special tokens excluded. */
  vocabSize: number;
  writeMs: number;
}

/** A text's words as the model's BERT tokenizer sees them: lowercased, accents stripped, split at anything but letters and digits. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => w.length <= 100);
}

/** The distinct words of `texts`, most frequent first, at most `maxWords`. */
export function vocabularyOf(texts: Iterable<string>, maxWords = 50_000): string[] {
  return [...documentFrequencies(texts).df.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxWords)
    .map(([w]) => w);
}

/** In how many of `texts` each word occurs, and how many texts there were. */
export function documentFrequencies(texts: Iterable<string>): { df: Map<string, number>; documents: number } {
  const df = new Map<string, number>();
  let documents = 0;
  for (const text of texts) {
    documents++;
    for (const w of new Set(wordsOf(text))) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return { df, documents };
}

/** FNV-1a of a string, to seed one word's vector. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Writes `${cacheDir}/${model}/{config.json, tokenizer.json, model.safetensors}`: one random vector per word. */
export function writeGeneratedModel(
  cacheDir: string,
  opts: {
    vocab: readonly string[];
    dim: number;
    model?: string;
    seed?: number;
    /** Scales each word's row (e.g. by IDF, as model2vec's zipf weighting favours rare tokens); default 1. */
    weight?: (word: string) => number;
  },
): GeneratedModel {
  const t0 = performance.now();
  const model = opts.model ?? `generated/bow-${opts.dim}`;
  const dir = path.join(cacheDir, model);
  mkdirSync(dir, { recursive: true });
  const seed = opts.seed ?? 1;
  const written = writeStaticModel(dir, {
    vocab: [...opts.vocab],
    dim: opts.dim,
    vectors: (token) => {
      const random = rng(hash(token) ^ seed);
      const w = opts.weight?.(token) ?? 1;
      return Array.from({ length: opts.dim }, () => (random() * 2 - 1) * w);
    },
  });
  return { model, cacheDir, dim: opts.dim, vocabSize: written.tokens.length - 4, writeMs: performance.now() - t0 };
}

/**
 * The engine configuration of a server that uses this model and nothing else: no downloads, no background
 * worker (the caller embeds), the given quantization and minimum similarity.
 */
export function generatedVectorConfig(
  gm: Pick<GeneratedModel, 'model' | 'cacheDir'>,
  dataDir: string,
  opts: { quantization?: 'none' | 'int8'; minSimilarity?: number; batchSize?: number; cacheMax?: number } = {},
): VectorConfig {
  const env: Record<string, string> = {
    MEMORY_STATIC_MODEL: gm.model,
    MEMORY_STATIC_CACHE_DIR: gm.cacheDir,
    MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
    MEMORY_STATIC_PACKAGE: '',
    MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false',
    MEMORY_WORKER_INTERVAL_MS: '0',
    MEMORY_VEC_QUANTIZATION: opts.quantization ?? 'none',
  };
  if (opts.minSimilarity !== undefined) env.MEMORY_VECTOR_MIN_SIMILARITY = String(opts.minSimilarity);
  if (opts.batchSize !== undefined) env.MEMORY_EMBEDDING_BATCH_SIZE = String(opts.batchSize);
  if (opts.cacheMax !== undefined) env.MEMORY_EMBEDDING_CACHE_MAX = String(opts.cacheMax);
  return loadVectorConfig(env, dataDir);
}
