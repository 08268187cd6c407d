import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmbeddingError, unknownTextVector } from '../../server/embedding/embedder.ts';
import { StaticEmbedder } from '../../server/embedding/static.ts';
import { TRANSFORMERS_MODEL_FILES, TransformersEmbedder, type TransformersEmbedderOptions } from '../../server/embedding/transformers.ts';
import { type HubDouble, startHubDouble } from '../doubles/hub.ts';
import { onnxAvailable, pseudoRandomVector, SYSTEM_PYTHON, writeStaticModel, writeTinyOnnxModel } from '../helpers/models.ts';

// Counts pipeline() calls while running the real one, to see how many loads actually happen.
const pipelineCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('@huggingface/transformers', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@huggingface/transformers')>();
  return {
    ...actual,
    pipeline: (...args: Parameters<typeof actual.pipeline>) => {
      pipelineCalls.count++;
      return actual.pipeline(...args);
    },
  };
});

// The tiny ONNX model is built by Debian's python3-onnx. Without it these tests are skipped locally, but never
// in CI, where a missing package must fail loudly rather than silently skip the real loading code.
const skip = !onnxAvailable() && !process.env.CI;
if (skip) console.warn(`transformers embedder tests skipped: ${SYSTEM_PYTHON} cannot import onnx (apt-get install -y python3-onnx)`);
const itOnnx = it.skipIf(skip);

const MODEL = 'org/tiny-bert';
const DIM = 8;
const TOPICS = [
  ['cat', 'kitten', 'dog', 'puppy'],
  ['stock', 'market', 'price', 'shares'],
];
const VOCAB = [...TOPICS.flat(), 'the', 'and', 'un', '##aff', '##able'];
/** Topic axis plus a word-specific part; [CLS] and [SEP] are zero so mean pooling equals model2vec's. */
const vectors = (token: string): number[] => {
  if (token === '[CLS]' || token === '[SEP]') return new Array<number>(DIM).fill(0);
  const own = pseudoRandomVector(token, DIM).map((v) => v * 0.3);
  const topic = TOPICS.findIndex((words) => words.includes(token));
  if (topic >= 0) own[topic]! += 1;
  return own;
};

let models: string; // pristine generated models, copied into each test's cache folder
let hub: HubDouble;
let cacheDir: string;

