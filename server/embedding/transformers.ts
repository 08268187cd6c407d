/**
 * A sentence-transformers model run locally with @huggingface/transformers (ONNX Runtime on the CPU), e.g.
 * Xenova/all-MiniLM-L6-v2: mean pooling over the last hidden state, L2-normalised.
 *
 * Library globals: transformers.js keeps its settings in one process-wide `env` object. We pass what can be
 * passed per call (`cache_dir`, `local_files_only`) and set only `env.localModelPath` (plus
 * `env.allowLocalModels = true`, already its Node default) when a load starts. Consequences:
 * - with several instances, `env.localModelPath` names the folder of whichever instance loaded last; each
 *   instance still finds its own files because its cacheDir is also passed as `cache_dir`, which the library
 *   checks first, in the same `${dir}/${model}/…` layout;
 * - `allowRemote: false` is enforced per call (`local_files_only`), so one instance cannot turn downloads on
 *   for another; but `allowRemote: true` cannot override `env.allowRemoteModels = false` if other code in the
 *   process set it, and downloads go to `${env.remoteHost}` (huggingface.co unless changed);
 * - other code using transformers.js in the same process sees the changed `env.localModelPath`.
 */
import path from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { type Embedder, EmbeddingError, l2normalize, unknownTextVector } from './embedder.ts';
import {
  asEmbeddingError,
  assertRepoId,
  describeError,
  filesFingerprint,
  LocalModelEmbedder,
  ModelLoader,
  missingFiles,
} from './modelLoader.ts';

export interface TransformersEmbedderOptions {
  /** MEMORY_TRANSFORMERS_MODEL, default 'Xenova/all-MiniLM-L6-v2'. */
  model: string;
  /** Looked in first: `${cacheDir}/${model}/…`; downloads (when allowed) are cached here too. */
  cacheDir: string;
  /** Download missing files from the hub. */
  allowRemote: boolean;
  /** A failed load may be retried after this many ms (at once if the files on disk changed), default 30000. */
  retryAfterMs?: number;
  /** The clock retryAfterMs is measured with, default Date.now. */
  now?: () => number;
  /** How @huggingface/transformers is imported; by default once per process. Tests pass one that fails as a missing package's does. */
  importLibrary?: () => Promise<TransformersLibrary>;
}

export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** What the feature-extraction pipeline reads for a BERT-like model with dtype fp32. */
export const TRANSFORMERS_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'] as const;
/** Texts per inference call: a batch is padded to its longest text, so huge batches waste memory. */
const BATCH_SIZE = 32;

interface LoadedPipeline {
  extractor: FeatureExtractionPipeline;
  dim: number;
}

export class TransformersEmbedder extends LocalModelEmbedder<LoadedPipeline> implements Embedder {
  readonly source = 'transformers' as const;
  readonly model: string;
  readonly #cacheDir: string;
  readonly #allowRemote: boolean;
  readonly #dir: string;
  readonly #importLibrary: () => Promise<TransformersLibrary>;
  protected readonly loader: ModelLoader<LoadedPipeline>;

  constructor(options: TransformersEmbedderOptions) {
    super();
    this.model = options.model || DEFAULT_TRANSFORMERS_MODEL;
    this.#cacheDir = path.resolve(options.cacheDir);
    this.#allowRemote = options.allowRemote;
    this.#dir = path.join(this.#cacheDir, this.model);
    const imported = options.importLibrary;
    this.#importLibrary = imported ? () => explainedImport(imported) : importLibrary;
    this.loader = new ModelLoader(() => this.#load(), {
      retryAfterMs: options.retryAfterMs ?? 30_000,
      now: options.now ?? Date.now,
      fingerprint: () => filesFingerprint(this.#dir, TRANSFORMERS_MODEL_FILES),
      toError: (err) =>
        asEmbeddingError(
          err,
          'model_unavailable',
          `transformers model "${this.model}" failed to load (looked in ${this.#dir}${path.sep}` +
            `${this.#allowRemote ? ', then the hub' : '; downloads are off'})`,
        ),
    });
  }

