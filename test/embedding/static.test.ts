import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingError, unknownTextVector } from '../../server/embedding/embedder.ts';
import { STATIC_MODEL_FILES, StaticEmbedder, type StaticEmbedderOptions } from '../../server/embedding/static.ts';
import { type HubDouble, startHubDouble } from '../doubles/hub.ts';
import { testClock } from '../helpers/clock.ts';
import { pseudoRandomVector, SPECIAL_TOKENS, writeStaticModel } from '../helpers/models.ts';

const MODEL = 'minishlab/potion-test';
const DIM = 16;

// Words of three topics: each word is its topic's axis plus a smaller word-specific part, so texts on one
// topic are closer to each other than to texts on another.
const TOPICS: Record<string, string[]> = {
  animals: ['cat', 'kitten', 'dog', 'puppy', 'pets'],
  finance: ['stock', 'market', 'price', 'shares', 'fell'],
  weather: ['rain', 'storm', 'wind', 'forecast', 'cold'],
};
const VOCAB = [...Object.values(TOPICS).flat(), 'the', 'a', 'and', 'un', '##aff', '##able'];
const topicVectors = (token: string): number[] => {
  const topic = Object.values(TOPICS).findIndex((words) => words.includes(token));
  const own = pseudoRandomVector(token, DIM).map((v) => v * 0.3);
  if (topic >= 0) own[topic]! += 1;
  return own;
};

/** One axis per token, so a pooled vector shows exactly which tokens were used. */
const ONE_HOT_VOCAB = ['un', '##aff', '##able', 'aff', 'able', 'cafe'];
const ONE_HOT_TOKENS = [...SPECIAL_TOKENS, ...ONE_HOT_VOCAB];
const oneHot = (token: string) => ONE_HOT_TOKENS.map((t) => (t === token ? 1 : 0));

let hub: HubDouble;
let hubRoot: string;
let tmp: string;

beforeAll(async () => {
  hubRoot = mkdtempSync(path.join(tmpdir(), 'mnemo-hub-'));
  writeStaticModel(path.join(hubRoot, MODEL), { vocab: VOCAB, dim: DIM, vectors: topicVectors });
  // A repository without model.safetensors, like asking a transformers repo for model2vec files.
  writeStaticModel(path.join(hubRoot, 'org/incomplete'), { vocab: VOCAB, dim: DIM });
  rmSync(path.join(hubRoot, 'org/incomplete/model.safetensors'));
  hub = await startHubDouble({ root: hubRoot });
});
afterAll(async () => {
  await hub.close();
  rmSync(hubRoot, { recursive: true, force: true });
});
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-static-'));
  hub.requests.length = 0;
  hub.clearFaults();
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const embedder = (options: Partial<StaticEmbedderOptions> = {}) =>
  new StaticEmbedder({ model: MODEL, cacheDir: tmp, allowDownload: false, hubEndpoint: hub.url, ...options });

/** The topic model, written straight into the cache folder (as if downloaded earlier). */
function localTopicModel(options: Partial<StaticEmbedderOptions> = {}): StaticEmbedder {
  writeStaticModel(path.join(tmp, MODEL), { vocab: VOCAB, dim: DIM, vectors: topicVectors });
  return embedder(options);
}

async function loaded(e: StaticEmbedder): Promise<StaticEmbedder> {
  await e.load();
  return e;
}

async function embedOne(e: StaticEmbedder, text: string): Promise<number[]> {
  return Array.from((await e.embed([text]))[0]!);
}

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * b[i]!, 0) / (norm(a) * norm(b));
const resolveRequests = () => hub.requests.filter((r) => r.path.includes('/resolve/'));

async function loadError(e: StaticEmbedder): Promise<EmbeddingError> {
  const err = await e.load().then(
    () => null,
    (x: unknown) => x,
  );
  expect(err).toBeInstanceOf(EmbeddingError);
  return err as EmbeddingError;
}

