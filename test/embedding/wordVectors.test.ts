import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WORD_VECTOR_FILE, WordVectorEmbedder } from '../../server/embedding/wordVectorEmbedder.ts';
import { findWordVectorPackage, type WordVectorPackage, wordVectorModelId } from '../../server/embedding/wordVectors.ts';
import { loadVectorConfig } from '../../server/vectorConfig.ts';
import { type HubDouble, startHubDouble } from '../doubles/hub.ts';
import { startTestApp } from '../helpers/testApp.ts';
import { WORD_VECTOR_DIM, WORD_VECTORS, writeLargeWordVectorPackage, writeWordVectorPackage } from '../helpers/wordVectorPackage.ts';

const DIM = WORD_VECTOR_DIM;

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

let root: string;
let packageDir: string;
let pkg: WordVectorPackage;
let cache: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'mnemo-wordvec-'));
  packageDir = path.join(root, 'tiny-vectors');
  writeWordVectorPackage(packageDir);
  pkg = findWordVectorPackage(packageDir)!;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  cache = mkdtempSync(path.join(tmpdir(), 'mnemo-wordvec-cache-'));
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));

/** Collects what the embedder logs, to count its conversions. */
function recordingLogger() {
  const lines: { level: string; message: string; fields: object }[] = [];
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, message, fields });
  return {
    lines,
    logger: { info: at('info'), warn: at('warn') },
    conversions: () => lines.filter((l) => l.message.endsWith('(once)')).length,
  };
}

const embedder = (logger = recordingLogger().logger, wordVectors = pkg) => new WordVectorEmbedder({ cacheDir: cache, wordVectors, logger });
const convertedFile = (p = pkg) => path.join(cache, 'npm', wordVectorModelId(p), WORD_VECTOR_FILE);

describe('word-vector packages', () => {
  it('finds a package by folder with its name, version and licence; an absent one is null', () => {
    expect(pkg).toMatchObject({ name: 'tiny-vectors', version: '1.2.3', license: 'MIT', table: path.join(packageDir, 'tiny.json') });
    expect(findWordVectorPackage(path.join(root, 'nothing-here'))).toBeNull();
    expect(findWordVectorPackage('no-such-word-vector-package')).toBeNull();
    expect(findWordVectorPackage('../escape')).toBeNull();
  });

  it('names the model after the package, its version and the conversion recipe', () => {
    expect(wordVectorModelId(pkg)).toMatch(/^tiny-vectors@1\.2\.3\+\w+$/);
    expect(embedder().model).toBe(wordVectorModelId(pkg));
  });

  it('converts the package once: the next start reads the converted file', async () => {
    const log = recordingLogger();
    await embedder(log.logger).load();
    expect(readdirSync(path.dirname(convertedFile()))).toEqual([WORD_VECTOR_FILE]);
    const second = embedder(log.logger);
    await second.load();
    expect(log.conversions()).toBe(1);
    expect(second.dimension()).toBe(DIM);
  });

  it('removes the model2vec files earlier versions converted the package into', async () => {
    const folder = path.dirname(convertedFile());
    mkdirSync(folder, { recursive: true });
    for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) writeFileSync(path.join(folder, file), '{}');
    await embedder().load();
    expect(readdirSync(folder)).toEqual([WORD_VECTOR_FILE]);
  });

  it('logs how far the conversion got', async () => {
    const log = recordingLogger();
    await embedder(log.logger).load();
    expect(log.lines.map((l) => l.message)).toContain('word-vector package converted');
  });

  it('converts again when the converted file is damaged', async () => {
    await embedder().load();
    const file = convertedFile();
    const bytes = readFileSync(file);
    bytes[bytes.length - 20]! ^= 0xff;
    writeFileSync(file, bytes);
    const log = recordingLogger();
    const e = embedder(log.logger);
    await e.load();
    expect(log.conversions()).toBe(1);
    expect(log.lines.find((l) => l.level === 'warn')?.fields).toMatchObject({ reason: expect.stringContaining('checksum') });
    expect((await e.embed(['cat']))[0]).toHaveLength(DIM);
  });

  it("converts again when the package's table changed under the same version", async () => {
    await embedder().load();
    const changedDir = path.join(root, 'tiny-vectors-changed');
    writeWordVectorPackage(changedDir, { padding: 10 });
    const log = recordingLogger();
    await embedder(log.logger, findWordVectorPackage(changedDir)!).load();
    expect(log.conversions()).toBe(1);
  });

  it('embeds a word as its vector in the package', async () => {
    const e = embedder();
    await e.load();
    const [cat, kitten] = await e.embed(['cat', 'Kitten']);
    const unit = (v: readonly number[]) => v.map((x) => x / Math.hypot(...v));
    // Stored as 16-bit floats: within their precision of the package's values.
    for (const [word, vector] of [
      ['cat', cat!],
      ['kitten', kitten!],
    ] as const) {
      const expected = unit(WORD_VECTORS.find(([w]) => w === word)![1]);
      for (const [i, x] of expected.entries()) expect(vector[i]).toBeCloseTo(x, 3);
    }
  });

  it('puts texts on one topic closer together than texts on another', async () => {
    const e = embedder();
    await e.load();
    const [cat, kitten, market] = await e.embed(['a cat', 'the Kitten', 'stock market']);
    expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, market!));
  });

  it('weights words by IDF: a frequent word counts for less than a rare one', async () => {
    const e = embedder();
    await e.load();
    const [both, cat, the] = await e.embed(['the cat', 'cat', 'the']);
    expect(cosine(both!, cat!)).toBeGreaterThan(cosine(both!, the!));
  });

  it('skips words the table does not have, and words the tokenizer never produces', async () => {
    const e = embedder();
    await e.load();
    const [plain, noisy] = await e.embed(['cat', 'cat zebra café']);
    expect(cosine(plain!, noisy!)).toBeCloseTo(1, 5);
  });

  it('lets other work run while it converts a large package', async () => {
    const largeDir = path.join(root, 'large-vectors');
    writeLargeWordVectorPackage(largeDir, 10_000, 100);
    let turns = 0;
    const turned: number[] = [];
    const tick = () => {
      turns++;
      ticker = setImmediate(tick);
    };
    let ticker = setImmediate(tick);
    const logger = { info: (fields: { percent?: number }) => void (fields.percent !== undefined && turned.push(turns)), warn: () => {} };
    try {
      await new WordVectorEmbedder({ cacheDir: cache, wordVectors: findWordVectorPackage(largeDir)!, logger }).load();
    } finally {
      clearImmediate(ticker);
    }
    // Between the first and the last progress line most of the table was read: the event loop turned meanwhile.
    expect(turned.length).toBeGreaterThan(2);
    expect(turned.at(-1)!).toBeGreaterThan(turned[0]!);
  });
});