  /** Waits for a load in progress but never starts one: before load() it fails with model_unavailable. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const { extractor, dim } = await this.loader.loaded(`transformers model "${this.model}"`);
    const out: Float32Array[] = [];
    try {
      for (let i = 0; i < texts.length; i += BATCH_SIZE) {
        out.push(...(await this.#run(extractor, texts.slice(i, i + BATCH_SIZE), dim)));
      }
    } catch (err) {
      return this.embedFailed(err, `transformers model "${this.model}" failed to embed`);
    }
    return out;
  }

  async #run(extractor: FeatureExtractionPipeline, texts: string[], dim: number): Promise<Float32Array[]> {
    const output = await extractor(texts, { pooling: 'mean', normalize: true });
    if (output.dims.length !== 2 || output.dims[0] !== texts.length || output.dims[1] !== dim) {
      throw new EmbeddingError(
        'bad_response',
        `transformers model "${this.model}" returned dims [${output.dims.join(', ')}], expected [${texts.length}, ${dim}]`,
      );
    }
    const data = output.data as Float32Array;
    return texts.map((_, i) => toUnitVector(data.subarray(i * dim, (i + 1) * dim)) ?? unknownTextVector(dim));
  }

  async #load(): Promise<LoadedPipeline> {
    assertRepoId(this.model);
    if (!this.#allowRemote) {
      // Checked here because the library's own message for a missing tokenizer file is a bare TypeError.
      const missing = missingFiles(this.#dir, TRANSFORMERS_MODEL_FILES);
      if (missing.length > 0) {
        throw new EmbeddingError(
          'model_unavailable',
          `transformers model "${this.model}" is missing ${missing.join(', ')} in ${this.#dir}${path.sep} ` +
            `(expected ${TRANSFORMERS_MODEL_FILES.join(', ')}) and remote downloads are off`,
        );
      }
    }

    const lib = await this.#importLibrary();
    lib.env.allowLocalModels = true;
    lib.env.localModelPath = this.#cacheDir;

    const extractor = await lib.pipeline('feature-extraction', this.model, {
      dtype: 'fp32',
      device: 'cpu',
      cache_dir: this.#cacheDir,
      local_files_only: !this.#allowRemote,
    });
    try {
      // The pooled width is the model's embedding dimension; config.json names it differently per architecture.
      const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
      const dim = probe.dims[1];
      if (probe.dims.length !== 2 || !dim) throw new Error(`pooled output has dims [${probe.dims.join(', ')}]`);
      // A model that cannot give an ordinary sentence a direction is broken; catch it here, not per request.
      if (!toUnitVector(probe.data as Float32Array)) throw new Error('the model gives an ordinary sentence a zero or non-finite vector');
      return { extractor, dim };
    } catch (err) {
      await extractor.dispose().catch(() => {});
      throw err;
    }
  }
}

export type TransformersLibrary = typeof import('@huggingface/transformers');
let library: Promise<TransformersLibrary> | undefined;

/**
 * Imported on first load, not at startup: it brings in onnxruntime-node's native binding, which only the
 * transformers source needs, and a broken binding then fails a load instead of the whole server. One import
 * per process, shared by all instances; a failed one is tried again by the next load.
 */
function importLibrary(): Promise<TransformersLibrary> {
  library ??= explainedImport(() => import('@huggingface/transformers')).catch((err: unknown) => {
    library = undefined;
    throw err;
  });
  return library;
}

/** The library, or a load failure that tells the operator what is wrong with it. */
async function explainedImport(load: () => Promise<TransformersLibrary>): Promise<TransformersLibrary> {
  try {
    return await load();
  } catch (err) {
    // An optional dependency: `npm ci --omit=optional` (or a failed onnxruntime/sharp install) leaves it out.
    const missing = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(err).includes('@huggingface/transformers');
    throw new EmbeddingError(
      'model_unavailable',
      missing
        ? '@huggingface/transformers is not installed (an optional dependency of mnemo): install it with `npm install --include=optional` to use the transformers source'
        : `@huggingface/transformers could not be loaded (onnxruntime-node binary?): ${describeError(err)}`,
      { cause: err },
    );
  }
}

/**
 * A copy of a pooled row at unit length, or null when it has no direction. The library divides by the norm
 * unclamped, so a row that pools to zero arrives as NaN. That happens only when every token's hidden state sums
 * to zero; such a text gets the static embedder's documented fixed vector (see unknownTextVector), since the
 * model says nothing about it, rather than failing the whole batch.
 */
function toUnitVector(row: Float32Array): Float32Array | null {
  const v = l2normalize(Float32Array.from(row));
  let norm = 0;
  for (const x of v) norm += x * x;
  return Math.abs(norm - 1) < 1e-3 ? v : null;
}
