import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { QdrantNotSelectedSearchTestDocument as SEARCH_TEST } from '../generated/graphql.ts';
import { CREATE_MEMORY, UPDATE_QDRANT, UPDATE_SETTINGS, QDRANT_WAITING as WAITING } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';

// A Qdrant that is configured but not selected as the vector store (qdrant.test.ts covers the selected one): what an
// admin does with it must leave the queue to Qdrant and the memories' embedding flags as they are.

const models = topicModelDir();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A mnemo with the topic model whose memories were embedded while Qdrant was the store (on PostgreSQL it is the only
 * one), then Qdrant deselected and pointed at a collection that does not exist yet.
 */
async function deselectedQdrant(): Promise<{ app: TestApp; qdrant: QdrantDouble; apiKeyId: string }> {
  const qdrant = await startQdrantDouble();
  cleanups.push(() => qdrant.close());
  const app = await startTestApp({ engine: topicEngine(models) });
  cleanups.push(() => app.close());
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  await app.services.vectors.loadForJob();
  await app.ok(UPDATE_QDRANT, { input: { url: qdrant.url, enabled: true } });
  const apiKeyId = `k-${randomUUID().slice(0, 8)}`;
  for (const content of ['I eat banana', 'I write rust', 'my cat sleeps']) await app.ok(CREATE_MEMORY, { input: { apiKeyId, content } });
  await app.services.vectors.embedPending({ limit: 500 });
  await app.services.vectors.syncRemote(500);
  await app.ok(UPDATE_QDRANT, { input: { enabled: false, collection: 'not_created_yet' } });
  return { app, qdrant, apiKeyId };
}

describe('a search test against a Qdrant that is configured but not selected', () => {
  it('is refused, saying Qdrant must be enabled first', async () => {
    const { app, apiKeyId } = await deselectedQdrant();
    const error = onlyError(await app.gql(SEARCH_TEST, { apiKeyId, query: 'mango' }));
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe('Qdrant search failed: Qdrant is configured but not enabled: enable it in the Qdrant settings to search it');
  });

  it('queues nothing for Qdrant and flags no memory to be embedded again', async () => {
    const { app, apiKeyId } = await deselectedQdrant();
    const waiting = { vectorStore: { pendingReindex: 0 }, qdrant: { pendingSync: 0 } };
    expect((await app.ok(WAITING)).engineStatus).toEqual(waiting);
    await app.gql(SEARCH_TEST, { apiKeyId, query: 'mango' });
    expect((await app.ok(WAITING)).engineStatus).toEqual(waiting);
  });

  it('creates no collection in Qdrant', async () => {
    const { app, qdrant, apiKeyId } = await deselectedQdrant();
    await app.gql(SEARCH_TEST, { apiKeyId, query: 'mango' });
    expect(qdrant.collections.has('not_created_yet')).toBe(false);
  });
});
