import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, DELETE_MEMORY, EXTRACT_FACTS, IMPORT_MEMORIES, UPDATE_MEMORY, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const HISTORY = graphql(`
  query MemoryHistoryOf($id: ID!) {
    memoryHistory(id: $id) {
      version
      content
      type
      metadata
      expiresAt
      changedAt
      changedBy
      reason
    }
  }
`);

const REVERT = graphql(`
  mutation MemoryHistoryRevert($id: ID!, $version: Int!) {
    revertMemory(id: $id, version: $version) {
      id
      content
      type
      metadata
    }
  }
`);

const AUDIT = graphql(`
  query MemoryHistoryAudit {
    auditLog(action: MEMORY_REVERT) {
      items {
        action
        apiKeyId
        target
        outcome
      }
    }
  }
`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

const create = (apiKeyId: string, key: string, content: string, metadata?: Record<string, unknown>) =>
  app.ok(CREATE_MEMORY, { input: { apiKeyId, key, content, metadata } }).then((d) => d.createMemory);
const history = (id: string, token?: string) => app.ok(HISTORY, { id }, token).then((d) => d.memoryHistory);

describe("a memory's history", () => {
  it('keeps the version an upsert replaced, with who wrote the change and why', async () => {
    const first = await create('hist-1', 'editor', 'Uses vim');
    await create('hist-1', 'editor', 'Uses helix');
    expect(await history(first.id)).toEqual([
      expect.objectContaining({ version: 1, content: 'Uses vim', type: 'FACTUAL', changedBy: 'admin', reason: 'createMemory' }),
    ]);
  });

  it('keeps each edit of content, type, metadata and expiry as its own version, newest first', async () => {
    const m = await create('hist-2', 'deploy', 'Deploy with make', { team: 'a' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'Deploy with make release' } });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { type: 'PROCEDURAL' } });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { metadata: { team: 'b' } } });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { expiresAt: '2099-01-01T00:00:00.000Z' } });
    const versions = await history(m.id);
    expect(versions.map((v) => [v.version, v.content, v.type, v.metadata, v.expiresAt, v.reason])).toEqual([
      [4, 'Deploy with make release', 'PROCEDURAL', { team: 'b' }, null, 'updateMemory'],
      [3, 'Deploy with make release', 'PROCEDURAL', { team: 'a' }, null, 'updateMemory'],
      [2, 'Deploy with make release', 'FACTUAL', { team: 'a' }, null, 'updateMemory'],
      [1, 'Deploy with make', 'FACTUAL', { team: 'a' }, null, 'updateMemory'],
    ]);
  });

  it('keeps no version for a restatement that changes nothing, nor for a change of session or key', async () => {
    const m = await create('hist-3', 'tea', 'Drinks green tea', { a: 1, b: 2 });
    await create('hist-3', 'tea', 'Drinks green tea', { a: 1 });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { sessionId: 's1', key: 'tea-2' } });
    expect(await history(m.id)).toEqual([]);
  });

  it('names the extraction and the import as the authors of their changes', async () => {
    const said = (text: string) => app.ok(EXTRACT_FACTS, { input: { apiKeyId: 'hist-4', text, role: 'USER' } });
    const { extractFacts } = await said('I like Python.');
    const id = extractFacts.memories[0]!.id;
    const key = extractFacts.memories[0]!.key;
    // Written by hand under the fact's key, then said again: extraction writes its own wording over it.
    await app.ok(UPDATE_MEMORY, { id, input: { content: 'Likes Python for scripting' } });
    await said('I like Python.');
    expect((await history(id))[0]).toMatchObject({ content: 'Likes Python for scripting', changedBy: 'extraction' });
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'hist-4', key, content: 'Likes Python a lot' }] });
    expect((await history(id))[0]).toMatchObject({ changedBy: 'import', reason: 'importMemories' });
  });

  it('reverts to a kept version, keeping what it replaced as a version in turn, and records the revert in the audit log', async () => {
    const m = await create('hist-5', 'city', 'Lives in Lyon', { src: 'one' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'Lives in Berlin', metadata: { src: 'two' } } });
    const reverted = (await app.ok(REVERT, { id: m.id, version: 1 })).revertMemory;
    expect(reverted).toMatchObject({ id: m.id, content: 'Lives in Lyon', metadata: { src: 'one' } });
    expect((await history(m.id))[0]).toMatchObject({ version: 2, content: 'Lives in Berlin', reason: 'revert to version 1' });
    const { items } = (await app.ok(AUDIT)).auditLog;
    expect(items[0]).toMatchObject({ action: 'MEMORY_REVERT', apiKeyId: 'hist-5', target: { memoryId: m.id, version: 1 }, outcome: 'OK' });
  });

  it('answers NOT_FOUND for a version the memory does not keep', async () => {
    const m = await create('hist-6', 'x', 'Something');
    expect(onlyError(await app.gql(REVERT, { id: m.id, version: 3 })).extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("is another key's memory's history for nobody: a token bound to another key gets NOT_FOUND, as for the memory", async () => {
    const m = await create('hist-7b', 'secret', 'The safe code is 1234');
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'The safe code is 5678' } });
    const tokenA = await app.mintToken({ apiKeyId: 'hist-7a' });
    expect(onlyError(await app.gql(HISTORY, { id: m.id }, tokenA)).extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(onlyError(await app.gql(REVERT, { id: m.id, version: 1 }, tokenA)).extensions).toMatchObject({ code: 'NOT_FOUND' });
    const tokenB = await app.mintToken({ apiKeyId: 'hist-7b' });
    expect(await history(m.id, tokenB)).toHaveLength(1);
  });

  it('keeps at most historyVersionsKept versions, the newest, and none with 0', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 2 } });
    try {
      const m = await create('hist-8', 'n', 'n0');
      for (const n of [1, 2, 3, 4]) await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: `n${n}` } });
      expect((await history(m.id)).map((v) => [v.version, v.content])).toEqual([
        [4, 'n3'],
        [3, 'n2'],
      ]);
      await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 0 } });
      await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'n5' } });
      expect(await history(m.id)).toEqual([]);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 20 } });
    }
  });

  it('refuses a historyVersionsKept out of its range', async () => {
    const refused = await app.gql(UPDATE_SETTINGS, { input: { historyVersionsKept: 1001 } });
    expect(onlyError(refused).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('goes with its memory when the memory is deleted', async () => {
    const m = await create('hist-9', 'gone', 'First words');
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'Second words' } });
    await app.ok(DELETE_MEMORY, { id: m.id });
    const left = await app.database.db.selectFrom('memory_versions').select('id').where('content', '=', 'First words').execute();
    expect(left).toEqual([]);
  });
});
