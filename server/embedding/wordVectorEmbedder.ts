/**
 * The static source when its model comes from a word-vector package (wordVectors.ts): the package's table is
 * converted once into a compact file in the model cache, and every later start reads that file as typed arrays.
 * Converting and reading both run in the background in slices of a few ms, so no request waits for them; until
 * the model is ready the vector tier reports it loading and keyword search answers.
 *
 * It embeds as model2vec's StaticModel.encode does with the tokenizer the package's words make: BERT
 * normalisation and pre-tokenisation, one token per known word (any other word is unknown and skipped), at most
 * 512 tokens, and the IDF-weighted mean of their vectors.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import * as tokenizers from '@huggingface/tokenizers';
import { type Embedder, EmbeddingError, l2normalize, unknownTextVector } from './embedder.ts';
import { asEmbeddingError, describeError, filesFingerprint, LocalModelEmbedder, ModelLoader } from './modelLoader.ts';
import { halfToFloat } from './safetensors.ts';
import { STATIC_MODEL_FILES } from './static.ts';
import { decodeWordVectorFile, timeSlicer, type WordVectorData, type WordVectorHeader, wordHash } from './wordVectorFile.ts';
import { convertWordVectors, MAX_TOKENS, type WordVectorPackage, wordVectorModelId } from './wordVectors.ts';

/** Where loading says how it goes (a pino logger fits). */
export interface LoadLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface WordVectorEmbedderOptions {
  /** MEMORY_STATIC_CACHE_DIR; the converted file lives at `${cacheDir}/npm/${model id}/word-vectors.bin`. */
  cacheDir: string;
  wordVectors: WordVectorPackage;
  /** Where the conversion reports its progress and why it redoes a file. */
  logger?: LoadLog;
  /** A failed load may be retried after this many ms (at once if the file changed), default 30000. */
  retryAfterMs?: number;
  /** The clock retryAfterMs is measured with, default Date.now. */
  now?: () => number;
}

export const WORD_VECTOR_FILE = 'word-vectors.bin';

export class WordVectorEmbedder extends LocalModelEmbedder<WordVectorModel> implements Embedder {
  readonly source = 'static' as const;
  readonly model: string;
  readonly #options: WordVectorEmbedderOptions;
  readonly #file: string;
  protected readonly loader: ModelLoader<WordVectorModel>;