beforeAll(async () => {
  if (skip) return;
  if (!onnxAvailable()) throw new Error(`${SYSTEM_PYTHON} cannot import onnx: CI must install python3-onnx`);
  models = mkdtempSync(path.join(tmpdir(), 'mnemo-onnx-'));
  writeTinyOnnxModel(models, { model: MODEL, vocab: VOCAB, dim: DIM, vectors });
  hub = await startHubDouble({ root: models });
  // The library's download host is a process-wide setting; pointing it at the double shows every request.
  const { env } = await import('@huggingface/transformers');
  env.remoteHost = hub.url;
});
afterAll(async () => {
  // Either may be missing when beforeAll failed or the tests were skipped.
  await hub?.close();
  if (models) rmSync(models, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(tmpdir(), 'mnemo-tf-'));
  hub?.requests.splice(0);
  pipelineCalls.count = 0;
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

const embedder = (options: Partial<TransformersEmbedderOptions> = {}) =>
  new TransformersEmbedder({ model: MODEL, cacheDir, allowRemote: false, ...options });

/** The tiny model, present in the cache folder. */
function localModel(options: Partial<TransformersEmbedderOptions> = {}): TransformersEmbedder {
  cpSync(path.join(models, MODEL), path.join(cacheDir, MODEL), { recursive: true });
  return embedder(options);
}

async function loadError(e: TransformersEmbedder): Promise<EmbeddingError> {
  const err = await e.load().then(
    () => null,
    (x: unknown) => x,
  );
  expect(err).toBeInstanceOf(EmbeddingError);
  return err as EmbeddingError;
}

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * b[i]!, 0) / (norm(a) * norm(b));

describe('transformers embedder', () => {
  itOnnx('loads the ONNX model from cacheDir offline and returns unit vectors of its dimension', async () => {
    const e = localModel();
    expect(e.state()).toBe('idle');
    await e.load();
    expect(e.state()).toBe('ready');
    expect(e.dimension()).toBe(DIM);
    const out = await e.embed(['the cat', 'stock market', 'unaffable']);
    expect(out).toHaveLength(3);
    for (const v of out) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DIM);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(hub.requests).toEqual([]);
  });

  itOnnx('mean-pools token rows: the same vectors as the static model on the same vocabulary and rows', async () => {
    const e = localModel();
    writeStaticModel(path.join(cacheDir, 'static/same'), { vocab: VOCAB, dim: DIM, vectors });
    const s = new StaticEmbedder({ model: 'static/same', cacheDir, allowDownload: false });
    await Promise.all([e.load(), s.load()]);
    const texts = ['the cat and the kitten', 'Unaffable', 'stock price'];
    const [a, b] = [await e.embed(texts), await s.embed(texts)];
    for (const [i, v] of a.entries()) for (const [j, x] of v.entries()) expect(x).toBeCloseTo(b[i]![j]!, 5);
  });

  itOnnx('puts texts on one topic closer together than texts on different topics', async () => {
    const e = localModel();
    await e.load();
    const [cats, dogs, market] = await e.embed(['the cat and the kitten', 'the dog and the puppy', 'stock market price']);
    expect(cosine(cats!, dogs!)).toBeGreaterThan(cosine(cats!, market!) + 0.3);
  });

  itOnnx('gives a text that pools to no direction the same fixed unit vector as the static embedder', async () => {
    const e = localModel();
    await e.load();
    // "" is [CLS] [SEP], whose rows this model sets to zero.
    expect(await e.embed([''])).toEqual([unknownTextVector(DIM)]);
  });

  itOnnx('embeds more texts than one batch holds, in order', async () => {
    const e = localModel();
    await e.load();
    const texts = Array.from({ length: 70 }, (_, i) => (i % 2 ? 'cat' : 'stock price'));
    const out = await e.embed(texts);
    expect(out).toHaveLength(70);
    expect(out[69]).toEqual(out[1]);
    expect(out[68]).toEqual(out[0]);
  });

  itOnnx('fails with model_unavailable naming the folder and the files when the model is missing', async () => {
    const e = embedder();
    const err = await loadError(e);
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toContain(path.join(cacheDir, MODEL));
    for (const file of TRANSFORMERS_MODEL_FILES) expect(err.message).toContain(file);
    expect(err.message).toContain('remote downloads are off');
    expect(e.state()).toBe('failed');
    expect(e.lastError()).toBe(err);
    expect(hub.requests).toEqual([]);
  });

  itOnnx('wraps a library failure (an unreadable model.onnx) in model_unavailable with the model and folder', async () => {
    const e = localModel();
    writeFileSync(path.join(cacheDir, MODEL, 'onnx/model.onnx'), 'not an onnx file');
    const err = await loadError(e);
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toContain(`transformers model "${MODEL}" failed to load (looked in ${path.join(cacheDir, MODEL)}`);
    expect(err.cause).toBeDefined();
  });

  itOnnx('is not loaded until load() is called: embed() fails with model_unavailable and starts nothing', async () => {
    const e = localModel();
    await expect(e.embed(['cat'])).rejects.toMatchObject({ kind: 'model_unavailable', message: expect.stringContaining('not loaded') });
    expect(e.state()).toBe('idle');
    expect(pipelineCalls.count).toBe(0);
  });

  itOnnx('shares one load between concurrent load() calls, and embed() waits for it', async () => {
    const e = localModel();
    const loads = [e.load(), e.load(), e.load()];
    expect(e.state()).toBe('loading');
    const [v] = await e.embed(['cat']);
    await Promise.all(loads);
    expect(v).toHaveLength(DIM);
    expect(pipelineCalls.count).toBe(1);
  });

  itOnnx('tries a failed load again as soon as the model files appear', async () => {
    const e = embedder({ retryAfterMs: 3_600_000 });
    await loadError(e);
    cpSync(path.join(models, MODEL), path.join(cacheDir, MODEL), { recursive: true });
    await e.load();
    expect(e.state()).toBe('ready');
    expect(e.lastError()).toBeNull();
  });

  itOnnx('with allowRemote, downloads a missing model from the hub into cacheDir', async () => {
    const e = embedder({ allowRemote: true });
    await e.load();
    for (const file of TRANSFORMERS_MODEL_FILES) expect(existsSync(path.join(cacheDir, MODEL, file))).toBe(true);
    expect(hub.requests.map((r) => r.path)).toContain(`/${MODEL}/resolve/main/onnx/model.onnx`);
    expect(e.dimension()).toBe(DIM);
  });

  itOnnx('with allowRemote, reports a model the hub does not have as model_unavailable', async () => {
    const e = embedder({ model: 'org/absent', allowRemote: true });
    const err = await loadError(e);
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toContain(
      `transformers model "org/absent" failed to load (looked in ${path.join(cacheDir, 'org/absent')}${path.sep}, then the hub)`,
    );
  });
});
