import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { UPDATE_SETTINGS } from '../helpers/operations.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { startVectorApp, type VectorApp } from '../helpers/vectorStore.ts';

// The vector tier leaves superseded memories out inside the nearest-neighbour search (sqlite-vec's metadata column on
// SQLite, Qdrant's payload filter on PostgreSQL), not after it: a limit of 10 finds 10 current memories however many
// superseded ones lie closer to the query.

const WRITE = graphql(`
  mutation SupersessionVectorWrite($input: MemoryInput!, $supersedes: [ID!]) {
    createMemory(input: $input, supersedes: $supersedes) {
      id
    }
  }
`);

const SEARCH = graphql(`
  query SupersessionVectorSearch($input: RetrieveInput!) {
    retrievePreview(input: $input) {
      items {
        tier
        memory {
          content
        }
      }
    }
  }
`);

let app: VectorApp;
beforeAll(async () => {
  app = await startVectorApp({ engine: topicEngine(topicModelDir()) });
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  await app.services.vectors.loadForJob();
});
afterAll(() => app.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** Embeds what the key wrote and, on PostgreSQL, carries every change to Qdrant, as the background worker does. */
async function settle(apiKeyId: string) {
  await app.services.vectors.embedPending({ limit: 1000, apiKeyId });
  await app.services.vectors.syncRemote(10_000);
}

/** Ten current fruit memories, each of which superseded four that say "mango" itself, closer to the query. */
async function fruitKey() {
  const apiKeyId = `vec-${randomUUID().slice(0, 8)}`;
  const write = async (content: string, supersedes?: string[], createdAt?: string) =>
    (await app.ok(WRITE, { input: { apiKeyId, content, createdAt }, supersedes })).createMemory.id;
  const stale: string[][] = [];
  for (let i = 0; i < 10; i++) {
    stale.push(await Promise.all([0, 1, 2, 3].map((j) => write(`mango ${'mango '.repeat(j)}${i}`, undefined, daysAgo(3)))));
  }
  // Embedded while current, so superseding them must reach the stored vectors' filter fields.
  await settle(apiKeyId);
  const current: string[] = [];
  for (let i = 0; i < 10; i++) {
    const content = `I eat papaya and banana smoothie on day ${i}`;
    await write(content, stale[i]);
    current.push(content);
  }
  await settle(apiKeyId);
  return { apiKeyId, current };
}

const semantic = async (apiKeyId: string, extra: Record<string, unknown> = {}) =>
  (await app.ok(SEARCH, { input: { apiKeyId, query: 'mango', strategy: 'SEMANTIC', limit: 10, ...extra } })).retrievePreview.items;

describe('the vector tier', () => {
  it('returns 10 current memories for a limit of 10 when closer superseded ones abound', async () => {
    const { apiKeyId, current } = await fruitKey();
    const items = await semantic(apiKeyId);
    expect(items.every((i) => i.tier === 'VECTOR')).toBe(true);
    expect(items.map((i) => i.memory.content).sort()).toEqual([...current].sort());
  });

  it('finds the memories superseded since when asked for the past (asOf)', async () => {
    const { apiKeyId } = await fruitKey();
    const then = await semantic(apiKeyId, { asOf: daysAgo(1) });
    expect(then.length).toBeGreaterThan(0);
    expect(then.every((i) => i.memory.content.startsWith('mango'))).toBe(true);
  });
});
