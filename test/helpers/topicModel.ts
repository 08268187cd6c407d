/**
 * A generated model2vec model whose token vectors are designed by topic, so tests can say which texts are
 * close in meaning without sharing a word: every word of a topic points along that topic's axis, and
 * filler words point weakly along an axis of their own. "mango" is then close to "I eat banana" and far
 * from "I write rust". Loaded by the real StaticEmbedder, from the hub's file layout.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadVectorConfig, type VectorConfig } from '../../server/vectorConfig.ts';
import { writeStaticModel } from './models.ts';

export const TOPICS = {
  fruit: ['fruit', 'apple', 'banana', 'mango', 'cherry', 'papaya', 'smoothie'],
  code: ['code', 'python', 'rust', 'compiler', 'typescript', 'debugger'],
  pets: ['pet', 'cat', 'dog', 'kitten', 'puppy', 'hamster'],
  travel: ['travel', 'paris', 'flight', 'hotel', 'trip', 'airport'],
  music: ['music', 'guitar', 'piano', 'jazz', 'violin'],
  weather: ['weather', 'rain', 'snow', 'sunny', 'umbrella'],
  sport: ['sport', 'tennis', 'football', 'running', 'marathon'],
} as const;
export type Topic = keyof typeof TOPICS;

export const FILLER = [
  'i',
  'eat',
  'like',
  'love',
  'write',
  'the',
  'my',
  'a',
  'is',
  'on',
  'and',
  'in',
  'to',
  'with',
  'play',
  'go',
  'about',
  'of',
  'what',
  'do',
  'we',
  'it',
  'every',
  'day',
  'notes',
  'note',
  'old',
  'new',
];

/** How strongly a filler word pulls a text towards the filler axis, next to 1 for a topic word. */
const FILLER_WEIGHT = 0.2;

/**
 * Writes the model at `${cacheDir}/${model}` with `dim` dimensions (at least one per topic plus one for
 * filler words; extra dimensions stay zero, so models of different sizes rank alike).
 */
export function writeTopicModel(cacheDir: string, model = 'test/topics', dim = 8): string {
  const topics = Object.keys(TOPICS) as Topic[];
  if (dim < topics.length + 1) throw new Error(`a topic model needs at least ${topics.length + 1} dimensions`);
  const axisOf = new Map<string, number>();
  for (const [axis, topic] of topics.entries()) for (const word of TOPICS[topic]) axisOf.set(word, axis);
  const fillerAxis = topics.length;
  writeStaticModel(path.join(cacheDir, model), {
    vocab: [...axisOf.keys(), ...FILLER],
    dim,
    vectors: (token) => {
      const row = new Array<number>(dim).fill(0);
      const axis = axisOf.get(token);
      if (axis !== undefined) row[axis] = 1;
      else if ((FILLER as readonly string[]).includes(token)) row[fillerAxis] = FILLER_WEIGHT;
      return row;
    },
  });
  return cacheDir;
}

/** A unit vector along one topic's axis: what a one-word query of that topic embeds to. */
export function topicVector(topic: Topic, dim = 8): Float32Array {
  const v = new Float32Array(dim);
  v[(Object.keys(TOPICS) as Topic[]).indexOf(topic)] = 1;
  return v;
}

/**
 * The environment of an engine that uses the generated model and nothing from the network: no download, no
 * background worker (tests embed through reindex jobs and the lazy backfill, which they can observe).
 * Texts below a cosine similarity of 0.5 are not vector candidates, so another topic never matches.
 */
export function topicEngineEnv(cacheDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    MEMORY_STATIC_MODEL: 'test/topics',
    MEMORY_STATIC_CACHE_DIR: cacheDir,
    MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
    MEMORY_STATIC_PACKAGE: '',
    MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false',
    MEMORY_WORKER_INTERVAL_MS: '0',
    MEMORY_VECTOR_MIN_SIMILARITY: '0.5',
    ...env,
  };
}

/** That engine's configuration, for a test app in this process. */
export function topicEngine(cacheDir: string, env: Record<string, string> = {}): VectorConfig {
  // Only the static model is read; the data folder would hold the others.
  return loadVectorConfig(topicEngineEnv(cacheDir, env), cacheDir);
}

/** A fresh folder holding the topic model. */
export function topicModelDir(): string {
  return writeTopicModel(mkdtempSync(path.join(tmpdir(), 'mnemo-models-')));
}