  constructor(options: WordVectorEmbedderOptions) {
    super();
    this.#options = options;
    this.model = wordVectorModelId(options.wordVectors);
    this.#file = path.join(options.cacheDir, 'npm', this.model, WORD_VECTOR_FILE);
    this.loader = new ModelLoader(() => this.#load(), {
      retryAfterMs: options.retryAfterMs ?? 30_000,
      now: options.now ?? Date.now,
      fingerprint: () => filesFingerprint(path.dirname(this.#file), [WORD_VECTOR_FILE]),
      toError: (err) => asEmbeddingError(err, 'model_unavailable', `word-vector model "${this.model}" failed to load from ${this.#file}`),
    });
  }

  /** Never starts a load: before load() it fails with model_unavailable. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const model = await this.loader.loaded(`word-vector model "${this.model}"`);
    try {
      return texts.map((text) => model.embed(text));
    } catch (err) {
      return this.embedFailed(err, `word-vector model "${this.model}"`);
    }
  }

  async #load(): Promise<WordVectorModel> {
    const { wordVectors: pkg, logger } = this.#options;
    const expected = { model: this.model, tableBytes: (await stat(pkg.table)).size };
    const pause = timeSlicer();
    const existing = await readFile(this.#file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (existing) {
      try {
        return WordVectorModel.from(await decodeWordVectorFile(existing, expected, pause));
      } catch (err) {
        logger?.warn({ file: this.#file, reason: describeError(err) }, 'converted word-vector file unusable: converting the package again');
      }
    }
    logger?.info({ package: `${pkg.name}@${pkg.version}`, file: this.#file }, 'converting the word-vector package (once)');
    const started = performance.now();
    await convertWordVectors(pkg, this.#file, (step) => logger?.info(step, 'converting the word-vector package'));
    logger?.info({ ms: Math.round(performance.now() - started) }, 'word-vector package converted');
    // Earlier versions converted the package into a model2vec folder here: ~70 MB nothing reads any more.
    await Promise.all(STATIC_MODEL_FILES.map((f) => rm(path.join(path.dirname(this.#file), f), { force: true })));
    return WordVectorModel.from(await decodeWordVectorFile(await readFile(this.#file), expected, pause));
  }
}

// The package's declarations of these two do not resolve under NodeNext (its index re-exports them without extensions).
const { BertNormalizer, BertPreTokenizer } = tokenizers as unknown as {
  BertNormalizer: new (config: object) => (text: string) => string;
  BertPreTokenizer: new () => (text: string) => string[];
};

const BERT_NORMALIZER = { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true };
/** What the tokenizer would take as its own tokens wherever they appear in a text: "[PAD]" counts, "[UNK]" is skipped. */
const SPECIAL_TOKENS = /(\[PAD\]|\[UNK\])/;
/** WordPiece's max_input_chars_per_word: a longer word is unknown. */
const MAX_WORD_CHARS = 100;
const PAD = -1;

/** The loaded tables, viewed in place, and the tokenizer's two steps. */
class WordVectorModel {
  readonly #normalize = new BertNormalizer(BERT_NORMALIZER);
  readonly #preTokenize = new BertPreTokenizer();
  readonly #half = halfToFloat();

  private constructor(
    readonly dim: number,
    private readonly maxChars: number,
    private readonly data: WordVectorData,
  ) {}

  static from({ header, data }: { header: WordVectorHeader; data: WordVectorData }): WordVectorModel {
    return new WordVectorModel(header.dims, header.maxChars, data);
  }

  embed(text: string): Float32Array {
    const rows = this.rows(text);
    if (rows.length === 0) return unknownTextVector(this.dim);
    const sum = new Float64Array(this.dim);
    const { vectors, weights } = this.data;
    for (const row of rows) {
      if (row === PAD) continue;
      const weight = weights[row]!;
      for (let i = 0, at = row * this.dim; i < this.dim; i++) sum[i]! += this.#half[vectors[at + i]!]! * weight;
    }
    const mean = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) mean[i] = sum[i]! / rows.length;
    l2normalize(mean);
    let norm = 0;
    for (const v of mean) norm += v * v;
    if (!Number.isFinite(norm)) throw new EmbeddingError('bad_response', 'word-vector model produced a non-finite vector');
    // Rows that cancel out exactly, or only "[PAD]"s, leave nothing to normalise.
    return norm === 0 ? unknownTextVector(this.dim) : mean;
  }

  /** The rows of the text's known words, in order, at most MAX_TOKENS of them ("[PAD]" counting as one). */
  private rows(text: string): number[] {
    let input = text;
    // Code points, as Python slices; UTF-16 length is an upper bound, so short texts skip the copy.
    if (input.length > this.maxChars) input = Array.from(input).slice(0, this.maxChars).join('');
    const rows: number[] = [];
    for (const section of input.split(SPECIAL_TOKENS)) {
      if (section === '[UNK]') continue;
      const words = section === '[PAD]' ? ['[PAD]'] : this.#preTokenize(this.#normalize(section));
      for (const word of words) {
        const row = word === '[PAD]' ? PAD : [...word].length > MAX_WORD_CHARS ? -1 : this.row(word);
        if (row === -1) continue;
        rows.push(row);
        if (rows.length === MAX_TOKENS) return rows;
      }
    }
    return rows;
  }

  /** The word's row, or -1 when the table does not have it. */
  private row(word: string): number {
    const { slots, wordEnds, words } = this.data;
    const bytes = Buffer.from(word, 'utf8');
    const mask = slots.length - 1;
    for (let at = wordHash(bytes) & mask; slots[at] !== 0; at = (at + 1) & mask) {
      const row = slots[at]! - 1;
      const start = row === 0 ? 0 : wordEnds[row - 1]!;
      if (wordEnds[row]! - start === bytes.length && bytes.equals(words.subarray(start, wordEnds[row]))) return row;
    }
    return -1;
  }
}
