import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { E2eQdrantSettingsDocument, E2eQdrantStatusDocument } from '../generated/graphql.ts';
import { IMPORT_MEMORIES } from '../helpers/operations.ts';
import { writeTopicModel } from '../helpers/topicModel.ts';
import { type E2E, screenshot, startE2E } from './harness.ts';

// The Qdrant card and panel of the Engine tab in Chromium, against a real `mnemo serve` whose Qdrant is the
// test double running in this process (it requires an API key, which is typed into the page once).

const SECRET = 'qd-e2e-SECRET-51c7d2';
const COLLECTION = 'mnemo_memory';
const MEMORIES = [
  { apiKeyId: 'acme', content: 'I eat banana every day' },
  { apiKeyId: 'acme', content: 'I love a mango smoothie' },
  { apiKeyId: 'acme', content: 'I write rust and python' },
  { apiKeyId: 'acme', content: 'my cat and my dog' },
  { apiKeyId: 'globex', content: 'papaya and cherry' },
];

let e2e: E2E;
let qdrant: QdrantDouble;
let models: string;

beforeAll(async () => {
  qdrant = await startQdrantDouble({ apiKey: SECRET });
  // The generated topic model (see helpers/topicModel.ts): "mango" is close to banana and smoothie, far from rust.
  models = writeTopicModel(mkdtempSync(path.join(tmpdir(), 'mnemo-e2e-models-')));
  e2e = await startE2E({
    env: {
      MEMORY_STATIC_MODEL: 'test/topics',
      MEMORY_STATIC_CACHE_DIR: models,
      // No background worker: vectors reach sqlite-vec and Qdrant through the reindex the test starts.
      MEMORY_WORKER_INTERVAL_MS: '0',
    },
  });
  const { importMemories } = await e2e.gql(IMPORT_MEMORIES, { memories: MEMORIES });
  expect(importMemories).toMatchObject({ imported: MEMORIES.length, rejected: [] });
}, 120_000);

afterAll(async () => {
  await e2e?.close();
  await qdrant?.close();
  if (models) rmSync(models, { recursive: true, force: true });
});

const card = () => e2e.page.getByRole('article', { name: 'Qdrant status' });
const connection = () => e2e.page.getByRole('form', { name: 'Qdrant connection' });
const job = () => e2e.page.getByLabel('Reindex job');

