import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelApiDouble, startModelApi } from '../doubles/modelApi.ts';
import { E2eProvidersDocument } from '../generated/graphql.ts';
import { writeStaticModel } from '../helpers/models.ts';
import { GET_SETTINGS, IMPORT_MEMORIES, REINDEX_JOB, START_REINDEX } from '../helpers/operations.ts';
import { type E2E, modelApiEnv, screenshot, startE2E } from './harness.ts';

const WORDS = [
  'the',
  'user',
  'likes',
  'prefers',
  'dark',
  'light',
  'theme',
  'coffee',
  'tea',
  'rust',
  'python',
  'deploys',
  'on',
  'tuesday',
  'editor',
  'note',
  'project',
  'meeting',
  'about',
  'and',
];
const MODEL = 'e2e/static-words';
const MEMORIES = 100;
/** A word every memory has and the model's test call does not: what the model API double holds to catch a job running. */
const IN_EVERY_MEMORY = 'note';

let e2e: E2E;
let api: ModelApiDouble;
let models: string;

const memory = (i: number) => ({
  apiKeyId: i % 2 === 0 ? 'acme' : 'globex',
  content: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${IN_EVERY_MEMORY} ${i}`,
});

beforeAll(async () => {
  // The embedding model is an API (the double), as in production, so that a test can hold a job's calls; the static
  // model is there to switch to.
  api = await startModelApi();
  models = mkdtempSync(path.join(tmpdir(), 'mnemo-e2e-models-'));
  writeStaticModel(path.join(models, MODEL), { vocab: [...WORDS, IN_EVERY_MEMORY].filter((w, i, a) => a.indexOf(w) === i), dim: 32 });
  e2e = await startE2E({
    env: {
      ...modelApiEnv(api),
      MEMORY_STATIC_MODEL: MODEL,
      MEMORY_STATIC_CACHE_DIR: models,
      // No background worker: memories stay pending until a reindex embeds them.
      MEMORY_WORKER_INTERVAL_MS: '0',
      // One memory per batch: every batch is a progress event, and a job cancelled at its first batch has most left.
      MEMORY_EMBEDDING_BATCH_SIZE: '1',
      // No embedding cache: a forced reindex calls the model again, where the double can hold it.
      MEMORY_EMBEDDING_CACHE_MAX: '0',
    },
  });
  const { importMemories } = await e2e.gql(IMPORT_MEMORIES, { memories: Array.from({ length: MEMORIES }, (_, i) => memory(i)) });
  expect(importMemories).toMatchObject({ imported: MEMORIES, rejected: [] });
}, 120_000);

afterAll(async () => {
  // The double first: a job still held (a test failed) then fails its batches instead of keeping mnemo from stopping.
  await api?.close();
  await e2e?.close();
  if (models) rmSync(models, { recursive: true, force: true });
});

const progressOf = async () => Number(await e2e.page.getByRole('progressbar', { name: 'Reindex progress' }).getAttribute('aria-valuenow'));
const job = () => e2e.page.getByLabel('Reindex job');

describe('the Engine tab', () => {
  it('shows every part of the engine, with Qdrant honestly not configured', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Engine' }).click();
    const database = await page.getByRole('article', { name: 'Database status' }).textContent();
    expect(database).toContain('Ready');
    expect(database).toMatch(/SQLite 3\.\d+\.\d+, one file in the data folder/);
    expect(database).toContain('mnemo.db');
    const keyword = page.getByRole('article', { name: 'Keyword status' });
    await expect(keyword.textContent()).resolves.toContain('Ready');
    await expect(keyword.textContent()).resolves.toContain(String(MEMORIES));
    const vectors = page.getByRole('article', { name: 'Vector store status' });
    await vectors.getByText('Pending', { exact: true }).waitFor();
    await expect(vectors.textContent()).resolves.toMatch(new RegExp(`Pending reindex\\s*${MEMORIES}`));
    const qdrant = await page.getByRole('article', { name: 'Qdrant status' }).textContent();
    expect(qdrant).toContain('Not configured');
    expect(qdrant).toContain('Until then vectors live in sqlite-vec');
    await expect(page.getByRole('article', { name: 'Embedding status' }).textContent()).resolves.toContain('embed-1');
    await expect(page.getByRole('article', { name: 'Rerank status' }).textContent()).resolves.toContain('Off');
    await page.getByText('No reindex has run yet.').waitFor();
  });

  it('reindexes with a live progress bar that reaches 100% and completes', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Reindex now' }).click();
    await job().getByText('Completed').waitFor({ timeout: 30_000 });
    expect(await progressOf()).toBe(100);
    const text = await job().textContent();
    expect(text).toContain(`${MEMORIES} / ${MEMORIES}`);
    expect(text).toMatch(/Failures\s*0/);
    // The status cards follow: every memory has its vector now.
    const vectors = page.getByRole('article', { name: 'Vector store status' });
    await vectors.getByText('Ready').waitFor();
    await expect(vectors.textContent()).resolves.toMatch(new RegExp(`Rows\\s*${MEMORIES}`));
    await page.getByRole('article', { name: 'Embedding status' }).getByText('Ready').waitFor();
    // Let the bar's width transition finish before the picture.
    await page.waitForFunction(() => {
      const fill = document.querySelector<HTMLElement>('[aria-label="Reindex progress"] .bar-fill');
      return !!fill && fill.getBoundingClientRect().width >= fill.parentElement!.getBoundingClientRect().width - 0.5;
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'engine');
  });

  it('follows a job started outside the page, live', async () => {
    const hold = api.hold(IN_EVERY_MEMORY);
    const { reindex } = await e2e.gql(START_REINDEX, { force: true });
    expect(reindex).toMatchObject({ status: 'RUNNING', total: MEMORIES });
    await hold.reached;
    // Found by the page's poll while its first batch is held, then followed to its end.
    await job().getByText(reindex.id.slice(0, 8)).waitFor({ timeout: 10_000 });
    await job().getByText('Running').waitFor();
    hold.release();
    await job().getByText('Completed').waitFor({ timeout: 30_000 });
    expect(await progressOf()).toBe(100);
    await expect(job().textContent()).resolves.toContain(`${MEMORIES} / ${MEMORIES}`);
  }, 60_000);

  it('says how many memories a running full reindex has left, not how many were waiting before it', async () => {
    const hold = api.hold(IN_EVERY_MEMORY);
    const { reindex } = await e2e.gql(START_REINDEX, { force: true });
    await hold.reached;
    const card = e2e.page.getByRole('region', { name: 'Reindex', exact: true });
    try {
      await job().getByText(reindex.id.slice(0, 8)).waitFor({ timeout: 10_000 });
      await card.getByText(`${MEMORIES} left in this full reindex`).waitFor();
      expect(await card.textContent()).not.toContain('waiting now');
    } finally {
      hold.release();
    }
    await job().getByText('Completed').waitFor({ timeout: 30_000 });
    await card.getByText('0 waiting now').waitFor();
  }, 60_000);

  it('cancels a running full reindex', async () => {
    const { page } = e2e;
    const hold = api.hold(IN_EVERY_MEMORY);
    await page.getByRole('button', { name: 'Force full reindex' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start full reindex' }).click();
    await hold.reached;
    await job().getByText('Running').waitFor();
    await job().getByRole('button', { name: 'Cancel' }).click();
    await job().getByRole('button', { name: 'Cancelling…' }).waitFor();
    // The job stops at the batch after the cancellation reaches mnemo, milliseconds after the click (the page sends
    // it as it shows "Cancelling…"): the batches left, a call to the model for each memory, are the margin.
    hold.release();
    await job().getByText('Cancelled').waitFor();
    expect(await progressOf()).toBeLessThan(100);
    const { reindexJob } = await e2e.gql(REINDEX_JOB);
    expect(reindexJob?.status).toBe('CANCELLED');
    expect(reindexJob?.processed).toBeLessThan(reindexJob!.total);
  });

  it('saves a switch of the embedding source', async () => {
    const { page } = e2e;
    const form = page.getByRole('form', { name: 'Embedding source' });
    await form.getByRole('radio', { name: 'Static' }).check();
    await form.getByRole('button', { name: 'Save embedding' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const { memorySettings } = await e2e.gql(GET_SETTINGS);
    expect(memorySettings.embeddingSource).toBe('STATIC');
    await page.getByRole('article', { name: 'Embedding status' }).getByText('embeddingSource is STATIC').waitFor();
  });

  it('adds a provider with a write-only API key, removes the key, and deletes the provider', async () => {
    const { page } = e2e;
    const secret = 'sk-e2e-SECRET-7f3a9c';
    await page.getByRole('button', { name: 'Add provider' }).click();
    const editor = page.getByRole('form', { name: 'New provider' });
    await editor.getByLabel('Provider ID').fill('acme-ai');
    await editor.getByLabel('Base URL').fill('https://embeddings.example.com/v1');
    await editor.getByLabel('Model 1 name').fill('text-embedding-3-small');
    await editor.getByLabel('Model 1 dimension').fill('1536');
    await editor.getByRole('button', { name: 'Add model' }).click();
    await editor.getByLabel('Model 2 name').fill('rerank-v3');
    await editor.getByLabel('Model 2 kind').selectOption('RERANK');
    await editor.getByLabel('API key').fill(secret);
    await editor.getByRole('button', { name: 'Save provider' }).click();

    const row = page.getByRole('row', { name: 'Provider acme-ai' });
    await row.getByText('key set').waitFor();
    await expect(row.textContent()).resolves.toContain('text-embedding-3-small');
    expect(await page.content()).not.toContain(secret);
    const { embeddingProviders } = await e2e.gql(E2eProvidersDocument);
    expect(JSON.stringify(embeddingProviders)).not.toContain(secret);
    // The environment's provider (the model API double) comes first.
    expect(embeddingProviders).toEqual([
      expect.objectContaining({ id: 'env' }),
      {
        id: 'acme-ai',
        baseUrl: 'https://embeddings.example.com/v1',
        hasApiKey: true,
        models: [
          { name: 'text-embedding-3-small', kind: 'EMBEDDING', dimension: 1536 },
          { name: 'rerank-v3', kind: 'RERANK', dimension: null },
        ],
      },
    ]);

    // Editing never shows the key; leaving the field empty keeps it, "Remove key" sends "".
    await row.getByRole('button', { name: 'Edit acme-ai' }).click();
    const edit = page.getByRole('form', { name: 'Edit provider acme-ai' });
    expect(await edit.getByLabel('API key').inputValue()).toBe('');
    await edit.getByRole('button', { name: 'Remove key' }).click();
    await edit.getByRole('button', { name: 'Save provider' }).click();
    await row.getByText('no key').waitFor();
    expect((await e2e.gql(E2eProvidersDocument)).embeddingProviders.map(({ id, hasApiKey }) => ({ id, hasApiKey }))).toEqual([
      { id: 'env', hasApiKey: true },
      { id: 'acme-ai', hasApiKey: false },
    ]);

    await row.getByRole('button', { name: 'Delete acme-ai' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete provider' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await e2e.gql(E2eProvidersDocument)).embeddingProviders.map(({ id }) => ({ id }))).toEqual([{ id: 'env' }]);
  });
});
