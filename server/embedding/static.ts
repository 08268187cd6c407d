/**
 * A model2vec static embedding model (e.g. minishlab/potion-base-8M): each token has a fixed vector, and a
 * text's embedding is the mean of its tokens' vectors. No neural network runs, so it embeds thousands of
 * texts per second on a CPU with only the model's three files.
 *
 * It follows model2vec's StaticModel.encode: tokenize with the model's tokenizer.json *without* special tokens,
 * drop the unknown-token id, keep at most 512 tokens, optionally scale rows by a per-token "weights" tensor and
 * remap ids through a "mapping" tensor (vocabulary-quantized models), and take the mean.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
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
import { DTYPE_SIZE, halfToFloat, parseSafetensors, type Tensor } from './safetensors.ts';

export interface StaticEmbedderOptions {
  /** Hub repo id, default 'minishlab/potion-base-8M'. */
  model: string;
  /** MEMORY_STATIC_CACHE_DIR; the model's files live at `${cacheDir}/${model}/`. */
  cacheDir: string;
  /** Download missing files from the hub; when false a missing file is a load failure. */
  allowDownload: boolean;
  /** Default 'https://huggingface.co'. */
  hubEndpoint?: string;
  /** Branch, tag or commit, default 'main'. The folder holds one revision per model. */
  revision?: string;
  fetch?: typeof fetch;
  /** A failed load may be retried after this many ms (at once if the files on disk changed), default 30000. */
  retryAfterMs?: number;
  /** A download that receives nothing for this long is abandoned, default 60000. */
  stallTimeoutMs?: number;
  /** The clock retryAfterMs is measured with, default Date.now. */
  now?: () => number;
}

export const DEFAULT_STATIC_MODEL = 'minishlab/potion-base-8M';
/** Exactly the files a model2vec repository holds that inference needs (its README and modules.json are not). */
export const STATIC_MODEL_FILES = ['config.json', 'tokenizer.json', 'model.safetensors'] as const;
/** model2vec's encode() default max_length. */
const MAX_TOKENS = 512;
const MAX_REDIRECTS = 5;

export class StaticEmbedder extends LocalModelEmbedder<StaticModel> implements Embedder {
  readonly source = 'static' as const;
  readonly model: string;
  readonly #options: Required<Omit<StaticEmbedderOptions, 'fetch' | 'now'>> & { fetch: typeof fetch };
  readonly #dir: string;
  protected readonly loader: ModelLoader<StaticModel>;

