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
      validFrom
      validTo
      supersededBy
      changedAt
      changedBy
      reason
    }
  }
`);

const SUPERSEDING = graphql(`
  mutation MemoryHistorySupersede($input: MemoryInput!, $supersedes: [ID!]) {
    createMemory(input: $input, supersedes: $supersedes) {
      id
      validFrom
    }
  }
`);

const RESTORE = graphql(`
  mutation MemoryHistoryRestore($id: ID!) {
    restoreMemory(id: $id) {
      id
      validTo
    }
  }
`);

const VALIDITY = graphql(`
  query MemoryHistoryValidity($id: ID!) {
    memory(id: $id) {
      content
      validFrom
      validTo
      supersededBy
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
      validTo
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

describe("a memory's history of when it held", () => {
  /** A memory of `apiKeyId`, and a newer one that supersedes it (createMemory's supersedes). */
  async function superseded(apiKeyId: string) {
    const old = await create(apiKeyId, 'city', 'Lives in Lyon');
    const { createMemory: newer } = await app.ok(SUPERSEDING, {
      input: { apiKeyId, key: 'city-2', content: 'Lives in Berlin' },
      supersedes: [old.id],
    });
    return { old, newer };
  }

  it('keeps the version a supersession ended: current then, by whom, and the rule', async () => {
    const { old } = await superseded('hist-v1');
    const { memory } = await app.ok(VALIDITY, { id: old.id });
    expect(await history(old.id)).toEqual([
      expect.objectContaining({
        version: 1,
        content: 'Lives in Lyon',
        validFrom: memory!.validFrom,
        validTo: null,
        supersededBy: null,
        changedBy: 'admin',
        reason: 'superseded (caller)',
      }),
    ]);
  });

  it('keeps the superseded version when the memory is restored, naming who restored it', async () => {
    const token = await app.mintToken({ apiKeyId: 'hist-v2' });
    const tokenId = await app.database.db
      .selectFrom('access_tokens')
      .select('id')
      .where('api_key_id', '=', 'hist-v2')
      .executeTakeFirstOrThrow();
    const { old, newer } = await superseded('hist-v2');
    await app.ok(RESTORE, { id: old.id }, token);
    expect((await history(old.id))[0]).toMatchObject({
      version: 2,
      validTo: newer.validFrom,
      supersededBy: newer.id,
      changedBy: tokenId.id,
      reason: 'restored',
    });
  });

  it('names extraction as the author of the supersessions it finds, with the rule, never the sentence', async () => {
    const said = (text: string) => app.ok(EXTRACT_FACTS, { input: { apiKeyId: 'hist-v3', text, role: 'USER' } });
    const lyon = (await said('I live in Lyon.')).extractFacts.memories[0]!;
    await said('I moved to Berlin last month.');
    expect(await history(lyon.id)).toEqual([
      expect.objectContaining({ content: 'Lives in Lyon', validTo: null, changedBy: 'extraction', reason: 'superseded (single_value)' }),
    ]);
  });

  it('says so when a memory holds again because the memory that superseded it was deleted', async () => {
    const { old, newer } = await superseded('hist-v4');
    await app.ok(DELETE_MEMORY, { id: newer.id });
    expect((await history(old.id))[0]).toMatchObject({ version: 2, supersededBy: newer.id, reason: 'superseding memory deleted' });
  });

  it('reverts the wording of a version kept before a supersession, and the memory stays superseded', async () => {
    const old = await create('hist-v5', 'city', 'Lives in Lyon');
    await app.ok(UPDATE_MEMORY, { id: old.id, input: { content: 'Lives in Lyon, France' } });
    const { createMemory: newer } = await app.ok(SUPERSEDING, {
      input: { apiKeyId: 'hist-v5', key: 'city-2', content: 'Lives in Berlin' },
      supersedes: [old.id],
    });
    const reverted = (await app.ok(REVERT, { id: old.id, version: 1 })).revertMemory;
    expect(reverted).toMatchObject({ content: 'Lives in Lyon', validTo: newer.validFrom });
    expect((await app.ok(VALIDITY, { id: old.id })).memory).toMatchObject({ supersededBy: newer.id });
  });

  it('keeps no version of a supersession or its undo with historyVersionsKept 0', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 0 } });
    try {
      const { old } = await superseded('hist-v6');
      await app.ok(RESTORE, { id: old.id });
      expect(await history(old.id)).toEqual([]);
    } finally {
      await app.ok(UPDATE_SETTINGS, { input: { historyVersionsKept: 20 } });
    }
  });

  it('goes with the memory when a superseded memory is deleted', async () => {
    const { old } = await superseded('hist-v7');
    await app.ok(RESTORE, { id: old.id });
    const { pk } = await app.database.db.selectFrom('memories').select('pk').where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(await history(old.id)).toHaveLength(2);
    await app.ok(DELETE_MEMORY, { id: old.id });
    expect(await app.database.db.selectFrom('memory_versions').select('id').where('memory_pk', '=', pk).execute()).toEqual([]);
  });
});