describe('static embedder: loading from the local folder', () => {
  it('loads the three model2vec files from cacheDir/model without touching the network', async () => {
    const e = localTopicModel({ allowDownload: true });
    expect(e.state()).toBe('idle');
    expect(e.dimension()).toBeNull();
    await e.load();
    expect(e.state()).toBe('ready');
    expect(e.dimension()).toBe(DIM);
    expect(e.lastError()).toBeNull();
    expect(hub.requests).toEqual([]);
  });

  it('returns one unit-length vector of the model dimension per text, in order', async () => {
    const e = await loaded(localTopicModel());
    const vectors = await e.embed(['the cat', 'stock price', 'storm']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DIM);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(vectors[1]).toEqual((await e.embed(['stock price']))[0]);
  });

  it('is deterministic across calls and across instances', async () => {
    const a = await loaded(localTopicModel());
    const b = await loaded(embedder());
    const text = 'The kitten and the puppy';
    expect(await embedOne(a, text)).toEqual(await embedOne(a, text));
    expect(await embedOne(a, text)).toEqual(await embedOne(b, text));
  });

  it('puts texts on one topic closer together than texts on different topics', async () => {
    const e = await loaded(localTopicModel());
    const [cats, dogs, market, storm] = await e.embed([
      'the cat and the kitten',
      'a dog and a puppy',
      'stock market price fell',
      'cold wind and a storm',
    ]);
    expect(cosine(cats!, dogs!)).toBeGreaterThan(cosine(cats!, market!) + 0.3);
    expect(cosine(cats!, dogs!)).toBeGreaterThan(cosine(cats!, storm!) + 0.3);
    expect(cosine(market!, storm!)).toBeLessThan(cosine(cats!, dogs!));
  });

  it('is not loaded until load() is called: embed() fails with model_unavailable and starts nothing', async () => {
    const e = localTopicModel();
    await expect(e.embed(['cat'])).rejects.toMatchObject({ kind: 'model_unavailable', message: expect.stringContaining('not loaded') });
    expect(e.state()).toBe('idle');
  });

  it('lets embed() wait for a load in progress', async () => {
    const e = localTopicModel();
    const loading = e.load();
    expect(e.state()).toBe('loading');
    const [v] = await e.embed(['cat']);
    expect(v).toHaveLength(DIM);
    await loading;
  });
});

