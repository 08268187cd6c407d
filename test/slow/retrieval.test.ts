import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRIEVE, type RetrieveInput, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const key = () => `k-${randomUUID().slice(0, 8)}`;
const retrieve = (input: RetrieveInput) => app.ok(RETRIEVE, { input }).then((d) => d.retrieve);
const contents = (r: { items: { memory: { content: string } }[] }) => r.items.map((i) => i.memory.content);

describe('keyword retrieval at scale', () => {
  it('finds an old memory of a key that holds 100,000 memories', async () => {
    const apiKeyId = key();
    const sqlite = app.database.sqlite;
    const insert = sqlite.prepare(
      `insert into memories (id, api_key_id, type, key, content, metadata, tokens, created_at, updated_at) values (?, ?, 'factual', ?, ?, '{}', 8, ?, ?)`,
    );
    const now = Date.now();
    sqlite.transaction(() => {
      insert.run(
        randomUUID(),
        apiKeyId,
        'old',
        'The staging database password rotates every quarter',
        now - 20 * 86_400_000,
        now - 20 * 86_400_000,
      );
      for (let i = 0; i < 100_000; i++) {
        insert.run(
          randomUUID(),
          apiKeyId,
          `n${i}`,
          `Note ${i} about the weekly planning meeting and the database backlog`,
          now - i,
          now - i,
        );
      }
    })();
    const r = await retrieve({ apiKeyId, query: 'when does the staging password rotate?', limit: 5 });
    expect(contents(r)[0]).toBe('The staging database password rotates every quarter');
  }, 180_000);
});