describe('the static source falls back to the package when its hub model cannot be had', () => {
  let hub: HubDouble;
  let hubRoot: string;
  beforeAll(async () => {
    hubRoot = mkdtempSync(path.join(tmpdir(), 'mnemo-wordvec-hub-'));
    hub = await startHubDouble({ root: hubRoot });
  });
  afterAll(async () => {
    await hub.close();
    rmSync(hubRoot, { recursive: true, force: true });
  });

  const engine = (env: Record<string, string>) =>
    loadVectorConfig(
      {
        MEMORY_STATIC_MODEL: 'org/absent',
        MEMORY_STATIC_CACHE_DIR: cache,
        MEMORY_STATIC_PACKAGE: packageDir,
        MEMORY_HF_ENDPOINT: hub.url,
        MEMORY_WORKER_INTERVAL_MS: '0',
        ...env,
      },
      cache,
    );

  it('uses the package at once when the hub model is missing and downloading is off, and says so', async () => {
    const app = await startTestApp({ engine: engine({ MEMORY_STATIC_ALLOW_DOWNLOAD: 'false' }) });
    try {
      expect((await app.services.vectors.loadForJob()).ready).toBe(true);
      const status = await app.services.vectors.embeddingStatus();
      expect(status).toMatchObject({ source: 'static', model: wordVectorModelId(pkg), dimension: DIM, state: 'ready' });
      expect(status.reason).toContain('static model org/absent cannot be had (its files are missing');
      expect(status.reason).toContain('npm package tiny-vectors@1.2.3 (MIT)');
    } finally {
      await app.close();
    }
  });

  it('uses the package after the hub download failed, with the failure as the reason', async () => {
    const app = await startTestApp({ engine: engine({ MEMORY_STATIC_ALLOW_DOWNLOAD: 'true' }) });
    try {
      expect((await app.services.vectors.loadForJob()).ready).toBe(true);
      const status = await app.services.vectors.embeddingStatus();
      expect(status.model).toBe(wordVectorModelId(pkg));
      expect(status.reason).toMatch(/static model org\/absent cannot be had \(.*downloading .* failed/);
      expect(hub.requests.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('says that neither can be had when the package is not installed either', async () => {
    const app = await startTestApp({
      engine: engine({ MEMORY_STATIC_ALLOW_DOWNLOAD: 'false', MEMORY_STATIC_PACKAGE: path.join(root, 'nothing-here') }),
    });
    try {
      const status = await app.services.vectors.embeddingStatus();
      expect(status.source).toBeNull();
      expect(status.reason).toContain('is not installed');
    } finally {
      await app.close();
    }
  });
});