describe('static embedder: tokenisation and pooling as model2vec does it', () => {
  async function oneHotModel(): Promise<StaticEmbedder> {
    writeStaticModel(path.join(tmp, MODEL), { vocab: ONE_HOT_VOCAB, dim: ONE_HOT_TOKENS.length, vectors: oneHot });
    return loaded(embedder());
  }
  /** The pooled vector's non-zero axes, by token. */
  const usedTokens = (v: number[]) =>
    Object.fromEntries(v.flatMap((x, i) => (Math.abs(x) > 1e-6 ? [[ONE_HOT_TOKENS[i]!, Number(x.toFixed(4))]] : [])));
  const third = Number((1 / Math.sqrt(3)).toFixed(4));

  it('splits words into WordPiece pieces and pools their rows ("unaffable" → un, ##aff, ##able)', async () => {
    const e = await oneHotModel();
    expect(usedTokens(await embedOne(e, 'unaffable'))).toEqual({ un: third, '##aff': third, '##able': third });
  });

  it('pools no [CLS]/[SEP] rows and drops unknown tokens', async () => {
    const e = await oneHotModel();
    // "xyzzy" and "☃" are [UNK]; the [CLS], [SEP] and [UNK] axes stay zero.
    expect(usedTokens(await embedOne(e, 'unaffable xyzzy ☃'))).toEqual({ un: third, '##aff': third, '##able': third });
  });

  it('normalises text as the BERT tokenizer does: lowercase, accents stripped, punctuation split off', async () => {
    const e = await oneHotModel();
    expect(usedTokens(await embedOne(e, 'CAFÉ!'))).toEqual({ cafe: 1 });
  });

  it('gives a text without known tokens the documented fixed unit vector', async () => {
    const e = await oneHotModel();
    const expected = Array.from(unknownTextVector(ONE_HOT_TOKENS.length));
    expect(await embedOne(e, '')).toEqual(expected);
    expect(await embedOne(e, '  xyzzy ☃ ')).toEqual(expected);
    expect(norm(expected)).toBeCloseTo(1, 6);
  });

  it('uses at most the first 512 tokens of a text', async () => {
    const e = await loaded(localTopicModel());
    expect(await embedOne(e, `${'cat '.repeat(512)}${'stock '.repeat(300)}`)).toEqual(await embedOne(e, 'cat'));
  });

  it('scales rows by the per-token "weights" tensor when the model has one', async () => {
    writeStaticModel(path.join(tmp, MODEL), {
      vocab: ONE_HOT_VOCAB,
      dim: ONE_HOT_TOKENS.length,
      vectors: oneHot,
      weights: (t) => (t === 'cafe' ? 3 : 1),
    });
    const e = await loaded(embedder());
    const [w, u] = [3 / Math.sqrt(10), 1 / Math.sqrt(10)].map((x) => Number(x.toFixed(4)));
    expect(usedTokens(await embedOne(e, 'cafe un'))).toEqual({ cafe: w, un: u });
  });

  it('looks rows up through the "mapping" tensor of a vocabulary-quantized model', async () => {
    // Ten tokens share two rows: "un" and "aff" the first, every other token the second.
    const quantized = {
      rows: [
        [1, 0],
        [0, 1],
      ],
      rowOf: (t: string) => (t === 'un' || t === 'aff' ? 0 : 1),
    };
    writeStaticModel(path.join(tmp, MODEL), { vocab: ONE_HOT_VOCAB, dim: 2, quantized });
    const e = await loaded(embedder());
    expect(await embedOne(e, 'aff un')).toEqual([1, 0]);
    const [x, y] = await embedOne(e, 'aff able');
    expect(x).toBeCloseTo(Math.SQRT1_2, 6);
    expect(y).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it.each([
    ['F16', 1e-3],
    ['F64', 1e-7],
    ['I8', 2e-2],
  ] as const)('reads an %s embedding matrix and gives the vectors of the F32 model', async (dtype, tolerance) => {
    const f32 = await loaded(localTopicModel());
    const other = new StaticEmbedder({ model: 'minishlab/potion-other', cacheDir: tmp, allowDownload: false });
    writeStaticModel(path.join(tmp, 'minishlab/potion-other'), { vocab: VOCAB, dim: DIM, vectors: topicVectors, dtype });
    await other.load();
    const texts = ['the cat and the kitten', 'stock market', 'storm'];
    const [a, b] = [await f32.embed(texts), await other.embed(texts)];
    for (const [i, v] of a.entries()) for (const [j, x] of v.entries()) expect(Math.abs(x - b[i]![j]!)).toBeLessThan(tolerance);
    for (const v of b) expect(norm(v)).toBeCloseTo(1, 5);
  });
});

describe('static embedder: missing files', () => {
  it('fails with model_unavailable naming the folder and the files when downloading is off', async () => {
    const e = embedder();
    const err = await loadError(e);
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toContain(path.join(tmp, MODEL));
    for (const file of STATIC_MODEL_FILES) expect(err.message).toContain(file);
    expect(err.message).toContain('downloading is disabled');
    expect(e.state()).toBe('failed');
    expect(e.lastError()).toBe(err);
    expect(hub.requests).toEqual([]);
  });

  it('refuses a model id that would leave the cache folder', async () => {
    const e = new StaticEmbedder({ model: '../escape', cacheDir: path.join(tmp, 'cache'), allowDownload: true, hubEndpoint: hub.url });
    expect((await loadError(e)).message).toContain('not a hub model id');
    expect(existsSync(path.join(tmp, 'escape'))).toBe(false);
    expect(hub.requests).toEqual([]);
  });
});

describe('static embedder: downloading from the hub', () => {
  const modelDir = () => path.join(tmp, MODEL);

  it('downloads exactly config.json, tokenizer.json and model.safetensors, then loads', async () => {
    const e = embedder({ allowDownload: true });
    await e.load();
    expect(readdirSync(modelDir()).sort()).toEqual([...STATIC_MODEL_FILES].sort());
    for (const file of STATIC_MODEL_FILES)
      expect(readFileSync(path.join(modelDir(), file))).toEqual(readFileSync(path.join(hubRoot, MODEL, file)));
    expect(resolveRequests().map((r) => `${r.method} ${r.path}`)).toEqual(STATIC_MODEL_FILES.map((f) => `GET /${MODEL}/resolve/main/${f}`));
    // model.safetensors is an LFS file: the hub redirected it to the CDN path.
    expect(hub.requests.filter((r) => r.path.startsWith('/cdn-lfs/'))).toHaveLength(1);
    expect(await e.embed(['cat'])).toHaveLength(1);
  });

  it('downloads only the files that are missing', async () => {
    mkdirSync(modelDir(), { recursive: true });
    for (const file of ['config.json', 'tokenizer.json']) cpSync(path.join(hubRoot, MODEL, file), path.join(modelDir(), file));
    await embedder({ allowDownload: true }).load();
    expect(resolveRequests().map((r) => r.path)).toEqual([`/${MODEL}/resolve/main/model.safetensors`]);
  });

  it('rejects a download whose sha256 does not match and leaves no file behind', async () => {
    hub.fault('model.safetensors', { kind: 'corrupt' });
    const err = await loadError(embedder({ allowDownload: true }));
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toMatch(/checksum mismatch for model\.safetensors: expected sha256 [0-9a-f]{64}/);
    // Not even config.json and tokenizer.json, which downloaded fine: files are committed all together.
    expect(readdirSync(modelDir())).toEqual([]);
  });

  it('reports a file the repository does not have (404 EntryNotFound) and writes nothing', async () => {
    const e = new StaticEmbedder({ model: 'org/incomplete', cacheDir: tmp, allowDownload: true, hubEndpoint: hub.url });
    const err = await loadError(e);
    expect(err.message).toContain('the hub has no model.safetensors in org/incomplete at revision "main" (HTTP 404 EntryNotFound)');
    expect(readdirSync(path.join(tmp, 'org/incomplete'))).toEqual([]);
  });

  it('fails with model_unavailable on a hub error such as 503', async () => {
    hub.fault('config.json', { kind: 'status', status: 503 });
    const e = embedder({ allowDownload: true });
    const err = await loadError(e);
    expect(err.kind).toBe('model_unavailable');
    expect(err.message).toContain('HTTP 503');
    expect(e.state()).toBe('failed');
  });

  it('abandons a download that stalls', async () => {
    hub.fault('model.safetensors', { kind: 'stall' });
    const err = await loadError(embedder({ allowDownload: true, stallTimeoutMs: 200 }));
    expect(err.message).toContain('no data for 200 ms');
    expect(readdirSync(modelDir())).toEqual([]);
  });

  it('shares one attempt between concurrent load() calls', async () => {
    const e = embedder({ allowDownload: true });
    const loads = [e.load(), e.load(), e.load()];
    expect(e.state()).toBe('loading');
    await Promise.all(loads);
    expect(resolveRequests()).toHaveLength(STATIC_MODEL_FILES.length);
  });
});

describe('static embedder: a failed load is not sticky', () => {
  it('answers load() with the same error, without trying again, until retryAfterMs has passed', async () => {
    hub.fault('config.json', { kind: 'status', status: 503 }, 1);
    const e = embedder({ allowDownload: true, retryAfterMs: 60_000 });
    const first = await loadError(e);
    const requests = hub.requests.length;
    expect(await loadError(e)).toBe(first);
    expect(hub.requests.length).toBe(requests);
  });

  it('tries again after retryAfterMs and then succeeds', async () => {
    hub.fault('config.json', { kind: 'status', status: 503 }, 1);
    const clock = testClock();
    const e = embedder({ allowDownload: true, retryAfterMs: 60_000, now: clock.now });
    await loadError(e);
    clock.skip(60_000);
    await e.load();
    expect(e.state()).toBe('ready');
    expect(e.lastError()).toBeNull();
    expect(await e.embed(['cat'])).toHaveLength(1);
  });

  it('tries again at once when the model files appear, without waiting for retryAfterMs', async () => {
    const e = embedder({ retryAfterMs: 3_600_000 });
    await loadError(e);
    writeStaticModel(path.join(tmp, MODEL), { vocab: VOCAB, dim: DIM, vectors: topicVectors });
    await e.load();
    expect(e.state()).toBe('ready');
  });
});
