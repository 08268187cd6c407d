import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as wordVectors from '../../server/embedding/wordVectors.ts';
import { loadVectorConfig } from '../../server/vectorConfig.ts';
import { CREATE_MEMORY, RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp } from '../helpers/testApp.ts';
import { writeWordVectorPackage } from '../helpers/wordVectorPackage.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'mnemo-wordvec-loading-'));
  writeWordVectorPackage(path.join(root, 'tiny-vectors'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

/** Holds every conversion of a word-vector package until `release` is called; `reached` resolves when one waits. */
function holdConversions() {
  const convert = wordVectors.convertWordVectors;
  let release!: () => void;
  let reach!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  vi.spyOn(wordVectors, 'convertWordVectors').mockImplementation(async (...args) => {
    reach();
    await released;
    return convert(...args);
  });
  return { release, reached };
}

it('answers a retrieve from keyword search while the word-vector model is loading, and says so', async () => {
  const cache = path.join(root, 'cache');
  const engine = loadVectorConfig(
    {
      MEMORY_STATIC_MODEL: 'org/absent',
      MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
      MEMORY_STATIC_CACHE_DIR: cache,
      MEMORY_STATIC_PACKAGE: path.join(root, 'tiny-vectors'),
      MEMORY_WORKER_INTERVAL_MS: '0',
    },
    cache,
  );
  const conversion = holdConversions();
  const app = await startTestApp({ engine });
  try {
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    const apiKeyId = `k-${randomUUID().slice(0, 8)}`;
    await app.ok(CREATE_MEMORY, { input: { apiKeyId, content: 'the cat sleeps' } });
    const input = { apiKeyId, query: 'cat', strategy: 'HYBRID' } as const;
    // The first retrieve starts loading the model in the background; the next one comes while it converts.
    await app.ok(RETRIEVE, { input });
    await conversion.reached;
    const { retrieve } = await app.ok(RETRIEVE, { input });
    expect(retrieve.items.map((i) => i.memory.content)).toEqual(['the cat sleeps']);
    expect(retrieve.resolution).toMatchObject({ tiers: ['KEYWORD'], fallback: true });
    expect(retrieve.resolution.fallbackReason).toMatch(/tiny-vectors@1\.2\.3\+\w+ is loading/);
  } finally {
    conversion.release();
    await app.close();
  }
});
