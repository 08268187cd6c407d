import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAdd } from '../../server/mcp/memory.tools.ts';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { graphql } from '../helpers/graphql.ts';
import { call, callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const SUPERSEDING = graphql(`
  mutation SupersessionCreate($input: MemoryInput!, $supersedes: [ID!]) {
    createMemory(input: $input, supersedes: $supersedes) {
      id
      content
      validFrom
      validTo
      supersededBy
    }
  }
`);

const MEMORY = graphql(`
  query SupersessionMemory($id: ID!) {
    memory(id: $id) {
      id
      content
      status
      validFrom
      validTo
      supersededBy
      supersession {
        rule
        sentence
        at
        supersededBy {
          id
          content
        }
      }
    }
  }
`);

const LIST = graphql(`
  query SupersessionList($apiKeyId: String!, $includeSuperseded: Boolean, $asOf: DateTime, $limit: Int) {
    memories(apiKeyId: $apiKeyId, includeSuperseded: $includeSuperseded, asOf: $asOf, limit: $limit) {
      totalCount
      items {
        content
      }
    }
  }
`);

const RETRIEVE = graphql(`
  query SupersessionRetrieve($input: RetrieveInput!) {
    retrieve(input: $input) {
      items {
        memory {
          content
        }
      }
      block
    }
  }
`);

const INJECT = graphql(`
  mutation SupersessionInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      retrieval {
        block
      }
    }
  }
`);

const RESTORE = graphql(`
  mutation SupersessionRestore($id: ID!) {
    restoreMemory(id: $id) {
      id
      status
      validTo
      supersededBy
    }
  }
`);

const DELETE = graphql(`
  mutation SupersessionDelete($id: ID!) {
    deleteMemory(id: $id) {
      id
    }
  }
`);

const AUDIT = graphql(`
  query SupersessionAudit($apiKeyId: String) {
    auditLog(apiKeyId: $apiKeyId) {
      items {
        action
        target
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

let keys = 0;
const freshKey = () => `sup-${++keys}`;
const write = async (apiKeyId: string, content: string, supersedes?: string[], extra: Record<string, unknown> = {}) =>
  (await app.ok(SUPERSEDING, { input: { apiKeyId, content, ...extra }, supersedes })).createMemory;
const contents = (items: readonly { content: string }[]) => items.map((m) => m.content).sort();
const retrieved = async (apiKeyId: string, query: string, extra: Record<string, unknown> = {}) =>
  (await app.ok(RETRIEVE, { input: { apiKeyId, query, strategy: 'HYBRID', ...extra } })).retrieve.items.map((i) => i.memory.content);

describe('createMemory with supersedes', () => {
  it('marks the old memory superseded by the new one from when the new one holds, and keeps its text', async () => {
    const k = freshKey();
    const lyon = await write(k, 'Lives in Lyon');
    const berlin = await write(k, 'Lives in Berlin', [lyon.id]);
    const old = (await app.ok(MEMORY, { id: lyon.id })).memory!;
    expect(old).toMatchObject({ content: 'Lives in Lyon', status: 'SUPERSEDED', validTo: berlin.validFrom, supersededBy: berlin.id });
    expect(old.supersession).toEqual({
      rule: 'caller',
      sentence: null,
      at: berlin.validFrom,
      supersededBy: { id: berlin.id, content: 'Lives in Berlin' },
    });
    expect(berlin.validTo).toBeNull();
  });

  it('leaves the superseded memory out of retrieve, injectMemory and the memories list', async () => {
    const k = freshKey();
    const lyon = await write(k, 'The user lives in Lyon');
    await write(k, 'The user lives in Berlin', [lyon.id]);
    expect(await retrieved(k, 'where does the user live')).toEqual(['The user lives in Berlin']);
    expect(contents((await app.ok(LIST, { apiKeyId: k })).memories.items)).toEqual(['The user lives in Berlin']);
    const request = { messages: [{ role: 'user', content: 'where does the user live' }] };
    const injected = await app.ok(INJECT, { input: { request, provider: 'openai/gpt-4o', retrieval: { apiKeyId: k } } });
    expect(injected.injectMemory.retrieval?.block).toContain('Berlin');
    expect(injected.injectMemory.retrieval?.block).not.toContain('Lyon');
  });

  it('lists both with includeSuperseded', async () => {
    const k = freshKey();
    const tabs = await write(k, 'Prefers tabs over spaces');
    await write(k, 'Prefers spaces over tabs', [tabs.id]);
    const both = (await app.ok(LIST, { apiKeyId: k, includeSuperseded: true })).memories;
    expect(both.totalCount).toBe(2);
    expect(contents(both.items)).toEqual(['Prefers spaces over tabs', 'Prefers tabs over spaces']);
  });

  it('refuses an id of another API key as absent, and writes nothing', async () => {
    const theirs = await write(freshKey(), 'Their secret plan');
    const k = freshKey();
    const res = await app.gql(SUPERSEDING, { input: { apiKeyId: k, content: 'My plan' }, supersedes: [theirs.id] });
    expect(onlyError(res)).toMatchObject({ extensions: { code: 'NOT_FOUND' }, message: `no memory with id ${theirs.id}` });
    expect((await app.ok(LIST, { apiKeyId: k, includeSuperseded: true })).memories.totalCount).toBe(0);
    expect((await app.ok(MEMORY, { id: theirs.id })).memory).toMatchObject({ validTo: null, supersededBy: null });
  });

  it("refuses a gateway token another key's memory the same way", async () => {
    const theirs = await write(freshKey(), 'Another tenant fact');
    const k = freshKey();
    const token = await app.mintToken({ apiKeyId: k });
    const res = await app.gql(SUPERSEDING, { input: { content: 'Mine' }, supersedes: [theirs.id] }, token);
    expect(onlyError(res).extensions?.code).toBe('NOT_FOUND');
  });

  it('is idempotent: naming the same superseded memory again changes nothing', async () => {
    const k = freshKey();
    const vim = await write(k, 'Uses Vim', undefined, { key: 'editor-old' });
    await write(k, 'Uses Helix', [vim.id], { key: 'editor' });
    await write(k, 'Uses Helix', [vim.id], { key: 'editor' });
    const audit = (await app.ok(AUDIT, { apiKeyId: k })).auditLog.items.filter((e) => e.action === 'MEMORY_SUPERSEDE');
    expect(audit).toHaveLength(1);
  });

  it('supersedes every memory it names, each with its own audit entry', async () => {
    const k = freshKey();
    const vim = await write(k, 'Uses Vim for notes');
    const nano = await write(k, 'Uses nano for commit messages');
    const helix = await write(k, 'Uses Helix for everything', [vim.id, nano.id]);
    for (const id of [vim.id, nano.id]) expect((await app.ok(MEMORY, { id })).memory).toMatchObject({ supersededBy: helix.id });
    const audit = (await app.ok(AUDIT, { apiKeyId: k })).auditLog.items.filter((e) => e.action === 'MEMORY_SUPERSEDE');
    expect(audit.map((e) => (e.target as { oldId: string }).oldId).sort()).toEqual([vim.id, nano.id].sort());
  });

  it('refuses the whole write when one memory it names no longer holds, and supersedes none of the others', async () => {
    const k = freshKey();
    const vim = await write(k, 'Uses Vim for notes');
    const nano = await write(k, 'Uses nano for commit messages');
    await write(k, 'Uses micro for commit messages', [nano.id]);
    const res = await app.gql(SUPERSEDING, { input: { apiKeyId: k, content: 'Uses Helix for everything' }, supersedes: [vim.id, nano.id] });
    expect(onlyError(res).extensions?.code).toBe('BAD_USER_INPUT');
    expect((await app.ok(MEMORY, { id: vim.id })).memory).toMatchObject({ validTo: null, supersededBy: null });
    expect(contents((await app.ok(LIST, { apiKeyId: k })).memories.items)).toEqual([
      'Uses Vim for notes',
      'Uses micro for commit messages',
    ]);
  });

  it('refuses a memory superseding itself', async () => {
    const k = freshKey();
    const m = await write(k, 'Likes Rust', undefined, { key: 'rust' });
    const res = await app.gql(SUPERSEDING, { input: { apiKeyId: k, key: 'rust', content: 'Likes Rust a lot' }, supersedes: [m.id] });
    expect(onlyError(res)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: 'a memory cannot supersede itself' });
  });

  it('refuses a validFrom in the future', async () => {
    const res = await app.gql(SUPERSEDING, {
      input: { apiKeyId: freshKey(), content: 'Will live in Rome', validFrom: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(onlyError(res)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: 'validFrom must not be in the future' });
  });
});

describe('current memories inside the search', () => {
  it('returns 10 current memories for a limit of 10 when most matches are superseded', async () => {
    const k = freshKey();
    const current: string[] = [];
    for (let i = 0; i < 10; i++) {
      const stale = [];
      // Drafts that differ in a word, not paraphrases of each other (those would be merged into one memory).
      for (const draft of ['amber', 'bronze', 'cobalt', 'denim'])
        stale.push((await write(k, `Project falcon note ${i} ${draft} draft`)).id);
      current.push((await write(k, `Project falcon note ${i} final`, stale)).content);
    }
    const found = await retrieved(k, 'project falcon note', { limit: 10, strategy: 'HYBRID' });
    expect(found.sort()).toEqual(current.sort());
  });
});

describe('asOf', () => {
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

  it('answers with what held then: the old fact before the change, the new one after it', async () => {
    const k = freshKey();
    const lyon = await write(k, 'The user lives in Lyon', undefined, { createdAt: daysAgo(8) });
    await write(k, 'The user lives in Berlin', [lyon.id], { createdAt: daysAgo(4) });
    expect(await retrieved(k, 'where does the user live', { asOf: daysAgo(6) })).toEqual(['The user lives in Lyon']);
    expect(await retrieved(k, 'where does the user live', { asOf: daysAgo(2) })).toEqual(['The user lives in Berlin']);
    expect(await retrieved(k, 'where does the user live', { asOf: daysAgo(10) })).toEqual([]);
    expect(contents((await app.ok(LIST, { apiKeyId: k, asOf: daysAgo(6) })).memories.items)).toEqual(['The user lives in Lyon']);
  });

  it('places a fact by its validFrom, not by when it was written', async () => {
    const k = freshKey();
    await write(k, 'The user lives in Oslo', undefined, { validFrom: daysAgo(8) });
    expect(await retrieved(k, 'where does the user live', { asOf: daysAgo(6) })).toEqual([]);
    expect(await retrieved(k, 'where does the user live')).toEqual(['The user lives in Oslo']);
  });
});

describe('restoreMemory', () => {
  it('makes a superseded memory current again, and both are retrieved', async () => {
    const k = freshKey();
    const python = await write(k, 'The user likes Python');
    await write(k, 'The user dislikes Python', [python.id]);
    const restored = (await app.ok(RESTORE, { id: python.id })).restoreMemory;
    expect(restored).toEqual({ id: python.id, status: 'ACTIVE', validTo: null, supersededBy: null });
    expect((await retrieved(k, 'python')).sort()).toEqual(['The user dislikes Python', 'The user likes Python']);
    expect((await app.ok(MEMORY, { id: python.id })).memory?.supersession).toBeNull();
  });

  it('records each supersession and each undo in the audit log, without the memory text', async () => {
    const k = freshKey();
    const old = await write(k, 'Works at Acme');
    const replacement = await write(k, 'Works at Globex', [old.id]);
    await app.ok(RESTORE, { id: old.id });
    const entries = (await app.ok(AUDIT, { apiKeyId: k })).auditLog.items;
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['MEMORY_RESTORE', { id: old.id, supersededBy: replacement.id }],
      ['MEMORY_SUPERSEDE', { oldId: old.id, newId: replacement.id, rule: 'caller' }],
    ]);
  });

  it("refuses another key's memory as absent", async () => {
    const theirs = await write(freshKey(), 'Somebody else');
    const token = await app.mintToken({ apiKeyId: freshKey() });
    expect(onlyError(await app.gql(RESTORE, { id: theirs.id }, token)).extensions?.code).toBe('NOT_FOUND');
  });
});

describe('deleting a memory on either side', () => {
  it('brings the memory it superseded back as current', async () => {
    const k = freshKey();
    const lyon = await write(k, 'Lives in Lyon');
    const berlin = await write(k, 'Lives in Berlin', [lyon.id]);
    await app.ok(DELETE, { id: berlin.id });
    expect((await app.ok(MEMORY, { id: lyon.id })).memory).toMatchObject({ status: 'ACTIVE', validTo: null, supersession: null });
  });

  it('hands the memories it superseded on to the one that superseded it', async () => {
    const k = freshKey();
    const a = await write(k, 'Drives a Fiat');
    const b = await write(k, 'Drives a Volvo', [a.id]);
    const c = await write(k, 'Drives a Tesla', [b.id]);
    await app.ok(DELETE, { id: b.id });
    expect((await app.ok(MEMORY, { id: a.id })).memory).toMatchObject({ status: 'SUPERSEDED', supersededBy: c.id });
    expect(contents((await app.ok(LIST, { apiKeyId: k })).memories.items)).toEqual(['Drives a Tesla']);
  });
});

const EXTRACT = graphql(`
  mutation SupersessionExtract($input: ExtractFactsInput!) {
    extractFacts(input: $input) {
      memories {
        content
        validFrom
        createdAt
      }
      captured {
        validFrom
      }
    }
  }
`);

describe('valid time from the conversation', () => {
  it("dates the facts of a message from when it was said (extractFacts' occurredAt), not when it arrived", async () => {
    const said = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const { extractFacts } = await app.ok(EXTRACT, {
      input: { apiKeyId: freshKey(), role: 'USER', text: 'I prefer tabs over spaces.', occurredAt: said },
    });
    expect(extractFacts.memories.length).toBeGreaterThan(0);
    for (const fact of extractFacts.memories) {
      expect(fact.validFrom).toBe(said);
      expect(fact.createdAt).not.toBe(said);
    }
    expect(extractFacts.captured.map((t) => t.validFrom)).toEqual([said]);
  });

  it("dates the messages injectMemory captures from the request's occurredAt", async () => {
    const k = freshKey();
    const made = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const request = { messages: [{ role: 'user', content: 'Remember that the launch is on Friday' }] };
    await app.ok(INJECT, { input: { request, provider: 'openai/gpt-4o', retrieval: { apiKeyId: k }, occurredAt: made } });
    const captured = (await app.ok(VALIDITY_LIST, { apiKeyId: k })).memories.items;
    expect(captured).toEqual([{ content: 'Remember that the launch is on Friday', validFrom: made, createdAt: made }]);
  });
});

const VALIDITY_LIST = graphql(`
  query SupersessionValidity($apiKeyId: String!) {
    memories(apiKeyId: $apiKeyId) {
      items {
        content
        validFrom
        createdAt
      }
    }
  }
`);

const SUMMARIZE = graphql(`
  mutation SupersessionSummarize($apiKeyId: String!) {
    summarize(apiKeyId: $apiKeyId, olderThanDays: 1, dryRun: false) {
      summaries {
        content
      }
    }
  }
`);

describe('a superseded memory written again', () => {
  it('is current again: it was said again', async () => {
    const k = freshKey();
    const lyon = await write(k, 'Lives in Lyon', undefined, { key: 'home' });
    await write(k, 'Lives in Berlin', [lyon.id], { key: 'home-now' });
    await write(k, 'Lives in Lyon', undefined, { key: 'home' });
    expect((await app.ok(MEMORY, { id: lyon.id })).memory).toMatchObject({ status: 'ACTIVE', validTo: null, supersededBy: null });
  });
});

describe('compaction', () => {
  it('rebuilds the summary of a superseded original without it, so the stale fact is not injected through it', async () => {
    const k = freshKey();
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const facts = ['The user lives in Lyon', ...['banana', 'mango', 'cherry', 'papaya', 'python', 'rust'].map((w) => `Likes ${w}`)];
    const ids = [];
    for (const content of facts) ids.push((await write(k, content, undefined, { createdAt: old })).id);
    const { summaries } = (await app.ok(SUMMARIZE, { apiKeyId: k })).summarize;
    expect(summaries.map((s) => s.content).join('\n')).toContain('Lyon');
    await write(k, 'The user lives in Berlin', [ids[0]!]);
    const block = (await app.ok(RETRIEVE, { input: { apiKeyId: k, query: 'where does the user live', strategy: 'EXACT' } })).retrieve.block;
    expect(block).toContain('Berlin');
    expect(block).not.toContain('Lyon');
  });

  it('never summarises a superseded memory', async () => {
    const k = freshKey();
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const rows = [
      'Drinks tea',
      'Plays chess',
      ...['banana', 'mango', 'cherry', 'papaya', 'python', 'rust', 'paris', 'jazz'].map((w) => `Likes ${w}`),
    ];
    const ids = [];
    for (const content of rows) ids.push((await write(k, content, undefined, { createdAt: old })).id);
    await write(k, 'Drinks coffee now', [ids[0]!]);
    const { summaries } = (await app.ok(SUMMARIZE, { apiKeyId: k })).summarize;
    expect(summaries.map((s) => s.content).join('\n')).toContain('Plays chess');
    expect(summaries.map((s) => s.content).join('\n')).not.toContain('Drinks tea');
  });
});

describe("MCP's memory_add with supersedes", () => {
  it('hides the memories it names from memory_search', async () => {
    const client = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
    try {
      const k = freshKey();
      const old = await call(client, memoryAdd, { apiKeyId: k, type: 'factual', key: 'employer', content: 'The user works at Acme.' });
      await call(client, memoryAdd, {
        apiKeyId: k,
        type: 'factual',
        key: 'employer-now',
        content: 'The user works at Globex.',
        supersedes: [old.memory.id],
      });
      const found = await call(client, memorySearch, { apiKeyId: k, query: 'where does the user work' });
      expect(found.memories.map((m) => m.content)).toEqual(['The user works at Globex.']);
    } finally {
      await client.close();
    }
  });

  it("refuses a gateway token's supersedes naming another key's memory, and stores nothing", async () => {
    const theirs = await write(freshKey(), 'The other tenant works at Initech');
    const k = freshKey();
    const client = await mcpClient(httpTransport(app.url, await app.mintToken({ apiKeyId: k })));
    try {
      const error = await callError(client, 'memory_add', { type: 'factual', key: 'mine', content: 'Mine', supersedes: [theirs.id] });
      expect(error).toEqual({ code: 'NOT_FOUND', message: `no memory with id ${theirs.id}` });
      expect((await app.ok(LIST, { apiKeyId: k, includeSuperseded: true })).memories.totalCount).toBe(0);
    } finally {
      await client.close();
    }
  });
});
