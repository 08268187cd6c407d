import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordSearch } from '../../server/search/keywordSearch.ts';
import { CREATE_MEMORY, DELETE_MEMORY, GET_MEMORY, LIST_MEMORIES, type MemoryInput, UPDATE_MEMORY } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);

describe('creating, reading, updating and deleting memories', () => {
  it('stores a memory and returns it with a UUID, a token count and ACTIVE status', async () => {
    const m = await create({
      apiKeyId: 'crud-1',
      sessionId: 's1',
      type: 'PROCEDURAL',
      key: 'deploy',
      content: 'Deploy with make release',
      metadata: { source: 'chat' },
    });
    expect(m).toMatchObject({
      apiKeyId: 'crud-1',
      sessionId: 's1',
      type: 'PROCEDURAL',
      key: 'deploy',
      content: 'Deploy with make release',
      metadata: { source: 'chat' },
      status: 'ACTIVE',
      pendingReindex: true,
    });
    expect(m.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.tokens).toBeGreaterThan(2);
    const read = await app.ok(GET_MEMORY, { id: m.id });
    expect(read.memory).toEqual(m);
  });

  it('upserts on (apiKeyId, key): same id, new content, metadata merged shallowly', async () => {
    const first = await create({
      apiKeyId: 'crud-2',
      key: 'editor',
      content: 'Uses vim',
      metadata: { a: 1, nested: { x: 1 }, keep: true },
    });
    const second = await create({ apiKeyId: 'crud-2', key: 'editor', content: 'Uses helix', metadata: { a: 2, nested: { y: 2 } } });
    expect(second.id).toBe(first.id);
    expect(second.content).toBe('Uses helix');
    expect(second.metadata).toEqual({ a: 2, nested: { y: 2 }, keep: true });
    expect(second.createdAt).toBe(first.createdAt);
  });

  it('refuses a metadata key named __proto__, at any depth, instead of dropping it', async () => {
    for (const metadata of ['{"__proto__": {"admin": true}}', '{"note": {"__proto__": 1}}']) {
      const refused = await app.gql(CREATE_MEMORY, {
        input: { apiKeyId: 'crud-proto', content: 'Odd metadata', metadata: JSON.parse(metadata) },
      });
      expect(refused.errors?.[0]).toMatchObject({
        message: expect.stringContaining('holds a key named __proto__, which mnemo cannot store'),
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect((await app.ok(LIST_MEMORIES, { apiKeyId: 'crud-proto' })).memories.totalCount).toBe(0);
  });

  it('refuses a metadata key named __proto__ written in the document, instead of dropping it', async () => {
    const refused = await app.gqlRaw(
      'mutation { createMemory(input: { apiKeyId: "crud-proto-literal", content: "Odd", metadata: { __proto__: { x: 1 }, a: 1 } }) { id } }',
    );
    expect(onlyError(refused)).toMatchInlineSnapshot(
      { extensions: { requestId: expect.any(String) } },
      `
      {
        "extensions": {
          "code": "BAD_USER_INPUT",
          "requestId": Any<String>,
        },
        "locations": [
          {
            "column": 94,
            "line": 1,
          },
        ],
        "message": "this object holds a key named __proto__, which mnemo cannot store",
      }
    `,
    );
    expect((await app.ok(LIST_MEMORIES, { apiKeyId: 'crud-proto-literal' })).memories.totalCount).toBe(0);
  });

  it('refuses a nested metadata key named __proto__ written in the document, instead of storing it', async () => {
    const refused = await app.gqlRaw(
      'mutation { createMemory(input: { apiKeyId: "crud-proto-nested", content: "Odd", metadata: { note: { __proto__: 1 } } }) { id } }',
    );
    expect(onlyError(refused)).toMatchInlineSnapshot(
      { extensions: { requestId: expect.any(String) } },
      `
      {
        "extensions": {
          "code": "BAD_USER_INPUT",
          "requestId": Any<String>,
        },
        "locations": [
          {
            "column": 101,
            "line": 1,
          },
        ],
        "message": "note holds a key named __proto__, which mnemo cannot store",
      }
    `,
    );
    expect((await app.ok(LIST_MEMORIES, { apiKeyId: 'crud-proto-nested' })).memories.totalCount).toBe(0);
  });

  it('refuses an import whose rows, written in the document, hold a metadata key named __proto__', async () => {
    const refused = await app.gqlRaw(`mutation {
      importMemories(memories: [
        { apiKeyId: "crud-proto-import", content: "Fine", metadata: { a: 1 } }
        { apiKeyId: "crud-proto-import", content: "Odd", metadata: { list: [{ __proto__: { x: 1 } }] } }
      ]) { imported rejected { index reason } }
    }`);
    expect(onlyError(refused)).toMatchInlineSnapshot(
      { extensions: { requestId: expect.any(String) } },
      `
      {
        "extensions": {
          "code": "BAD_USER_INPUT",
          "requestId": Any<String>,
        },
        "locations": [
          {
            "column": 79,
            "line": 4,
          },
        ],
        "message": "list[0] holds a key named __proto__, which mnemo cannot store",
      }
    `,
    );
    expect((await app.ok(LIST_MEMORIES, { apiKeyId: 'crud-proto-import' })).memories.totalCount).toBe(0);
  });

  it('keeps the same key apart for different API keys', async () => {
    const a = await create({ apiKeyId: 'crud-3a', key: 'lang', content: 'Likes Go' });
    const b = await create({ apiKeyId: 'crud-3b', key: 'lang', content: 'Likes Rust' });
    expect(a.id).not.toBe(b.id);
  });

  it('derives a key from the content, so restating a fact does not duplicate it', async () => {
    const a = await create({ apiKeyId: 'crud-4', content: 'Prefers  dark mode' });
    const b = await create({ apiKeyId: 'crud-4', content: 'prefers dark mode' });
    expect(b.id).toBe(a.id);
    expect(a.key).toMatch(/^content:/);
  });

  it('updates only the given fields and replaces metadata', async () => {
    const m = await create({ apiKeyId: 'crud-5', key: 'k', content: 'Old text', metadata: { a: 1 }, sessionId: 's' });
    const { updateMemory } = await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'New text', metadata: { b: 2 } } });
    expect(updateMemory).toMatchObject({ content: 'New text', metadata: { b: 2 }, sessionId: 's', key: 'k', type: 'FACTUAL' });
  });

  it('refuses to rename a memory onto a key that another memory of the same API key uses', async () => {
    await create({ apiKeyId: 'crud-6', key: 'taken', content: 'one' });
    const m = await create({ apiKeyId: 'crud-6', key: 'free', content: 'two' });
    const err = onlyError(await app.gql(UPDATE_MEMORY, { id: m.id, input: { key: 'taken' } }));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(err.message).toContain('already used');
  });

  it('deletes a memory and then reports it as absent', async () => {
    const m = await create({ apiKeyId: 'crud-7', content: 'short-lived' });
    expect((await app.ok(DELETE_MEMORY, { id: m.id })).deleteMemory.id).toBe(m.id);
    expect((await app.ok(GET_MEMORY, { id: m.id })).memory).toBeNull();
    expect(onlyError(await app.gql(DELETE_MEMORY, { id: m.id })).extensions?.code).toBe('NOT_FOUND');
  });

  it('removes a deleted memory from the keyword index', async () => {
    const m = await create({ apiKeyId: 'crud-8', content: 'zebracorn appears once' });
    await app.ok(DELETE_MEMORY, { id: m.id });
    // The index's own rows (FTS5's, or memory_search on PostgreSQL), not joined with memories.
    const matches = keywordSearch(app.database.db).listSearchMatches('zebracorn', null)!;
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${matches} as hits`.execute(app.database.db);
    expect(rows).toEqual([{ n: 0 }]);
  });
});
