/**
 * Generators for the small embedding models the embedding tests load. No model hub is reachable in tests, so
 * the real loading code runs on models written here, in exactly the file layout of the hub repositories:
 * model2vec repos (minishlab/potion-*) hold config.json, tokenizer.json and model.safetensors; transformers.js
 * repos (Xenova/*) hold config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx.
 */

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type TensorEntry, writeSafetensors } from '../../server/embedding/safetensors.ts';

/** Debian's python; the pyenv python3 on PATH has no onnx (toolchain notes, pitfall 12). */
export const SYSTEM_PYTHON = '/usr/bin/python3';
const ONNX_SCRIPT = path.join(import.meta.dirname, 'tiny_onnx_model.py');

/** BERT's special tokens, placed first in every generated vocabulary (ids 0–3). */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

export interface ModelSpec {
  /** Word pieces besides the special tokens; continuation pieces start with "##". */
  vocab: string[];
  dim: number;
  /** The row of each token (special tokens included); pseudo-random but deterministic when left out. */
  vectors?: (token: string) => number[];
}

export interface StaticModelSpec extends ModelSpec {
  /** How model.safetensors stores the matrix; model2vec writes F32 by default and F16/F64/I8 when quantized. */
  dtype?: 'F32' | 'F16' | 'F64' | 'I8';
  /** Writes the per-token "weights" tensor some model2vec versions have. */
  weights?: (token: string) => number;
  /** config.json "normalize"; potion models say true. */
  normalize?: boolean;
  /**
   * A vocabulary-quantized model (model2vec's `vocabulary_quantization`): the matrix holds only `rows`, and a
   * "mapping" tensor gives each token's row. `vectors` is then unused.
   */
  quantized?: { rows: number[][]; rowOf: (token: string) => number };
}

export interface WrittenModel {
  /** The folder holding the model's files. */
  dir: string;
  /** The full vocabulary in id order, special tokens first. */
  tokens: string[];
  /** The matrix rows as written, before any dtype rounding. */
  matrix: number[][];
}

/** A WordPiece BERT tokenizer.json (as bert-base-uncased has it): lowercasing, accent stripping, [CLS] … [SEP]. */
export function bertTokenizerJson(tokens: readonly string[]): object {
  const id = (t: string) => tokens.indexOf(t);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t) => ({
      id: id(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
    },
  };
}

/** Writes a model2vec model (tokenizer.json, model.safetensors, config.json) into `dir`. */
export function writeStaticModel(dir: string, spec: StaticModelSpec): WrittenModel {
  const { tokens, matrix } = spec.quantized ? { tokens: vocabulary(spec.vocab), matrix: spec.quantized.rows } : buildMatrix(spec);
  const dtype = spec.dtype ?? 'F32';
  const tensors: TensorEntry[] = [{ name: 'embeddings', dtype, shape: [matrix.length, spec.dim], values: matrix.flat() }];
  if (spec.weights) tensors.push({ name: 'weights', dtype: 'F32', shape: [tokens.length], values: tokens.map(spec.weights) });
  if (spec.quantized) tensors.push({ name: 'mapping', dtype: 'I64', shape: [tokens.length], values: tokens.map(spec.quantized.rowOf) });

  mkdirSync(dir, { recursive: true });
  writeJson(path.join(dir, 'tokenizer.json'), bertTokenizerJson(tokens));
  writeFileSync(path.join(dir, 'model.safetensors'), writeSafetensors(tensors));
  // As model2vec's save_pretrained writes it for potion-base-8M.
  writeJson(path.join(dir, 'config.json'), {
    model_type: 'model2vec',
    architectures: ['StaticModel'],
    tokenizer_name: 'baai/bge-base-en-v1.5',
    apply_pca: spec.dim,
    apply_zipf: true,
    hidden_dim: spec.dim,
    seq_length: 1000000,
    normalize: spec.normalize ?? true,
    embedding_dtype: { F32: 'float32', F16: 'float16', F64: 'float64', I8: 'int8' }[dtype],
  });
  return { dir, tokens, matrix };
}

let onnxProbe: boolean | undefined;
/** Whether /usr/bin/python3 can import onnx (Debian package python3-onnx). */
export function onnxAvailable(): boolean {
  onnxProbe ??= spawnSync(SYSTEM_PYTHON, ['-c', 'import onnx, numpy'], { stdio: 'ignore' }).status === 0;
  return onnxProbe;
}

/**
 * Writes `${root}/${model}/{config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx}`: a BERT-shaped
 * ONNX graph whose last_hidden_state is each token's row, so mean pooling gives the mean of the rows (including
 * [CLS] and [SEP], which transformers.js adds).
 */
export function writeTinyOnnxModel(root: string, spec: ModelSpec & { model?: string }): WrittenModel {
  const { tokens, matrix } = buildMatrix(spec);
  const dir = path.join(root, spec.model ?? 'org/name');
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  writeJson(path.join(dir, 'config.json'), {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: spec.dim,
    vocab_size: tokens.length,
    max_position_embeddings: 512,
  });
  writeJson(path.join(dir, 'tokenizer.json'), bertTokenizerJson(tokens));
  writeJson(path.join(dir, 'tokenizer_config.json'), {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
  });
  const run = spawnSync(SYSTEM_PYTHON, [ONNX_SCRIPT], {
    input: JSON.stringify({ output: path.join(dir, 'onnx', 'model.onnx'), embeddings: matrix }),
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(`${SYSTEM_PYTHON} ${ONNX_SCRIPT} failed (status ${run.status}): ${run.stderr || run.error?.message}`);
  }
  return { dir, tokens, matrix };
}

/** A deterministic pseudo-random vector in [-1, 1)^dim for a token. */
export function pseudoRandomVector(token: string, dim: number): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < dim; block++) {
    const digest = createHash('sha256').update(`${token}\u0000${block}`).digest();
    for (let i = 0; i + 2 <= digest.length && out.length < dim; i += 2) out.push(digest.readUInt16LE(i) / 32768 - 1);
  }
  return out;
}

function vocabulary(vocab: string[]): string[] {
  const tokens = [...SPECIAL_TOKENS, ...vocab.filter((t) => !(SPECIAL_TOKENS as readonly string[]).includes(t))];
  if (new Set(tokens).size !== tokens.length) throw new Error('vocab has duplicate tokens');
  return tokens;
}

function buildMatrix(spec: ModelSpec): { tokens: string[]; matrix: number[][] } {
  const tokens = vocabulary(spec.vocab);
  const matrix = tokens.map((t) => {
    const row = spec.vectors ? spec.vectors(t) : pseudoRandomVector(t, spec.dim);
    if (row.length !== spec.dim) throw new Error(`vector of "${t}" has ${row.length} values, expected ${spec.dim}`);
    return row;
  });
  return { tokens, matrix };
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2));
}