  constructor(options: StaticEmbedderOptions) {
    super();
    this.model = options.model || DEFAULT_STATIC_MODEL;
    this.#options = {
      model: this.model,
      cacheDir: options.cacheDir,
      allowDownload: options.allowDownload,
      hubEndpoint: (options.hubEndpoint ?? 'https://huggingface.co').replace(/\/+$/, ''),
      revision: options.revision ?? 'main',
      fetch: options.fetch ?? fetch,
      retryAfterMs: options.retryAfterMs ?? 30_000,
      stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    };
    this.#dir = path.join(options.cacheDir, this.model);
    this.loader = new ModelLoader(() => this.#load(), {
      retryAfterMs: this.#options.retryAfterMs,
      now: options.now ?? Date.now,
      fingerprint: () => filesFingerprint(this.#dir, STATIC_MODEL_FILES),
      toError: (err) => asEmbeddingError(err, 'model_unavailable', `static model "${this.model}" failed to load from ${this.#dir}`),
    });
  }

  /** Never starts a load (that may mean a download): before load() it fails with model_unavailable. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const model = await this.loader.loaded(`static model "${this.model}"`);
    try {
      return texts.map((text) => model.embed(text));
    } catch (err) {
      return this.embedFailed(err, `static model "${this.model}"`);
    }
  }

  async #load(): Promise<StaticModel> {
    assertRepoId(this.model);
    const missing = missingFiles(this.#dir, STATIC_MODEL_FILES);
    if (missing.length > 0) {
      if (!this.#options.allowDownload) {
        throw new EmbeddingError(
          'model_unavailable',
          `static model "${this.model}" is missing ${missing.join(', ')} in ${this.#dir}${path.sep} ` +
            `(expected ${STATIC_MODEL_FILES.join(', ')}) and downloading is disabled`,
        );
      }
      await this.#download(missing);
    }
    const [config, tokenizer, safetensors] = await Promise.all(STATIC_MODEL_FILES.map((f) => readFile(path.join(this.#dir, f))));
    return StaticModel.fromFiles({ config: config!, tokenizer: tokenizer!, safetensors: safetensors! });
  }

  /**
   * Fetches every missing file into a temp file in the model folder, verifies each, and only then renames them
   * into place: a failed or interrupted download never leaves a file under a name the loader would trust.
   */
  async #download(files: readonly string[]): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const staged: { temp: string; file: string }[] = [];
    try {
      for (const file of files) staged.push({ temp: await this.#downloadToTemp(file), file });
      for (const { temp, file } of staged) await rename(temp, path.join(this.#dir, file));
    } finally {
      // After a successful rename the temp name is gone and `force` ignores it.
      await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    }
  }

  async #downloadToTemp(file: string): Promise<string> {
    const { hubEndpoint, revision, stallTimeoutMs } = this.#options;
    const url = `${hubEndpoint}/${this.model}/resolve/${encodeURIComponent(revision)}/${file}`;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const stillAlive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error(`no data for ${stallTimeoutMs} ms`)), stallTimeoutMs);
    };
    const temp = path.join(this.#dir, `.${file}.${process.pid}.${randomBytes(6).toString('hex')}.part`);
    try {
      stillAlive();
      const { response, sha256, size } = await this.#resolve(url, file, abort.signal);
      const hash = createHash('sha256');
      let written = 0;
      const handle = await open(temp, 'wx');
      try {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          stillAlive();
          hash.update(chunk);
          written += chunk.length;
          await handle.write(chunk);
        }
        // Without fsync a crash soon after the rename can leave an empty file under the final name.
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (sha256 !== null) {
        const actual = hash.digest('hex');
        if (actual !== sha256) throw new Error(`checksum mismatch for ${file}: expected sha256 ${sha256}, got ${actual}`);
      } else if (size !== null && written !== size) {
        throw new Error(`size mismatch for ${file}: expected ${size} bytes, got ${written}`);
      }
      return temp;
    } catch (err) {
      await rm(temp, { force: true });
      const reason = abort.signal.aborted ? describeError(abort.signal.reason) : describeError(err);
      throw new EmbeddingError('model_unavailable', `static model "${this.model}": downloading ${url} failed: ${reason}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * GETs a hub file, following redirects by hand: the hub sends an LFS file's sha256 (`x-linked-etag`) and size
   * (`x-linked-size`) on its redirect to the CDN, and an automatic redirect would drop those headers. Integrity
   * headers are only believed from the hub's own origin; the CDN's etag is some other hash.
   */
  async #resolve(
    start: string,
    file: string,
    signal: AbortSignal,
  ): Promise<{ response: Response; sha256: string | null; size: number | null }> {
    const hubOrigin = new URL(this.#options.hubEndpoint).origin;
    let url = start;
    let sha256: string | null = null;
    let linkedSize: number | null = null;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await this.#options.fetch(url, {
        redirect: 'manual',
        signal,
        // Compressed transfer would make content-length disagree with the bytes we count.
        headers: { 'accept-encoding': 'identity', 'user-agent': 'mnemo (static embedder)' },
      });
      const fromHub = new URL(url).origin === hubOrigin;
      if (fromHub) {
        sha256 ??= asSha256(response.headers.get('x-linked-etag'));
        linkedSize ??= asSize(response.headers.get('x-linked-size'));
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        url = new URL(location, url).href;
        continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(httpFailure(response, file, this.model, this.#options.revision));
      }
      if (fromHub) sha256 ??= asSha256(response.headers.get('etag'));
      return { response, sha256, size: linkedSize ?? asSize(response.headers.get('content-length')) };
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  }
}

/** The loaded model: tokenizer plus embedding matrix, ready to embed. */
class StaticModel {
  private constructor(
    readonly dim: number,
    private readonly tokenizer: Tokenizer,
    private readonly unkId: number | undefined,
    private readonly maxChars: number,
    private readonly matrix: Matrix,
    private readonly weights: Float32Array | null,
    private readonly mapping: Int32Array | null,
  ) {}

  static fromFiles(files: { config: Buffer; tokenizer: Buffer; safetensors: Buffer }): StaticModel {
    // config.json says whether model2vec normalises (potion: true). mnemo always does, which gives the same
    // vector when it is true and the same direction (all cosine/L2 ranking sees) when it is false, so only its
    // validity matters here.
    parseJson(files.config, 'config.json');
    const tokenizer = new Tokenizer(parseJson(files.tokenizer, 'tokenizer.json') as object, {});
    const tensors = parseSafetensors(files.safetensors);

    const embeddings = tensors.get('embeddings');
    if (embeddings?.shape.length !== 2) throw new Error('model.safetensors has no 2-D "embeddings" tensor');
    const [rows, dim] = embeddings.shape as [number, number];
    const matrix = toMatrix(embeddings);

    // Typed explicitly: the package's declarations do not fully resolve under NodeNext.
    const vocab: readonly (string | undefined)[] = tokenizer.model?.vocab ?? [];
    const unkId: number | undefined = tokenizer.model?.unk_token_id;
    const vocabSize = vocab.length;
    const mapping = tensors.has('mapping') ? toIndexArray(tensors.get('mapping')!, rows) : null;
    const weightsTensor = tensors.get('weights');
    const weights = weightsTensor ? toFloat32(weightsTensor) : null;
    // Token ids index the mapping and weights; without a mapping they index the matrix directly.
    if ((mapping?.length ?? rows) < vocabSize) {
      throw new Error(`tokenizer.json has ${vocabSize} tokens but model.safetensors has vectors for ${mapping?.length ?? rows}`);
    }
    if (weights && weights.length < vocabSize) throw new Error(`"weights" has ${weights.length} entries for ${vocabSize} tokens`);

    // model2vec cuts a text to max_length × the median token length in characters before tokenizing.
    const lengths = vocab.map((t) => [...(t ?? '')].length).sort((a, b) => a - b);
    const mid = lengths.length >> 1;
    const median = lengths.length === 0 ? 1 : lengths.length % 2 ? lengths[mid]! : Math.trunc((lengths[mid - 1]! + lengths[mid]!) / 2);

    return new StaticModel(dim, tokenizer, unkId, MAX_TOKENS * Math.max(1, median), matrix, weights, mapping);
  }

  embed(text: string): Float32Array {
    const ids = this.tokenIds(text);
    if (ids.length === 0) return unknownTextVector(this.dim);
    const sum = new Float64Array(this.dim);
    for (const id of ids) this.matrix.addRow(sum, this.mapping ? this.mapping[id]! : id, this.weights ? this.weights[id]! : 1);
    const mean = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) mean[i] = sum[i]! / ids.length;
    // Where model2vec applies config.json's `normalize`; mnemo's vector tier needs unit vectors regardless.
    l2normalize(mean);
    let norm = 0;
    for (const v of mean) norm += v * v;
    if (!Number.isFinite(norm))
      throw new EmbeddingError('bad_response', 'static model produced a non-finite vector (corrupt model.safetensors?)');
    // Rows that cancel out exactly leave nothing to normalise.
    return norm === 0 ? unknownTextVector(this.dim) : mean;
  }

  private tokenIds(text: string): number[] {
    let input = text;
    // Code points, as Python slices; UTF-16 length is an upper bound, so short texts skip the copy.
    if (input.length > this.maxChars) input = Array.from(input).slice(0, this.maxChars).join('');
    const { ids } = this.tokenizer.encode(input, { add_special_tokens: false });
    const kept: number[] = [];
    for (const id of ids) {
      // The unknown token carries no meaning (model2vec drops it); ids past the table would read garbage.
      if (typeof id !== 'number' || id === this.unkId || id < 0) continue;
      kept.push(id);
      if (kept.length === MAX_TOKENS) break;
    }
    return kept;
  }
}

interface Matrix {
  /** Adds `weight` × row `row` to `into`. */
  addRow(into: Float64Array, row: number, weight: number): void;
}

/** Rows are read in the stored dtype on demand, so an F16 model costs half the memory of converting it. */
function toMatrix(tensor: Tensor): Matrix {
  const [rows, dim] = tensor.shape as [number, number];
  const values = typedView(tensor);
  const decode = tensor.dtype === 'F16' ? halfToFloat() : null;
  return {
    addRow(into, row, weight) {
      if (row < 0 || row >= rows) throw new EmbeddingError('bad_response', `token row ${row} is outside the ${rows}-row embedding matrix`);
      const start = row * dim;
      if (decode) for (let i = 0; i < dim; i++) into[i]! += decode[values[start + i]!]! * weight;
      else for (let i = 0; i < dim; i++) into[i]! += values[start + i]! * weight;
    },
  };
}

function toFloat32(tensor: Tensor): Float32Array {
  const values = typedView(tensor);
  if (tensor.dtype === 'F16') {
    const table = halfToFloat();
    return Float32Array.from(values as Uint16Array, (h) => table[h]!);
  }
  return Float32Array.from(values as ArrayLike<number>);
}

function toIndexArray(tensor: Tensor, rows: number): Int32Array {
  if (tensor.dtype !== 'I64' && tensor.dtype !== 'I32') throw new Error(`"mapping" tensor has dtype ${tensor.dtype}, expected I64 or I32`);
  const out = new Int32Array(tensor.bytes.length / DTYPE_SIZE[tensor.dtype]!);
  const view = new DataView(tensor.bytes.buffer, tensor.bytes.byteOffset, tensor.bytes.byteLength);
  for (let i = 0; i < out.length; i++) {
    const v = tensor.dtype === 'I64' ? Number(view.getBigInt64(i * 8, true)) : view.getInt32(i * 4, true);
    if (!(v >= 0 && v < rows)) throw new Error(`"mapping" points token ${i} at row ${v} of ${rows}`);
    out[i] = v;
  }
  return out;
}

type FloatSource = Float32Array | Float64Array | Int8Array | Uint16Array;

function typedView(tensor: Tensor): FloatSource {
  // Typed arrays use the host's byte order; safetensors is little-endian, as is every platform Node ships for.
  if (endianness() !== 'LE') throw new Error('reading safetensors needs a little-endian host');
  const ctor = { F32: Float32Array, F64: Float64Array, I8: Int8Array, F16: Uint16Array }[tensor.dtype];
  if (!ctor) throw new Error(`model.safetensors stores ${tensor.dtype}; supported are F32, F16, F64 and I8`);
  let bytes = tensor.bytes;
  // A typed array view needs an offset aligned to its element size; copy when the file layout does not give one.
  if (bytes.byteOffset % ctor.BYTES_PER_ELEMENT !== 0) bytes = bytes.slice();
  // Buffers from readFile and slice() are backed by a plain ArrayBuffer.
  return new ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / ctor.BYTES_PER_ELEMENT);
}

function asSha256(header: string | null): string | null {
  const value = header?.replace(/^W\//, '').replaceAll('"', '').trim().toLowerCase();
  return value && /^[0-9a-f]{64}$/.test(value) ? value : null;
}

function asSize(header: string | null): number | null {
  const n = header === null ? Number.NaN : Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function httpFailure(response: Response, file: string, model: string, revision: string): string {
  const code = response.headers.get('x-error-code');
  const message = response.headers.get('x-error-message');
  if (code === 'EntryNotFound') return `the hub has no ${file} in ${model} at revision "${revision}" (HTTP 404 EntryNotFound)`;
  if (code === 'RevisionNotFound') return `the hub has no revision "${revision}" of ${model} (HTTP 404 RevisionNotFound)`;
  if (code === 'RepositoryNotFound')
    return `the hub has no repository ${model}, or it is private (HTTP ${response.status} RepositoryNotFound)`;
  if (code === 'GatedRepo') return `${model} is gated and needs an access token (HTTP ${response.status} GatedRepo)`;
  return `HTTP ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`;
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (err) {
    throw new Error(`${what} is not valid JSON: ${describeError(err)}`);
  }
}