describe('the Qdrant card and panel', () => {
  it('shows Qdrant as not configured before a URL is set', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Engine' }).click();
    await card().getByText('Not configured').waitFor();
    await expect(connection().getByLabel('Use Qdrant as the vector store').isChecked()).resolves.toBe(false);
    await expect(connection().getByRole('button', { name: 'Test connection' }).isDisabled()).resolves.toBe(true);
  });

  it('connects and enables Qdrant with a write-only API key', async () => {
    const { page } = e2e;
    await connection().getByLabel('URL').fill(qdrant.url);
    await connection().getByLabel('API key').fill(SECRET);
    await connection().getByLabel('Use Qdrant as the vector store').check();
    await connection().getByRole('button', { name: 'Save Qdrant settings' }).click();
    await connection().getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await connection().getByText('key set').waitFor();
    // The key field is emptied and never filled from the server.
    expect(await connection().getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    const { qdrantSettings, memorySettings } = await e2e.gql(E2eQdrantSettingsDocument);
    expect(qdrantSettings).toMatchObject({ enabled: true, url: qdrant.url, hasApiKey: true });
    expect(memorySettings.vectorStore).toBe('QDRANT');
    // The card follows at its next refresh.
    await card().getByText(COLLECTION).waitFor({ timeout: 10_000 });
  });

  it('tests the connection', async () => {
    await connection().getByRole('button', { name: 'Test connection' }).click();
    const result = connection().getByRole('status', { name: 'Connection test' });
    await result.waitFor();
    await expect(result.textContent()).resolves.toMatch(/Connected: Qdrant is ready, answered in [\d.]+ ms/);
  });

  it('fills Qdrant by a reindex: the card shows the points', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Reindex now' }).click();
    await job().getByText('Completed').waitFor({ timeout: 30_000 });
    // Embedding every memory, then carrying each to Qdrant, in the same job.
    await expect(job().textContent()).resolves.toContain(`${2 * MEMORIES.length} / ${2 * MEMORIES.length}`);
    // The card follows at its next refresh.
    await expect.poll(() => card().textContent(), { timeout: 10_000 }).toMatch(new RegExp(`Points\\s*${MEMORIES.length}`));
    const text = await card().textContent();
    expect(text).toContain('Ready');
    expect(text).toMatch(/Pending sync\s*0/);
    expect(text).toContain('fits the model');
    expect(qdrant.collections.get(COLLECTION)?.points.size).toBe(MEMORIES.length);
  });

  /** A search test asking for more hits than the server gives: the form and its Top K field. */
  async function searchForTooManyHits() {
    const form = e2e.page.getByRole('form', { name: 'Qdrant search test' });
    await form.getByLabel('Query').fill('mango');
    await form.getByLabel('API key ID').fill('acme');
    const topK = form.getByLabel('Top K');
    await topK.fill('500');
    await form.getByRole('button', { name: 'Search' }).click();
    return { form, topK };
  }

  it("shows the server's objection to a search test beside the field it names", async () => {
    const { topK } = await searchForTooManyHits();
    await expect.poll(() => topK.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await topK.getAttribute('aria-describedby');
    expect(await e2e.page.locator(`[id="${describedBy}"]`).textContent()).toBe('topK must be 1 to 100');
  });

  it('drops its objection once the field it named is edited', async () => {
    const { form, topK } = await searchForTooManyHits();
    await form.getByRole('alert').filter({ hasText: 'Search failed: see the fields marked above.' }).waitFor();
    await topK.fill('10');
    expect(await topK.getAttribute('aria-invalid')).toBe('false');
    // The field and the form's alert re-render apart: a busy machine can show the one before the other.
    await expect.poll(() => form.getByRole('alert').count()).toBe(0);
  });

  it('runs a search test that returns hits with scores and content, within one API key', async () => {
    const { page } = e2e;
    const form = page.getByRole('form', { name: 'Qdrant search test' });
    await form.getByLabel('Query').fill('mango');
    await form.getByLabel('API key ID').fill('acme');
    await form.getByLabel('Top K').fill('3');
    await form.getByRole('button', { name: 'Search' }).click();
    const hits = form.getByLabel('Search test hits');
    await hits.waitFor();
    const rows = hits.getByRole('row');
    await expect(rows.count()).resolves.toBe(4); // the header and 3 hits
    const text = await hits.textContent();
    expect(text).toContain('3 hits');
    expect(text).toContain('I love a mango smoothie');
    expect(text).toContain('I eat banana every day');
    expect(text).not.toContain('papaya');
    // The nearest first, with its cosine similarity.
    const firstScore = Number(await rows.nth(1).getByRole('cell').first().textContent());
    expect(firstScore).toBeGreaterThan(0.5);
  });

  it('cleans up stale points after a confirmation, and shows how many it deleted', async () => {
    const { page } = e2e;
    // A point whose memory does not exist, as a crash between the two stores could leave behind.
    const client = new QdrantClient({ url: qdrant.url, apiKey: SECRET, checkCompatibility: false });
    await client.upsert(COLLECTION, {
      wait: true,
      points: [
        {
          id: 987_654,
          vector: [1, 0, 0, 0, 0, 0, 0, 0],
          payload: { api_key_id: 'acme', expires_at: Number.MAX_SAFE_INTEGER, updated_at: Date.now() },
        },
      ],
    });
    const tool = page.getByRole('group', { name: 'Qdrant clean-up' });
    await tool.getByRole('button', { name: 'Clean up…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete stale points' }).click();
    await tool.getByRole('status').filter({ hasText: 'Deleted 1 stale point.' }).waitFor();
    expect(qdrant.collections.get(COLLECTION)?.points.has('987654')).toBe(false);
    expect(qdrant.collections.get(COLLECTION)?.points.size).toBe(MEMORIES.length);
  });

  it('never shows the API key, and pictures the Qdrant card and panel', async () => {
    const { page } = e2e;
    expect(await page.content()).not.toContain(SECRET);
    expect(JSON.stringify(await e2e.gql(E2eQdrantSettingsDocument))).not.toContain(SECRET);
    expect(JSON.stringify(await e2e.gql(E2eQdrantStatusDocument))).not.toContain(SECRET);
    expect(qdrant.responseProblems).toEqual([]);
    // Tall enough for the status cards, the reindex job and the whole Qdrant panel in one picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    const panel = await page.getByRole('region', { name: 'Qdrant', exact: true }).boundingBox();
    await page.setViewportSize({ width: 1360, height: Math.ceil(panel!.y + panel!.height + 12) });
    await card().getByText('Ready', { exact: true }).waitFor();
    await screenshot(page, 'engine-qdrant');
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
