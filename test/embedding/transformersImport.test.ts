import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TransformersEmbedder, type TransformersLibrary } from '../../server/embedding/transformers.ts';
import { ROOT } from '../helpers/mnemoEntry.ts';

// @huggingface/transformers is an optional dependency: an install without optional packages leaves it out, and a
// failed onnxruntime-node install leaves it unloadable. The embedder is given an import that fails as Node's does then.
const cacheDir = mkdtempSync(path.join(tmpdir(), 'mnemo-tf-import-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const failingImport = (error: Error) => (): Promise<TransformersLibrary> => Promise.reject(error);

/** Downloads allowed, so that the load goes straight to the library without looking for the model's files. */
const embedder = (importLibrary: () => Promise<TransformersLibrary>) =>
  new TransformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2', cacheDir, allowRemote: true, importLibrary });

describe('the transformers source without its library', () => {
  it('says the optional package is not installed and how to install it', async () => {
    const notInstalled = Object.assign(
      new Error(`Cannot find package '@huggingface/transformers' imported from ${path.join(ROOT, 'server/embedding/transformers.ts')}`),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    const transformers = embedder(failingImport(notInstalled));
    const message =
      '@huggingface/transformers is not installed (an optional dependency of mnemo): install it with `npm install --include=optional` to use the transformers source';
    await expect(transformers.load()).rejects.toMatchObject({ name: 'EmbeddingError', kind: 'model_unavailable', message });
    expect(transformers.state()).toBe('failed');
    expect(transformers.lastError()?.message).toBe(message);
  });

  it('names what failed when the package is installed but cannot be loaded', async () => {
    const brokenBinding = new Error('libonnxruntime.so.1: cannot open shared object file: No such file or directory');
    await expect(embedder(failingImport(brokenBinding)).load()).rejects.toMatchObject({
      kind: 'model_unavailable',
      message:
        '@huggingface/transformers could not be loaded (onnxruntime-node binary?): libonnxruntime.so.1: cannot open shared object file: No such file or directory',
    });
  });
});
